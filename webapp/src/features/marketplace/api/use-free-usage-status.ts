import useSWR from 'swr';
import { useAuth } from '../../auth/use-auth';
import type { FreeUsageStatus } from './types';

export const FREE_STATUS_PATH = '/prompts/free-usage-status';

export function freeStatusKey(userId: string) {
  return [FREE_STATUS_PATH, userId] as const;
}

/** GET /api/v1/prompts/free-usage-status (signed in only). */
export function useFreeUsageStatus() {
  const { status, user } = useAuth();
  const key = status === 'authenticated' && user ? freeStatusKey(user.id) : null;
  const swr = useSWR<FreeUsageStatus>(key, { shouldRetryOnError: false });
  const data = swr.data && typeof swr.data.remaining === 'number' ? swr.data : undefined;
  return {
    ...swr,
    freeStatus: data,
    /** Prompts claimed free, as strings. */
    freeIds: Array.isArray(data?.prompt_ids) ? data.prompt_ids.map(String) : [],
  };
}
