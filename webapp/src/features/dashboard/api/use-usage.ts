import useSWR from 'swr';
import { ApiError, apiRequest } from '../../../lib/api-client';
import { useUserKey } from '../../../lib/use-user-key';
import { normaliseUsage } from '../usage';
import type { ChatUsage } from './types';

export const USAGE_PATH = '/users/usage';

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
  return useSWR<ChatUsage>(useUserKey(USAGE_PATH), fetchUsage, {
    shouldRetryOnError: false,
    revalidateOnFocus: true,
  });
}
