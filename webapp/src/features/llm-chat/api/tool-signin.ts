// POST /api/v1/mcp-oauth/start for a sign-in a tool call asked for in the
// middle of a reply (the tool_signin frame): the connection's server and
// endpoint, the scope the server named, and return_to "chat", so the
// server's callback brings the browser back to the chat page
// (/llm-chat?connected=<server id>, or ?oauth_error=<code>: codes and ids
// only, as for the registry) rather than to the registry.

import { ApiError, apiRequest } from '../../../lib/api-client';
import { isRecord, str } from '../../../lib/api/wire';

export const TOOL_SIGN_IN_START_PATH = '/mcp-oauth/start';

/**
 * The server's authorization page to send the browser to. The call's MCP
 * connection goes with it: one connected without signing in becomes a
 * signed-in one (same id), so the paused call runs again on it.
 */
export async function startToolSignIn(serverId: string, endpointUrl: string, scope: string, mcpConnectionId: string): Promise<string> {
  const body: Record<string, string> = { server_id: serverId, return_to: 'chat' };
  if (endpointUrl) body.endpoint_url = endpointUrl;
  if (mcpConnectionId) body.connection_id = mcpConnectionId;
  if (scope) body.scope = scope;
  const raw = await apiRequest(TOOL_SIGN_IN_START_PATH, { method: 'POST', body });
  const url = isRecord(raw) ? str(raw.authorization_url) : '';
  if (!/^https?:\/\//i.test(url)) throw new ApiError(200, 'The server did not answer with a sign-in page', { code: 'bad_response' });
  return url;
}
