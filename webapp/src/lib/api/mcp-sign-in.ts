// POST /api/v1/mcp-oauth/start: prepares a sign-in with an OAuth-protected
// MCP server (discovery, the product's client there, PKCE) and answers the
// server's authorization page; the browser then leaves for it and comes
// back to /registry, or to /llm-chat when asked from a chat tab (see
// lib/mcp-sign-in-return.ts).

import { ApiError, apiRequest } from '../api-client';
import { isRecord, str, strList } from './wire';

export const SIGN_IN_START_PATH = '/mcp-oauth/start';

export interface SignInStart {
  /** The server's own authorization page, with state and PKCE challenge. */
  authorization_url: string;
  /** What the product asks to be allowed; may be empty. */
  scopes: string[];
}

/** The page the browser comes back to: the registry (the server's default) or the chat. */
export type SignInReturnPage = 'registry' | 'chat';

export async function requestSignIn(serverId: string, endpointUrl = '', returnTo: SignInReturnPage = 'registry'): Promise<SignInStart> {
  const body: Record<string, string> = { server_id: serverId };
  if (endpointUrl.trim()) body.endpoint_url = endpointUrl.trim();
  if (returnTo === 'chat') body.return_to = 'chat';
  const raw = await apiRequest(SIGN_IN_START_PATH, { method: 'POST', body });
  const url = isRecord(raw) ? str(raw.authorization_url) : '';
  if (!/^https?:\/\//i.test(url)) throw new ApiError(200, 'The server did not answer with a sign-in page', { code: 'bad_response' });
  return { authorization_url: url, scopes: isRecord(raw) ? strList(raw.scopes) : [] };
}

/** The host the user will sign in on, for the dialog's line. */
export function signInHost(authorizationUrl: string): string {
  try {
    return new URL(authorizationUrl).host;
  } catch {
    return '';
  }
}
