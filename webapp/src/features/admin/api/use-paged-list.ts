// A cursor-paged admin list (docs/admin.md: `limit`, `cursor` = the previous
// page's `next_cursor`, '' on the last page) as one growing list with
// "Load more". Keyed by the signed-in user like every signed-in read.

import useSWRInfinite from 'swr/infinite';
import { apiRequest } from '../../../lib/api-client';
import { useAuth } from '../../../lib/use-auth';
import { readPage } from './read-page';
import { withQuery, type QueryValue } from './paths';
import type { Page } from './types';

export const PAGE_SIZE = 25;

export interface PagedList<T> {
  items: T[];
  /** The server's count of everything matching, across pages; null when it does not say. */
  total: number | null;
  /** The first page has not come yet. */
  loading: boolean;
  /** A further page is on its way. */
  loadingMore: boolean;
  /** Rows are on screen and a newer read of them is on its way (a new filter, a refresh). */
  busy: boolean;
  hasMore: boolean;
  loadMore: () => void;
  error: unknown;
  /** Reads every loaded page again (after a change). */
  refresh: () => Promise<unknown>;
}

type PageKey = readonly [string, string];

/** `path` with `query` (null: no request), read page by page with `readItem`. */
export function usePagedList<T>(path: string | null, query: Record<string, QueryValue>, readItem: (v: unknown) => T | null, pageSize = PAGE_SIZE): PagedList<T> {
  const { status, user } = useAuth();
  const uid = status === 'authenticated' && user ? user.id : null;

  const getKey = (index: number, previous: Page<T> | null): PageKey | null => {
    if (path === null || uid === null) return null;
    if (index > 0 && !previous?.next_cursor) return null;
    const cursor = index > 0 ? previous?.next_cursor : undefined;
    return [withQuery(path, { ...query, limit: pageSize, cursor }), uid];
  };

  const swr = useSWRInfinite<Page<T>, unknown>(getKey, async ([url]: PageKey) => readPage(await apiRequest(url), readItem), {
    // A failure shows Retry; the first page is not read again on "Load more".
    shouldRetryOnError: false,
    revalidateFirstPage: false,
    // While a new filter loads, the old rows stay (marked busy) instead of flashing away.
    keepPreviousData: true,
  });

  const pages = swr.data ?? [];
  const last = pages[pages.length - 1];
  const loading = swr.data === undefined && swr.error === undefined;
  return {
    items: pages.flatMap((p) => p.items),
    total: pages[0]?.total ?? null,
    loading,
    loadingMore: !loading && swr.size > pages.length && swr.error === undefined,
    busy: !loading && swr.isValidating,
    hasMore: Boolean(last?.next_cursor),
    loadMore: () => void swr.setSize((n) => n + 1),
    error: swr.error,
    refresh: () => swr.mutate(),
  };
}
