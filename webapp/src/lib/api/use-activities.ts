// GET /api/v1/users/activities: read by the dashboard, revalidated by the
// marketplace after a free use.

import useSWR from 'swr';
import { userCacheKey, useUserKey } from '../use-user-key';
import type { Activity } from './types';

export const ACTIVITIES_PATH = '/users/activities';

export function activitiesKey(userId: string) {
  return userCacheKey(ACTIVITIES_PATH, userId);
}

/** Signed in only, newest first. */
export function useActivities() {
  return useSWR<Activity[]>(useUserKey(ACTIVITIES_PATH), { shouldRetryOnError: false });
}
