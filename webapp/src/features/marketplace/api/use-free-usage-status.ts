import useSWR from 'swr';
import { userCacheKey, useUserKey } from '../../../lib/use-user-key';
import type { FreeUsageStatus } from './types';

export const FREE_STATUS_PATH = '/prompts/free-usage-status';

export function freeStatusKey(userId: string) {
  return userCacheKey(FREE_STATUS_PATH, userId);
}

/** GET /api/v1/prompts/free-usage-status (signed in only). */
export function useFreeUsageStatus() {
  const swr = useSWR<FreeUsageStatus>(useUserKey(FREE_STATUS_PATH), { shouldRetryOnError: false });
  const data = swr.data && typeof swr.data.remaining === 'number' ? swr.data : undefined;
  return {
    ...swr,
    freeStatus: data,
    /** Prompts claimed free, as strings. */
    freeIds: Array.isArray(data?.prompt_ids) ? data.prompt_ids.map(String) : [],
  };
}
