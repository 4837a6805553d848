import useSWR from 'swr';
import { apiRequest } from '../../../lib/api-client';
import { PROMPTS_CACHE_MS } from '../../../lib/api/use-prompts';
import type { Prompt } from '../../../lib/api/types';
import { useAuth } from '../../../lib/use-auth';

export function promptDetailPath(id: string): string {
  return `/prompts/${encodeURIComponent(id)}`;
}

/** GET /api/v1/prompts/{id} once: the prompt as the caller may see it now (its content once they have access). */
export function fetchPromptDetail(id: string): Promise<Prompt> {
  return apiRequest<Prompt>(promptDetailPath(id));
}

/**
 * GET /api/v1/prompts/{id}: the whole prompt as the caller may see it (the
 * detail dialog reads the description a card carries only the start of,
 * a creator's prompt's versions, and the content a card may not carry).
 * Keyed per user and per access: a purchase or a free claim reads it again
 * with its content. Null id: no request. Failure leaves the card's text.
 */
export function usePromptDetail(id: string | null, hasAccess = false): Prompt | undefined {
  const { user } = useAuth();
  const key = id ? ([promptDetailPath(id), user?.id ?? 'visitor', hasAccess ? 'access' : 'preview'] as const) : null;
  const swr = useSWR<Prompt>(key, ([url]: readonly [string, string, string]) => apiRequest<Prompt>(url), {
    dedupingInterval: PROMPTS_CACHE_MS,
    shouldRetryOnError: false,
  });
  return swr.data && typeof swr.data.description === 'string' ? swr.data : undefined;
}
