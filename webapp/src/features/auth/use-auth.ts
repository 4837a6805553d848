import { useCallback, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { useSWRConfig } from 'swr';
import { clearSession, getAuthState, getToken, subscribeAuth, type AuthState } from '../../lib/auth-session';
import { postLogout } from './api/auth-api';

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
