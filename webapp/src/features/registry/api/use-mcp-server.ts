import useSWR from 'swr';
import { ApiError, apiRequest } from '../../../lib/api-client';
import { normaliseServerDetail } from '../../../lib/api/mcp-normalise';
import type { McpServerDetail } from '../../../lib/api/mcp-types';
import { MCP_SERVERS_PATH, MCP_SERVERS_CACHE_MS } from './use-mcp-servers';

export function mcpServerPath(id: string): string {
  return `${MCP_SERVERS_PATH}${encodeURIComponent(id)}`;
}

async function fetchServer(path: string): Promise<McpServerDetail> {
  const detail = normaliseServerDetail(await apiRequest(path));
  if (!detail) throw new ApiError(200, 'Unexpected response from server', { code: 'bad_response' });
  return detail;
}

/** GET /api/v1/mcp-servers/{id}: the entry plus server_info and tools from the last probe. null skips. */
export function useMcpServer(id: string | null) {
  const swr = useSWR<McpServerDetail>(id ? mcpServerPath(id) : null, fetchServer, {
    dedupingInterval: MCP_SERVERS_CACHE_MS,
    shouldRetryOnError: false,
  });
  return { data: swr.data, error: swr.error as unknown, isLoading: swr.isLoading, mutate: swr.mutate };
}
