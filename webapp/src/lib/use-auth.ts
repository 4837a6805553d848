// The signed-in user for React, and logout: shared by every feature, the
// top bar and the side menu.

import { useCallback, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { useSWRConfig } from 'swr';
import { postLogout } from './account-api';
import { clearSession, getAuthState, getToken, subscribeAuth, type AuthState } from './auth-session';

export function useAuth(): AuthState {
  return useSyncExternalStore(subscribeAuth, getAuthState, getAuthState);
}

/**
 * Logout: end the session on the server (POST /auth/logout with its token,
 * sent before anything local is cleared; its answer is not awaited and its
 * failures are ignored), clear the session and cached user data, then go
 * to '/' (SPEC §2).
 */
export function useLogout(): () => void {
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  return useCallback(() => {
    const token = getToken();
    if (token) void postLogout(token);
    clearSession({ redirectTo: '/' });
    void mutate(() => true, undefined, { revalidate: false });
    navigate('/', { replace: true });
  }, [mutate, navigate]);
}
