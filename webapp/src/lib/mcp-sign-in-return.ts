// The browser comes back from a server's sign-in page to
// /registry?connected={server_id} or
// /registry?oauth_error={code}&server={server_id}[&detail_id={id}]
// (GET /api/v1/mcp-oauth/callback), or to /llm-chat with the same
// parameters when the sign-in was asked for in the middle of a reply: the
// registry and the chat both read it, so it lives here. This reads that once, so the page can
// say what happened and drop the parameters. The address is anyone's to
// write: nothing in it is shown. A code picks one of the product's own
// messages (any other code the generic one); the server is named only when
// its id is in the registry (the page looks it up); a detail is read by its
// id from the API, for the signed-in user whose sign-in it was.

export type SignInReturn =
  | { kind: 'connected'; serverId: string }
  | { kind: 'failed'; serverId: string; code: string; detailId: string };

// `detail` is still dropped: an older callback, or a crafted address, may carry it.
const RETURN_KEYS = ['connected', 'oauth_error', 'server', 'detail_id', 'detail'] as const;

/** The product's message for each code the callback sends (shared/api/mcpapi/oauth_failures.go). */
const FAILURES: Record<string, string> = {
  invalid_state: 'This sign-in link is not valid. Start again from the registry.',
  state_used: 'This sign-in was already used or never started here. Start again from the registry.',
  other_browser: 'This sign-in was started in another browser. Start again from the registry.',
  expired: 'This sign-in took more than 10 minutes. Start again from the registry.',
  signed_out: 'You signed out before the sign-in finished. Log in and start again from the registry.',
  access_denied: 'You cancelled the sign-in.',
  authorization_refused: 'The authorization server refused the sign-in.',
  token_refused: 'The authorization server refused the sign-in.',
  handshake_failed: 'You signed in, but the server did not accept the connection.',
  server_error: 'The sign-in could not be finished. Please try again.',
};

/** Any code the table does not know. */
export const SIGN_IN_FAILED = 'The sign-in failed. Start again from the registry.';

/** The product's message for a failure's code. */
export function signInFailureMessage(code: string): string {
  return Object.hasOwn(FAILURES, code) ? FAILURES[code] : SIGN_IN_FAILED;
}

/** A detail id as the callback makes them (32 random bytes, base64url); anything else is not asked for. */
const DETAIL_ID = /^[A-Za-z0-9_-]{20,100}$/;

export function readSignInReturn(params: URLSearchParams): SignInReturn | null {
  const connected = params.get('connected');
  if (connected) return { kind: 'connected', serverId: connected };
  const code = params.get('oauth_error');
  if (!code) return null;
  const detailId = params.get('detail_id') ?? '';
  return { kind: 'failed', serverId: params.get('server') ?? '', code, detailId: DETAIL_ID.test(detailId) ? detailId : '' };
}

/** The same parameters without the sign-in's own. */
export function withoutSignInReturn(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const k of RETURN_KEYS) next.delete(k);
  return next;
}
