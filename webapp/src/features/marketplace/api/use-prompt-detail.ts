import useSWR from 'swr';
import { apiRequest } from '../../../lib/api-client';
import { PROMPTS_CACHE_MS } from '../../../lib/api/use-prompts';
import type { Prompt } from '../../../lib/api/types';
import { useAuth } from '../../../lib/use-auth';

/**
 * GET /api/v1/prompts/{id}: the whole prompt as the caller may see it (the
 * detail dialog reads the description a card carries only the start of).
 * Keyed per user; null id: no request. Failure leaves the card's text.
 */
export function usePromptDetail(id: string | null): Prompt | undefined {
  const { user } = useAuth();
  const key = id ? ([`/prompts/${encodeURIComponent(id)}`, user?.id ?? 'visitor'] as const) : null;
  const swr = useSWR<Prompt>(key, ([url]: readonly [string, string]) => apiRequest<Prompt>(url), {
    dedupingInterval: PROMPTS_CACHE_MS,
    shouldRetryOnError: false,
  });
  return swr.data && typeof swr.data.description === 'string' ? swr.data : undefined;
}
