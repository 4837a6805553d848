import useSWR from 'swr';
import { useAuth } from '../../auth/use-auth';
import type { Activity } from './types';

export const ACTIVITIES_PATH = '/users/activities';

/** GET /api/v1/users/activities (signed in only), newest first. */
export function useActivities() {
  const { status, user } = useAuth();
  const key = status === 'authenticated' && user ? ([ACTIVITIES_PATH, user.id] as const) : null;
  return useSWR<Activity[]>(key, { shouldRetryOnError: false });
}
