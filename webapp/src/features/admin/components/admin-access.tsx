// A 403 from the admin API (docs/admin.md: read from the stored user on every
// request, so an admin revoked or disabled mid-session loses access at
// once) turns the whole admin page into the 403 page. Reads report it
// through SWR's onError (admin-page.tsx); writes through useAdminWrite.

import { createContext, useContext } from 'react';
import { ApiError } from '../../../lib/api-client';

export function isAccessDenied(err: unknown): boolean {
  return err instanceof ApiError && err.status === 403;
}

const LoseAccess = createContext<() => void>(() => undefined);

export const LoseAccessProvider = LoseAccess.Provider;

/** Call when the API answered 403: the page shows the 403 page instead. */
export function useLoseAccess(): () => void {
  return useContext(LoseAccess);
}
