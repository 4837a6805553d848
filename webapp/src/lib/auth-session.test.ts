import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  clearSession,
  consumePendingRedirect,
  getAuthState,
  initAuth,
  resetAuthForTests,
  setSession,
  subscribeAuth,
  toUser,
  updateUser,
  type User,
} from './auth-session';
import { makeJwt, tokenExpiringIn } from '../test/jwt-fixtures';
import { PER_USER_KEYS, STORAGE_KEYS, userKey } from './storage';

const user: User = { id: '7', email: 'a@example.com', username: 'ada', full_name: 'Ada Lovelace', is_admin: true, is_verified: true };
const KEY = 'auth-storage';

beforeEach(() => resetAuthForTests());
afterEach(() => {
  vi.useRealTimers();
  resetAuthForTests();
});

describe('auth session', () => {
  it('starts loading', () => {
    expect(getAuthState().status).toBe('loading');
  });

  it('is unauthenticated at start-up without a stored session', () => {
    expect(initAuth().status).toBe('unauthenticated');
  });

  it('restores a stored session whose token has not expired', () => {
    const token = tokenExpiringIn(3600);
    localStorage.setItem(KEY, JSON.stringify({ user, token, isAuthenticated: true }));
    expect(initAuth()).toMatchObject({ status: 'authenticated', user, token });
  });

  it('clears a stored session whose token expired', () => {
    localStorage.setItem(KEY, JSON.stringify({ user, token: tokenExpiringIn(-10), isAuthenticated: true }));
    expect(initAuth()).toMatchObject({ status: 'unauthenticated', user: null, token: null });
    expect(localStorage.getItem(KEY)).toBeNull();
  });

  it('clears a stored session whose token is unreadable', () => {
    localStorage.setItem(KEY, JSON.stringify({ user, token: 'not-a-jwt', isAuthenticated: true }));
    expect(initAuth().status).toBe('unauthenticated');
    expect(localStorage.getItem(KEY)).toBeNull();
  });

  it('clears a stored session without a user or with broken JSON', () => {
    localStorage.setItem(KEY, JSON.stringify({ user: null, token: tokenExpiringIn(3600), isAuthenticated: true }));
    expect(initAuth().status).toBe('unauthenticated');
    expect(localStorage.getItem(KEY)).toBeNull();
    localStorage.setItem(KEY, '{broken');
    expect(initAuth().status).toBe('unauthenticated');
    expect(localStorage.getItem(KEY)).toBeNull();
  });

  it('persists {user, token, isAuthenticated} on sign-in and notifies subscribers', () => {
    initAuth();
    const listener = vi.fn();
    subscribeAuth(listener);
    const token = tokenExpiringIn(3600);
    setSession(user, token, { redirectTo: '/llm-chat' });
    expect(listener).toHaveBeenCalled();
    expect(getAuthState()).toMatchObject({ status: 'authenticated', user, token, pendingRedirect: '/llm-chat' });
    expect(JSON.parse(localStorage.getItem(KEY)!)).toEqual({ user, token, isAuthenticated: true });
    consumePendingRedirect();
    expect(getAuthState().pendingRedirect).toBeNull();
  });

  it('clears memory and storage on logout, keeping an optional target', () => {
    initAuth();
    setSession(user, tokenExpiringIn(3600));
    clearSession({ redirectTo: '/' });
    expect(getAuthState()).toMatchObject({ status: 'unauthenticated', user: null, token: null, pendingRedirect: '/' });
    expect(localStorage.getItem(KEY)).toBeNull();
  });

  it('ends the session when the token expires while the app is open', () => {
    vi.useFakeTimers();
    const now = Date.now();
    vi.setSystemTime(now);
    initAuth();
    setSession(user, makeJwt({ exp: Math.floor(now / 1000) + 60 }));
    vi.advanceTimersByTime(59_000);
    expect(getAuthState().status).toBe('authenticated');
    vi.advanceTimersByTime(2_000);
    expect(getAuthState().status).toBe('unauthenticated');
  });

  it('maps the API user, is_superuser → is_admin', () => {
    expect(toUser({ id: 3, email: 'e@example.com', username: 'u', full_name: null, is_superuser: true })).toEqual({
      id: '3',
      email: 'e@example.com',
      username: 'u',
      full_name: '',
      is_admin: true,
      is_verified: false,
    });
    expect(toUser({ id: 'x', email: 'e@example.com', username: 'u' }).is_admin).toBe(false);
  });
});

/** What an account leaves in the browser: its per-user keys and the chat hand-off. */
function leaveTraces(uid: string) {
  for (const base of PER_USER_KEYS) localStorage.setItem(userKey(base, uid), JSON.stringify(`${uid}: My private note: salary negotiation`));
  sessionStorage.setItem(STORAGE_KEYS.chatPrefill, 'My private note: salary negotiation');
  sessionStorage.setItem(STORAGE_KEYS.chatOpenMenu, 'true');
  sessionStorage.setItem(STORAGE_KEYS.chatForceNewTab, 'true');
}

/** True when nothing of any account's text is left in either storage area. */
function noTraces(): boolean {
  const all = [...Object.values({ ...localStorage }), ...Object.values({ ...sessionStorage })].join('\n');
  return !all.includes('salary negotiation');
}

describe('a session that ends takes its browser data with it', () => {
  it('logout (clearSession) removes every per-user key and the hand-off; theme and tour flags stay', () => {
    initAuth();
    setSession(user, tokenExpiringIn(3600));
    leaveTraces(user.id);
    leaveTraces('someone-else');
    localStorage.setItem(STORAGE_KEYS.theme, 'dark');
    sessionStorage.setItem(STORAGE_KEYS.redirectPath, '/registry');
    clearSession({ redirectTo: '/' });
    expect(noTraces()).toBe(true);
    expect(Object.keys({ ...localStorage }).sort()).toEqual(['theme']);
    expect(Object.keys({ ...sessionStorage })).toEqual(['redirectPath']);
  });

  it('clearSession clears even when already signed out (a second 401 in flight)', () => {
    initAuth();
    leaveTraces(user.id);
    clearSession();
    expect(noTraces()).toBe(true);
  });

  it('the token expiring while the app is open clears the data too', () => {
    vi.useFakeTimers();
    const now = Date.now();
    vi.setSystemTime(now);
    initAuth();
    setSession(user, makeJwt({ exp: Math.floor(now / 1000) + 60 }));
    leaveTraces(user.id);
    vi.advanceTimersByTime(61_000);
    expect(getAuthState().status).toBe('unauthenticated');
    expect(noTraces()).toBe(true);
  });

  it('an expired session found at start-up clears the data too', () => {
    localStorage.setItem(KEY, JSON.stringify({ user, token: tokenExpiringIn(-10), isAuthenticated: true }));
    leaveTraces(user.id);
    expect(initAuth().status).toBe('unauthenticated');
    expect(noTraces()).toBe(true);
  });

  it('a logout in another tab (auth key gone, storage event) clears this tab too', () => {
    localStorage.setItem(KEY, JSON.stringify({ user, token: tokenExpiringIn(3600), isAuthenticated: true }));
    expect(initAuth().status).toBe('authenticated');
    sessionStorage.setItem(STORAGE_KEYS.chatPrefill, 'My private note: salary negotiation');
    localStorage.removeItem(KEY);
    expect(initAuth().status).toBe('unauthenticated');
    expect(noTraces()).toBe(true);
  });

  it('a valid session at start-up keeps its data; a fresh visitor clears nothing', () => {
    localStorage.setItem(KEY, JSON.stringify({ user, token: tokenExpiringIn(3600), isAuthenticated: true }));
    leaveTraces(user.id);
    expect(initAuth().status).toBe('authenticated');
    expect(localStorage.getItem(userKey(STORAGE_KEYS.chatTabs, user.id))).not.toBeNull();
    resetAuthForTests();
    localStorage.removeItem(KEY);
    expect(initAuth().status).toBe('unauthenticated');
    // Signed out with no stored session: nothing ended here, the hand-off stays.
    expect(sessionStorage.getItem(STORAGE_KEYS.chatPrefill)).not.toBeNull();
  });
});

describe('is_verified', () => {
  it('comes from the API user, false unless exactly true', () => {
    const api = { id: 3, email: 'a@example.com', username: 'ada' };
    expect(toUser({ ...api, is_verified: true }).is_verified).toBe(true);
    expect(toUser({ ...api, is_verified: false }).is_verified).toBe(false);
    expect(toUser(api).is_verified).toBe(false);
    expect(toUser({ ...api, is_verified: 'yes' as unknown as boolean }).is_verified).toBe(false);
  });

  it('reads a session stored before the field existed as not verified', () => {
    const { is_verified: _omit, ...old } = user;
    localStorage.setItem(KEY, JSON.stringify({ user: old, token: tokenExpiringIn(3600), isAuthenticated: true }));
    expect(initAuth().user).toEqual({ ...old, is_verified: false });
  });

  it('keeps only the known fields, each with a safe type', () => {
    const stored = { ...user, is_verified: 'true', is_admin: 1, full_name: 7, password: 'x', is_superuser: true };
    localStorage.setItem(KEY, JSON.stringify({ user: stored, token: tokenExpiringIn(3600), isAuthenticated: true }));
    expect(initAuth().user).toEqual({ id: '7', email: 'a@example.com', username: 'ada', full_name: '', is_admin: false, is_verified: false });
  });
});

describe('updateUser', () => {
  it("replaces the signed-in user's details, keeps the token and persists them", () => {
    initAuth();
    const token = tokenExpiringIn(3600);
    setSession({ ...user, is_verified: false }, token);
    const listener = vi.fn();
    subscribeAuth(listener);
    updateUser({ ...user, is_verified: true });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(getAuthState()).toMatchObject({ status: 'authenticated', token, user: { is_verified: true } });
    expect(JSON.parse(localStorage.getItem(KEY)!)).toEqual({ user: { ...user, is_verified: true }, token, isAuthenticated: true });
    // Nothing changed: no emit.
    updateUser({ ...user, is_verified: true });
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('ignores another account and a signed-out state', () => {
    initAuth();
    updateUser(user);
    expect(getAuthState().status).toBe('unauthenticated');
    expect(localStorage.getItem(KEY)).toBeNull();
    setSession({ ...user, is_verified: false }, tokenExpiringIn(3600));
    updateUser({ ...user, id: '8', is_verified: true });
    expect(getAuthState().user?.is_verified).toBe(false);
  });
});

