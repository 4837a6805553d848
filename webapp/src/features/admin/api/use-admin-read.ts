// One admin resource (not a list), read by its path with a reader; null
// path: no request. Keyed by the signed-in user like every signed-in read.

import useSWR from 'swr';
import { ApiError, apiRequest } from '../../../lib/api-client';
import { useUserKey } from '../../../lib/use-user-key';

export function useAdminRead<T>(path: string | null, read: (v: unknown) => T | null) {
  const key = useUserKey(path ?? '');
  return useSWR<T, unknown>(path === null ? null : key, async ([url]: readonly [string, string]) => {
    const value = read(await apiRequest(url));
    if (value === null) throw new ApiError(200, 'The answer could not be read.', { code: 'bad_response' });
    return value;
  }, { shouldRetryOnError: false });
}
