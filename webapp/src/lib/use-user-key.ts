// The SWR cache key of a read that needs sign-in: [path, user id] while a
// user is signed in, null otherwise (SWR then makes no request). Keying by
// user means two accounts on one browser never share a cache entry, and
// logout (which clears every key) leaves nothing behind.

import type { User } from './auth-session';
import { useAuth } from './use-auth';

export type UserKey<P extends string = string> = readonly [P, string];

/** `path` scoped to one user: the key a hook reads and a mutate() call revalidates. */
export function userCacheKey<P extends string>(path: P, userId: string): UserKey<P> {
  return [path, userId] as const;
}

/**
 * The signed-in user's key for `path`; null when nobody is signed in, or
 * when `when(user)` is false (a read only some users need).
 */
export function useUserKey<P extends string>(path: P, when?: (user: User) => boolean): UserKey<P> | null {
  const { status, user } = useAuth();
  if (status !== 'authenticated' || !user) return null;
  if (when && !when(user)) return null;
  return userCacheKey(path, user.id);
}
