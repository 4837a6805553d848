// Secrets that arrive in the address bar: the sign-in token of
// /auth/callback?token=… and the single-use tokens of the mailed links
// (/verify-email?token=…, /reset-password?token=…). At start, before anything
// else reads the address (analytics, the router, chunk requests whose Referer
// is the address), the token is taken out of the URL with
// history.replaceState and kept here, in memory only, for its page.

/** Pages whose `token` query parameter is a secret. */
export const SECRET_TOKEN_PAGES: readonly string[] = ['/auth/callback', '/verify-email', '/reset-password'];

const stash = new Map<string, string>();

function pageOf(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

/**
 * Removes `token` from the current address when it is one of the secret
 * pages, keeping the other parameters and the hash. Returns true when it
 * removed one. Call it first thing at start.
 */
export function stripUrlSecrets(win: Pick<Window, 'location' | 'history'> = window): boolean {
  const { pathname, search, hash } = win.location;
  const page = pageOf(pathname);
  if (!SECRET_TOKEN_PAGES.includes(page)) return false;
  const params = new URLSearchParams(search);
  if (!params.has('token')) return false;
  const token = params.get('token') ?? '';
  params.delete('token');
  if (token) stash.set(page, token);
  else stash.delete(page);
  const rest = params.toString();
  win.history.replaceState(win.history.state, '', pathname + (rest ? `?${rest}` : '') + hash);
  return true;
}

/**
 * The token for `page`: the one taken from the address at start, else the
 * one still in `params` (a page reached without the start-up step, e.g. in
 * tests). Does not consume it; see forgetUrlToken.
 */
export function readUrlToken(page: string, params: URLSearchParams): string | null {
  return stash.get(page) ?? params.get('token');
}

/** Drops a stashed token once its page has used it. */
export function forgetUrlToken(page: string): void {
  stash.delete(page);
}

/** Tests only. */
export function clearUrlSecretsForTests(): void {
  stash.clear();
}
