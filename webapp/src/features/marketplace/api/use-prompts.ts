import useSWR from 'swr';
import { apiRequest } from '../../../lib/api-client';
import { useAuth } from '../../auth/use-auth';
import type { Prompt } from './types';

export const PROMPTS_PATH = '/prompts/';
/** SPEC §9: prompt list cached 5 minutes. */
export const PROMPTS_CACHE_MS = 5 * 60_000;

export interface PromptQuery {
  search?: string;
  category_id?: string;
}

export function promptsUrl(query: PromptQuery = {}): string {
  const params = new URLSearchParams();
  if (query.search) params.set('search', query.search);
  if (query.category_id) params.set('category_id', query.category_id);
  const qs = params.toString();
  return qs ? `${PROMPTS_PATH}?${qs}` : PROMPTS_PATH;
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

/**
 * GET /api/v1/prompts/ (query search, category_id). Failure gives an empty
 * list (SPEC §8). Pass null to skip the request.
 */
export function usePrompts(query: PromptQuery | null) {
  const { user } = useAuth();
  const key = query ? ([promptsUrl(query), user?.id ?? 'visitor'] as const) : null;
  const swr = useSWR<Prompt[]>(key, async ([url]: readonly [string, string]) => normalisePromptList(await apiRequest(url)), {
    dedupingInterval: PROMPTS_CACHE_MS,
    shouldRetryOnError: false,
  });
  return { ...swr, prompts: swr.error ? [] : (swr.data ?? []) };
}
