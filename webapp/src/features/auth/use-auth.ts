import { useCallback, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { useSWRConfig } from 'swr';
import { clearSession, getAuthState, subscribeAuth, type AuthState } from '../../lib/auth-session';

export function useAuth(): AuthState {
  return useSyncExternalStore(subscribeAuth, getAuthState, getAuthState);
}

/** Logout: clear the session and cached user data, then go to '/' (SPEC §2). */
export function useLogout(): () => void {
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  return useCallback(() => {
    clearSession({ redirectTo: '/' });
    void mutate(() => true, undefined, { revalidate: false });
    navigate('/', { replace: true });
  }, [mutate, navigate]);
}
