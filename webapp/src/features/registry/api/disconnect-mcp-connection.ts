// DELETE /api/v1/mcp-connections/{id}: the request, and the hook that also
// drops the local copy and updates the caller's connection list.

import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import { ApiError, apiRequest } from '../../../lib/api-client';
import { removeLocalConnection } from '../../../lib/local-connections';
import type { McpConnection } from '../../../lib/api/types';
import { MCP_CONNECTIONS_PATH, mcpConnectionsKey } from '../../../lib/api/use-mcp-connections';

export function requestDisconnect(connectionId: string): Promise<void> {
  return apiRequest<void>(`${MCP_CONNECTIONS_PATH}${encodeURIComponent(connectionId)}`, { method: 'DELETE' });
}

/**
 * Disconnect one of `userId`'s connections. A 404 means it is already gone
 * (removed from another tab): that counts as done. Other failures throw.
 */
export function useDisconnectMcpConnection() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (userId: string, connectionId: string): Promise<void> => {
      try {
        await requestDisconnect(connectionId);
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404)) throw err;
      }
      removeLocalConnection(userId, connectionId);
      await mutate<McpConnection[]>(
        mcpConnectionsKey(userId),
        (list) => list?.filter((c) => c.connection_id !== connectionId),
        { revalidate: true },
      );
    },
    [mutate],
  );
}
