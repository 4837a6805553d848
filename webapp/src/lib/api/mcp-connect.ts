// POST /api/v1/mcp-connections/: the request, and the hook that also keeps
// the local copy (SPEC §3) and refreshes the caller's connection list.

import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import { ApiError, apiRequest } from '../api-client';
import { saveLocalConnection } from '../local-connections';
import { normaliseConnectResponse } from './mcp-normalise';
import type { McpConnectRequest, McpConnectResponse } from './mcp-types';
import { MCP_CONNECTIONS_PATH, mcpConnectionsKey } from './use-mcp-connections';

/**
 * The server answers within 15 s (504 after that); the client gives up a
 * little later so a dead network cannot leave the dialog 'Connecting...'.
 */
export const CONNECT_TIMEOUT_MS = 30_000;

/** Thrown when the answer does not come within CONNECT_TIMEOUT_MS. */
export const CONNECT_TIMEOUT_TEXT = 'The server did not answer in time. Please try again.';

export async function requestConnect(body: McpConnectRequest): Promise<McpConnectResponse> {
  // Our own timer (not AbortSignal.timeout) so it is always cleared once the answer is in.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), CONNECT_TIMEOUT_MS);
  let raw: unknown;
  try {
    raw = await apiRequest(MCP_CONNECTIONS_PATH, { method: 'POST', body, signal: controller.signal });
  } catch (err) {
    if (controller.signal.aborted) throw new ApiError(0, CONNECT_TIMEOUT_TEXT, { code: 'timeout' });
    throw err;
  } finally {
    clearTimeout(timer);
  }
  const res = normaliseConnectResponse(raw);
  if (!res) throw new ApiError(200, 'The server did not confirm the connection', { code: 'bad_response' });
  return res;
}

/** Connect as `userId`; on success store the local copy and revalidate the list. Throws ApiError. */
export function useConnectMcpServer() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (userId: string, body: McpConnectRequest): Promise<McpConnectResponse> => {
      const res = await requestConnect(body);
      saveLocalConnection({
        connection_id: res.connection_id,
        connected_at: res.connected_at || new Date().toISOString(),
        status: 'connected',
        server_id: res.server_id || body.server_id,
        server_name: res.server_name || body.server_name,
        endpoint_url: res.endpoint_url || body.endpoint_url,
        user_id: userId,
      });
      void mutate(mcpConnectionsKey(userId));
      return res;
    },
    [mutate],
  );
}
