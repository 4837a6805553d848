import useSWR from 'swr';
import type { Category } from '../../../lib/api/types';

export const CATEGORIES_PATH = '/prompts/categories';
/** SPEC §9: categories cached 10 minutes. */
export const CATEGORIES_CACHE_MS = 10 * 60_000;

/** GET /api/v1/prompts/categories (public). Failure leaves only 'All Categories'. */
export function useCategories() {
  const swr = useSWR<Category[]>(CATEGORIES_PATH, {
    dedupingInterval: CATEGORIES_CACHE_MS,
    shouldRetryOnError: false,
  });
  return { ...swr, categories: Array.isArray(swr.data) ? swr.data : [] };
}
