// GET /api/v1/mcp-servers/: the registry list, a page at a time (the
// server filters, searches, orders by name and counts), read by the
// registry page with Load more as the marketplace reads its prompts.

import { useRef } from 'react';
import { preload } from 'swr';
import useSWRInfinite from 'swr/infinite';
import { apiRequest } from '../../../lib/api-client';
import { normaliseServerList } from '../../../lib/api/mcp-normalise';
import type { McpServer } from '../../../lib/api/mcp-types';

export const MCP_SERVERS_PATH = '/mcp-servers/';
/** The prober runs every 15 min; a minute of caching keeps the cards' health fresh enough. */
export const MCP_SERVERS_CACHE_MS = 60_000;

export interface McpServerQuery {
  /** Exact model type; '' or absent = all. */
  model_type?: string;
  /** Whole words in the name, registry name or description (server side). */
  search?: string;
  cursor?: string;
}

/** One page as the server answers it (mcpapi listJSON). */
export interface McpServerPage {
  items: McpServer[];
  /** The next page's cursor; null on the last page. */
  next_cursor: string | null;
  /** How many servers the list has; with count_exact false, at least this many. */
  count: number;
  count_exact: boolean;
}

export function mcpServersUrl(query: McpServerQuery = {}): string {
  const params = new URLSearchParams();
  if (query.model_type) params.set('model_type', query.model_type);
  const search = query.search?.trim();
  if (search) params.set('search', search);
  if (query.cursor) params.set('cursor', query.cursor);
  const qs = params.toString();
  return qs ? `${MCP_SERVERS_PATH}?${qs}` : MCP_SERVERS_PATH;
}

/** A page from the answer; a bare array is a whole list in one page, counted exactly. */
export function normaliseServerPage(data: unknown): McpServerPage {
  const o = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const items = normaliseServerList(Array.isArray(data) ? data : o.items);
  const next = typeof o.next_cursor === 'string' && o.next_cursor ? o.next_cursor : null;
  const counted = typeof o.count === 'number' && Number.isFinite(o.count);
  return {
    items,
    next_cursor: next,
    count: counted ? (o.count as number) : items.length,
    count_exact: counted ? o.count_exact === true : next === null,
  };
}

/** The servers of pages read one after the other, each once (one that moved between two reads stays where it was first shown). */
export function serversOfPages(pages: readonly McpServerPage[] | undefined): McpServer[] {
  const seen = new Set<string>();
  const out: McpServer[] = [];
  for (const page of pages ?? []) {
    for (const s of page.items) {
      if (seen.has(s.id)) continue;
      seen.add(s.id);
      out.push(s);
    }
  }
  return out;
}

/** What the count line says of the pages read: the server's exact count when a page has one, else how many so far ("at least"). */
export function serverPagesCount(pages: readonly McpServerPage[] | undefined, shown: number): { count: number; exact: boolean } {
  if (!pages || pages.length === 0) return { count: 0, exact: true };
  for (let i = pages.length - 1; i >= 0; i--) {
    if (pages[i].count_exact) return { count: Math.max(pages[i].count, shown), exact: true };
  }
  return { count: shown, exact: pages[pages.length - 1].next_cursor === null };
}

async function fetchServerPage(url: string): Promise<McpServerPage> {
  return normaliseServerPage(await apiRequest(url));
}

/**
 * Starts the unfiltered list's first page at start-up, beside the page's
 * chunk download: the page's useMcpServerPages({}) takes it over (same key
 * and fetcher) instead of asking only once it has rendered.
 */
export function prefetchMcpServers(): void {
  // Handled here so a failure nobody reads is no unhandled rejection; the
  // hook still sees it.
  preload(mcpServersUrl(), fetchServerPage).catch(() => undefined);
}

/**
 * The registry list a page at a time (public, the same for every caller,
 * so keyed by URL alone): `servers` are the pages' cards in order, each
 * once; `loadMore` reads the next page. While a new query's first page
 * loads, the previous query's pages stay in `pages` (`isPrevious`). Pass
 * null to skip.
 */
export function useMcpServerPages(query: McpServerQuery | null) {
  const swr = useSWRInfinite<McpServerPage, unknown>(
    (index, previous: McpServerPage | null) => {
      if (!query) return null;
      if (index === 0) return mcpServersUrl(query);
      if (!previous?.next_cursor) return null;
      return mcpServersUrl({ ...query, cursor: previous.next_cursor });
    },
    fetchServerPage,
    { dedupingInterval: MCP_SERVERS_CACHE_MS, shouldRetryOnError: false, revalidateFirstPage: false },
  );
  // Keep the last query's pages on screen while the next query loads.
  const last = useRef<McpServerPage[] | null>(null);
  if (swr.data !== undefined) last.current = swr.data;
  const pages = swr.data ?? (query && !swr.error && last.current ? last.current : undefined);
  const servers = serversOfPages(pages);
  const lastPage = pages?.[pages.length - 1];
  const loadingMore = swr.data !== undefined && swr.size > swr.data.length && !swr.error;
  const { mutate, setSize } = swr;
  return {
    pages,
    servers,
    error: swr.error as unknown,
    isLoading: swr.isLoading,
    /** True when `pages` are an older query's, shown while this one loads. */
    isPrevious: swr.data === undefined && pages !== undefined,
    ...serverPagesCount(pages, servers.length),
    hasMore: Boolean(lastPage?.next_cursor) && swr.data !== undefined,
    loadingMore,
    loadMore: () => {
      if (!loadingMore && swr.data && lastPage?.next_cursor) void setSize(swr.data.length + 1);
    },
    mutate,
  };
}
