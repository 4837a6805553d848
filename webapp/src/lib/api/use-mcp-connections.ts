// GET /api/v1/mcp-connections/: the caller's MCP connections, read by the
// registry (My connections) and the dashboard (Active Connections).

import useSWR from 'swr';
import { apiRequest } from '../api-client';
import { userCacheKey, useUserKey } from '../use-user-key';
import type { McpConnection } from './types';
import { bool, isRecord, num, str, transportOf } from './wire';

export const MCP_CONNECTIONS_PATH = '/mcp-connections/';

/** The cache key of one user's connections. */
export function mcpConnectionsKey(userId: string) {
  return userCacheKey(MCP_CONNECTIONS_PATH, userId);
}

export function normaliseConnection(v: unknown): McpConnection | null {
  if (!isRecord(v) || typeof v.connection_id !== 'string' || !v.connection_id) return null;
  return {
    connection_id: v.connection_id,
    server_id: str(v.server_id),
    server_name: str(v.server_name) || str(v.server_id),
    endpoint_url: str(v.endpoint_url),
    model_type: str(v.model_type),
    transport: transportOf(v.transport),
    protocol_version: str(v.protocol_version),
    tools_count: num(v.tools_count),
    has_api_key: bool(v.has_api_key),
    api_key_last4: str(v.api_key_last4),
    connected_at: str(v.connected_at),
    oauth: bool(v.oauth),
    needs_sign_in: bool(v.needs_sign_in),
    endpoint_host: str(v.endpoint_host),
  };
}

export function normaliseConnectionList(data: unknown): McpConnection[] {
  return Array.isArray(data) ? data.map(normaliseConnection).filter((c): c is McpConnection => c !== null) : [];
}

async function fetchConnections([path]: readonly [string, string]): Promise<McpConnection[]> {
  return normaliseConnectionList(await apiRequest(path));
}

/** Signed in only (visitors make no request), newest first. */
export function useMcpConnections() {
  const key = useUserKey(MCP_CONNECTIONS_PATH);
  const swr = useSWR<McpConnection[]>(key, fetchConnections, { shouldRetryOnError: false });
  return {
    userId: key ? key[1] : null,
    data: swr.data,
    error: swr.error as unknown,
    isLoading: swr.isLoading,
    mutate: swr.mutate,
    connections: swr.data ?? [],
  };
}
