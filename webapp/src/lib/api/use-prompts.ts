// GET /api/v1/prompts/: the prompt list, read a page at a time by the
// marketplace (usePromptPages, more pages as the user scrolls) and in one
// page by the dashboard (usePrompts: titles and prices of its fallback
// activities).

import { useMemo, useRef } from 'react';
import useSWR, { preload, type Key } from 'swr';
import useSWRInfinite from 'swr/infinite';
import { apiRequest } from '../api-client';
import { signedInUserId } from '../auth-session';
import { useAuth } from '../use-auth';
import type { Prompt, SortOption } from './types';

export const PROMPTS_PATH = '/prompts/';
/** SPEC §9: prompt list cached 5 minutes. */
export const PROMPTS_CACHE_MS = 5 * 60_000;

/** The caller's own prompts only: bought, or bought and claimed free. */
export type OwnFilter = 'purchased' | 'mine';

export interface PromptQuery {
  /** Search words (the server finds prompts having every one). */
  q?: string;
  category?: string;
  /** Omitted for 'newest', the server's default, so the plain list shares one cache entry. */
  sort?: SortOption;
  filter?: OwnFilter;
  limit?: number;
  cursor?: string;
}

/** One page as the server answers it (promptsapi listJSON). */
export interface PromptPage {
  items: Prompt[];
  /** The next page's cursor; null on the last page. */
  next_cursor: string | null;
  /** How many prompts the list has; with count_exact false, at least this many. */
  count: number;
  count_exact: boolean;
}

export function promptsUrl(query: PromptQuery = {}): string {
  const params = new URLSearchParams();
  const q = query.q?.trim();
  if (q) params.set('q', q);
  if (query.category) params.set('category', query.category);
  if (query.sort && query.sort !== 'newest') params.set('sort', query.sort);
  if (query.filter) params.set('filter', query.filter);
  if (query.limit) params.set('limit', String(query.limit));
  if (query.cursor) params.set('cursor', query.cursor);
  const qs = params.toString();
  return qs ? `${PROMPTS_PATH}?${qs}` : PROMPTS_PATH;
}

/** The marker of a marketplace page's key: its cache holds a PromptPage, not a list. */
const PAGE_KEY = 'page';

/** Any cached one-page list, whatever its query or user (for mutate matchers); never a marketplace page. */
export function isPromptListKey(key: unknown): boolean {
  if (!Array.isArray(key) || typeof key[0] !== 'string' || key[2] === PAGE_KEY) return false;
  const path = key[0];
  return path === PROMPTS_PATH || path.startsWith(PROMPTS_PATH + '?');
}

/** Accepts a bare array or an {items|prompts: [...]} envelope. */
export function normalisePromptList(data: unknown): Prompt[] {
  if (Array.isArray(data)) return data as Prompt[];
  if (data && typeof data === 'object') {
    const o = data as Record<string, unknown>;
    if (Array.isArray(o.items)) return o.items as Prompt[];
    if (Array.isArray(o.prompts)) return o.prompts as Prompt[];
  }
  return [];
}

/** A page from the answer; a bare array is a whole list in one page, counted exactly. */
export function normalisePromptPage(data: unknown): PromptPage {
  const items = normalisePromptList(data);
  const o = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const next = typeof o.next_cursor === 'string' && o.next_cursor ? o.next_cursor : null;
  const counted = typeof o.count === 'number' && Number.isFinite(o.count);
  return {
    items,
    next_cursor: next,
    count: counted ? (o.count as number) : items.length,
    count_exact: counted ? o.count_exact === true : next === null,
  };
}

/** Replace one prompt (matched by id) in a cached list; lists without it are returned unchanged. */
export function replacePromptInList(list: Prompt[] | undefined, prompt: Prompt): Prompt[] | undefined {
  if (!list) return list;
  const id = String(prompt.id);
  return list.some((p) => String(p.id) === id) ? list.map((p) => (String(p.id) === id ? { ...p, ...prompt } : p)) : list;
}

/** Merge fields into one prompt of a cached list. */
export function patchPromptInList(list: Prompt[] | undefined, id: string, patch: Partial<Prompt>): Prompt[] | undefined {
  if (!list) return list;
  return list.some((p) => String(p.id) === id) ? list.map((p) => (String(p.id) === id ? { ...p, ...patch } : p)) : list;
}

/**
 * The prompts of pages read one after the other, each once: a prompt that
 * moved between two reads (its price changed, say) stays where it was
 * first shown.
 */
export function promptsOfPages(pages: readonly PromptPage[] | undefined): Prompt[] {
  const seen = new Set<string>();
  const out: Prompt[] = [];
  for (const page of pages ?? []) {
    for (const p of page.items) {
      const id = String(p.id);
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(p);
    }
  }
  return out;
}

/**
 * What the count line says of the pages read (`shown` prompts): the list's
 * count when the server knows it exactly (the latest page that does; never
 * fewer than shown), else how many were found so far, exact once the last
 * page is in and otherwise "at least" (the page shows "48+").
 */
export function pagesCount(pages: readonly PromptPage[] | undefined, shown: number): { count: number; exact: boolean } {
  if (!pages || pages.length === 0) return { count: 0, exact: true };
  for (let i = pages.length - 1; i >= 0; i--) {
    if (pages[i].count_exact) return { count: Math.max(pages[i].count, shown), exact: true };
  }
  return { count: shown, exact: pages[pages.length - 1].next_cursor === null };
}

async function fetchPrompts([url]: readonly [string, string]): Promise<Prompt[]> {
  return normalisePromptList(await apiRequest(url));
}

async function fetchPromptPage([url]: readonly [string, string, string]): Promise<PromptPage> {
  return normalisePromptPage(await apiRequest(url));
}

/** A one-page list's cache key: per user, so a visitor's previews and a buyer's contents never share an entry. */
function promptsKey(query: PromptQuery, userId: string | null): readonly [string, string] {
  return [promptsUrl(query), userId ?? 'visitor'];
}

/** A marketplace page's cache key: per query, cursor and user. */
function pageKey(query: PromptQuery, userId: string | null): readonly [string, string, string] {
  return [promptsUrl(query), userId ?? 'visitor', PAGE_KEY];
}

/**
 * Starts the marketplace's first page request at start-up (the session
 * already read), beside the page's chunk download: the page's first
 * usePromptPages takes it over (same key and fetcher) instead of asking
 * once rendered.
 */
export function prefetchPrompts(): void {
  // Handled here so a failure nobody reads is no unhandled rejection; the
  // hook still sees it.
  preload(pageKey({}, signedInUserId()), fetchPromptPage).catch(() => undefined);
}

/**
 * GET /api/v1/prompts/ (query q, category, sort, filter, limit), one page,
 * keyed per user so a visitor's previews and a buyer's contents never share
 * a cache entry. Failure gives an empty `prompts` (SPEC §8; the error stays
 * in `error`). While a new query loads, the previous query's list of the
 * same user stays in `data`. Pass null to skip the request.
 */
export function usePrompts(query: PromptQuery | null) {
  const { user } = useAuth();
  const scope = user?.id ?? 'visitor';
  const key: Key = query ? promptsKey(query, user?.id ?? null) : null;
  const swr = useSWR<Prompt[]>(key, fetchPrompts, {
    dedupingInterval: PROMPTS_CACHE_MS,
    shouldRetryOnError: false,
  });
  // Keep the last list on screen while the next query loads, never across users.
  const last = useRef<{ scope: string; data: Prompt[] } | null>(null);
  if (swr.data !== undefined) last.current = { scope, data: swr.data };
  const data = swr.data ?? (query && !swr.error && last.current?.scope === scope ? last.current.data : undefined);
  return {
    data,
    error: swr.error as unknown,
    isLoading: swr.isLoading,
    isValidating: swr.isValidating,
    mutate: swr.mutate,
    /** True when `data` is an older query's list shown while this one loads. */
    isPrevious: swr.data === undefined && data !== undefined,
    prompts: swr.error ? [] : (data ?? []),
  };
}

/** How a page's commands change the list it shows (usePromptActions). */
export interface PromptListHandle {
  /** Apply `update` to the prompts of every page read, without asking the server. */
  update: (update: (list: Prompt[] | undefined) => Prompt[] | undefined) => Promise<unknown>;
  /** Read the pages again. */
  revalidate: () => Promise<unknown>;
}

/**
 * The marketplace list, a page at a time (GET /api/v1/prompts/ with each
 * page's cursor), keyed per query and user: `prompts` are the pages' cards
 * in order, each once; `loadMore` reads the next page. While a new query's
 * first page loads, the previous query's pages of the same user stay in
 * `pages`. Pass null to skip the request.
 */
export function usePromptPages(query: PromptQuery | null) {
  const { user } = useAuth();
  const scope = user?.id ?? 'visitor';
  const userId = user?.id ?? null;
  const swr = useSWRInfinite<PromptPage, unknown>(
    (index, previous: PromptPage | null) => {
      if (!query) return null;
      if (index === 0) return pageKey(query, userId);
      if (!previous?.next_cursor) return null;
      return pageKey({ ...query, cursor: previous.next_cursor }, userId);
    },
    fetchPromptPage,
    { dedupingInterval: PROMPTS_CACHE_MS, shouldRetryOnError: false, revalidateFirstPage: false },
  );
  const last = useRef<{ scope: string; data: PromptPage[] } | null>(null);
  if (swr.data !== undefined) last.current = { scope, data: swr.data };
  const pages = swr.data ?? (query && !swr.error && last.current?.scope === scope ? last.current.data : undefined);
  const prompts = swr.error && !swr.data ? [] : promptsOfPages(pages);
  const lastPage = pages?.[pages.length - 1];
  const loadingMore = swr.data !== undefined && swr.size > swr.data.length && !swr.error;
  const { mutate, setSize } = swr;
  const handle = useMemo<PromptListHandle>(
    () => ({
      update: (update) =>
        mutate((current) => current?.map((page) => ({ ...page, items: update(page.items) ?? page.items })), { revalidate: false }),
      revalidate: () => mutate(),
    }),
    [mutate],
  );
  return {
    pages,
    prompts,
    error: swr.error,
    /** True when `pages` are an older query's, shown while this one loads. */
    isPrevious: swr.data === undefined && pages !== undefined,
    ...pagesCount(pages, prompts.length),
    hasMore: Boolean(lastPage?.next_cursor) && swr.data !== undefined,
    loadingMore,
    loadMore: () => {
      if (!loadingMore && swr.data && lastPage?.next_cursor) void setSize(swr.data.length + 1);
    },
    handle,
  };
}
