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
  type User,
} from './auth-session';
import { makeJwt, tokenExpiringIn } from '../test/jwt-fixtures';

const user: User = { id: '7', email: 'a@example.com', username: 'ada', full_name: 'Ada Lovelace', is_admin: true };
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
    });
    expect(toUser({ id: 'x', email: 'e@example.com', username: 'u' }).is_admin).toBe(false);
  });
});
