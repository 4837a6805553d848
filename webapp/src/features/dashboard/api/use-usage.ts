import useSWR from 'swr';
import { ApiError, apiRequest } from '../../../lib/api-client';
import { useAuth } from '../../auth/use-auth';
import { normaliseUsage } from '../usage';
import type { ChatUsage } from './types';

export const USAGE_PATH = '/users/usage';

/** The cache key of one user's usage. */
export function usageKey(userId: string) {
  return [USAGE_PATH, userId] as const;
}

async function fetchUsage([path]: readonly [string, string]): Promise<ChatUsage> {
  const usage = normaliseUsage(await apiRequest(path));
  if (!usage) throw new ApiError(200, 'The usage answer could not be read', { code: 'bad_response' });
  return usage;
}

/**
 * GET /api/v1/users/usage (signed in only; visitors make no request): chat
 * tokens and cost today and this month, and the limits. Read again when the
 * window regains focus, so coming back from a chat tab shows fresh numbers.
 */
export function useUsage() {
  const { status, user } = useAuth();
  const userId = status === 'authenticated' && user ? user.id : null;
  return useSWR<ChatUsage>(userId ? usageKey(userId) : null, fetchUsage, {
    shouldRetryOnError: false,
    revalidateOnFocus: true,
  });
}
