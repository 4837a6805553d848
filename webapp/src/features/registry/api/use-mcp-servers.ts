import useSWR, { preload } from 'swr';
import { apiRequest } from '../../../lib/api-client';
import { normaliseServerList } from './normalise';
import type { McpServer } from './types';

export const MCP_SERVERS_PATH = '/mcp-servers/';
/** The prober runs every 15 min; a minute of caching keeps "last checked" fresh enough. */
export const MCP_SERVERS_CACHE_MS = 60_000;

export interface McpServerQuery {
  /** Exact model type; '' or absent = all. */
  model_type?: string;
  /** Case-insensitive over name and description (server side). */
  search?: string;
}

export function mcpServersUrl(query: McpServerQuery = {}): string {
  const params = new URLSearchParams();
  if (query.model_type) params.set('model_type', query.model_type);
  const search = query.search?.trim();
  if (search) params.set('search', search);
  const qs = params.toString();
  return qs ? `${MCP_SERVERS_PATH}?${qs}` : MCP_SERVERS_PATH;
}

async function fetchServers(url: string): Promise<McpServer[]> {
  return normaliseServerList(await apiRequest(url));
}

/**
 * Starts the unfiltered list's request at start-up, beside the page's chunk
 * download: the page's first useMcpServers({}) takes it over (same key and
 * fetcher) instead of asking only once it has rendered.
 */
export function prefetchMcpServers(): void {
  // Handled here so a failure nobody reads is no unhandled rejection; the
  // hook still sees it.
  preload(mcpServersUrl(), fetchServers).catch(() => undefined);
}

/**
 * GET /api/v1/mcp-servers/?model_type=&search= (public; the same for every
 * caller, so keyed by URL alone). While a new query loads, the previous
 * query's list stays in `data` (`isPrevious`). Pass null to skip.
 */
export function useMcpServers(query: McpServerQuery | null) {
  const swr = useSWR<McpServer[]>(query ? mcpServersUrl(query) : null, fetchServers, {
    dedupingInterval: MCP_SERVERS_CACHE_MS,
    keepPreviousData: true,
    shouldRetryOnError: false,
  });
  return {
    data: swr.data,
    error: swr.error as unknown,
    isLoading: swr.isLoading,
    /** True when `data` is an older query's list shown while this one loads. */
    isPrevious: swr.isLoading && swr.data !== undefined,
    mutate: swr.mutate,
    servers: swr.data ?? [],
  };
}
