import { useEffect } from 'react';
import useSWR from 'swr';
import { toUser, updateUser, type ApiUser } from '../../lib/auth-session';
import { useUserKey } from '../../lib/use-user-key';

/**
 * While the signed-in user's email is not confirmed, ask /auth/me when the
 * page mounts (and when the tab regains focus: the link may have been
 * opened on another device) and store what changed, so a confirmation shows
 * at once. Once confirmed, it asks no more.
 */
export function useUnverifiedRefresh(): void {
  const key = useUserKey('/auth/me', (user) => !user.is_verified);
  const { data } = useSWR<ApiUser>(key, { revalidateOnFocus: true, shouldRetryOnError: false });
  useEffect(() => {
    if (data && typeof data === 'object' && data.email) updateUser(toUser(data));
  }, [data]);
}
