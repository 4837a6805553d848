// The browser comes back from a server's sign-in page to
// /registry?connected={server_id} or
// /registry?oauth_error={code}&server={server_id}&detail={text}
// (GET /api/v1/mcp-oauth/callback). This reads that once, so the page can
// say what happened and drop the parameters.

export type SignInReturn =
  | { kind: 'connected'; serverId: string }
  | { kind: 'failed'; serverId: string; code: string; detail: string };

const RETURN_KEYS = ['connected', 'oauth_error', 'server', 'detail'] as const;

/** Fallback details by error code, when the callback sent none. */
const DETAILS: Record<string, string> = {
  access_denied: 'You cancelled the sign-in.',
  invalid_state: 'This sign-in link is not valid. Start again from the registry.',
  expired: 'This sign-in took more than 10 minutes. Start again from the registry.',
};

export function readSignInReturn(params: URLSearchParams): SignInReturn | null {
  const connected = params.get('connected');
  if (connected) return { kind: 'connected', serverId: connected };
  const code = params.get('oauth_error');
  if (!code) return null;
  const detail = (params.get('detail') ?? '').trim().slice(0, 300) || DETAILS[code] || `The sign-in failed (${code.slice(0, 40)}).`;
  return { kind: 'failed', serverId: params.get('server') ?? '', code, detail };
}

/** The same parameters without the sign-in's own. */
export function withoutSignInReturn(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const k of RETURN_KEYS) next.delete(k);
  return next;
}
