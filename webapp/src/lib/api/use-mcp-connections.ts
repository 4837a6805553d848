import useSWR from 'swr';
import { apiRequest } from '../../../lib/api-client';
import { useAuth } from '../../auth/use-auth';
import { normaliseConnectionList } from './normalise';
import type { McpConnection } from './types';

export const MCP_CONNECTIONS_PATH = '/mcp-connections/';

/** The cache key of one user's connections (shared by the registry and the dashboard). */
export function mcpConnectionsKey(userId: string) {
  return [MCP_CONNECTIONS_PATH, userId] as const;
}

async function fetchConnections([path]: readonly [string, string]): Promise<McpConnection[]> {
  return normaliseConnectionList(await apiRequest(path));
}

/** GET /api/v1/mcp-connections/ (signed in only; visitors make no request), newest first. */
export function useMcpConnections() {
  const { status, user } = useAuth();
  const userId = status === 'authenticated' && user ? user.id : null;
  const swr = useSWR<McpConnection[]>(userId ? mcpConnectionsKey(userId) : null, fetchConnections, {
    shouldRetryOnError: false,
  });
  return {
    userId,
    data: swr.data,
    error: swr.error as unknown,
    isLoading: swr.isLoading,
    mutate: swr.mutate,
    connections: swr.data ?? [],
  };
}
