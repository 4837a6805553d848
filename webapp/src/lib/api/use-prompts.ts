// GET /api/v1/prompts/: the prompt list, read by the marketplace and by the
// dashboard (titles and prices of its fallback activities).

import { useRef } from 'react';
import useSWR, { preload, type Key } from 'swr';
import { apiRequest } from '../api-client';
import { signedInUserId } from '../auth-session';
import { useAuth } from '../use-auth';
import type { Prompt, SortOption } from './types';

export const PROMPTS_PATH = '/prompts/';
/** SPEC §9: prompt list cached 5 minutes. */
export const PROMPTS_CACHE_MS = 5 * 60_000;

export interface PromptQuery {
  search?: string;
  category_id?: string;
  /** Omitted for 'newest', the server's default, so the plain list shares one cache entry. */
  sort?: SortOption;
}

export function promptsUrl(query: PromptQuery = {}): string {
  const params = new URLSearchParams();
  const search = query.search?.trim();
  if (search) params.set('search', search);
  if (query.category_id) params.set('category_id', query.category_id);
  if (query.sort && query.sort !== 'newest') params.set('sort', query.sort);
  const qs = params.toString();
  return qs ? `${PROMPTS_PATH}?${qs}` : PROMPTS_PATH;
}

/** Any cached prompt list, whatever its query or user (for mutate matchers). */
export function isPromptListKey(key: unknown): boolean {
  if (!Array.isArray(key) || typeof key[0] !== 'string') return false;
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

async function fetchPrompts([url]: readonly [string, string]): Promise<Prompt[]> {
  return normalisePromptList(await apiRequest(url));
}

/** A list's cache key: per user, so a visitor's previews and a buyer's contents never share an entry. */
function promptsKey(query: PromptQuery, userId: string | null): readonly [string, string] {
  return [promptsUrl(query), userId ?? 'visitor'];
}

/**
 * Starts the unfiltered list's request at start-up (the session already
 * read), beside the page's chunk download: the page's first usePrompts
 * takes it over (same key and fetcher) instead of asking once rendered.
 */
export function prefetchPrompts(): void {
  // Handled here so a failure nobody reads is no unhandled rejection; the
  // hook still sees it.
  preload(promptsKey({}, signedInUserId()), fetchPrompts).catch(() => undefined);
}

/**
 * GET /api/v1/prompts/ (query search, category_id, sort), keyed per user so a
 * visitor's previews and a buyer's contents never share a cache entry. Failure
 * gives an empty `prompts` (SPEC §8; the error stays in `error`). While a new
 * query loads, the previous query's list of the same user stays in `data`.
 * Pass null to skip the request.
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
