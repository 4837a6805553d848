// The auth session (SPEC §3/§4) as a tiny external store, so both React
// (useSyncExternalStore) and the API client (401 → clear) can reach it.
// Persisted in localStorage under STORAGE_KEYS.auth as {user, token, isAuthenticated}.

import { tokenState, readJwtExpiry } from './jwt';
import { clearUserData, readJson, readString, removeKey, STORAGE_KEYS, writeJson } from './storage';

export interface User {
  id: string;
  email: string;
  username: string;
  full_name: string;
  /** SPEC's User.is_admin, from the API's is_superuser. */
  is_admin: boolean;
  /** The owner confirmed the email address (mailed link or Google). Free uses need it. */
  is_verified: boolean;
}

/** The user object as the API sends it. */
export interface ApiUser {
  id: string | number;
  email: string;
  username: string;
  full_name?: string | null;
  is_superuser?: boolean;
  is_verified?: boolean;
}

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

export interface AuthState {
  status: AuthStatus;
  user: User | null;
  token: string | null;
  /**
   * Where the route guard should send the user after a deliberate sign-in
   * (from /login or /register) or sign-out (from a protected page), instead
   * of its usual target. The guard performs that navigation itself, so the
   * page and the guard never race. Not persisted.
   */
  pendingRedirect: string | null;
}

interface PersistedAuth {
  user: User | null;
  token: string | null;
  isAuthenticated: boolean;
}

export function toUser(api: ApiUser): User {
  return {
    id: String(api.id),
    email: api.email ?? '',
    username: api.username ?? '',
    full_name: api.full_name ?? '',
    is_admin: api.is_superuser === true,
    is_verified: api.is_verified === true,
  };
}

const INITIAL: AuthState = { status: 'loading', user: null, token: null, pendingRedirect: null };

let state: AuthState = INITIAL;
const listeners = new Set<() => void>();
let expiryTimer: ReturnType<typeof setTimeout> | undefined;

function emit(next: AuthState): void {
  state = next;
  for (const l of [...listeners]) l();
}

function scheduleExpiry(token: string | null): void {
  if (expiryTimer !== undefined) clearTimeout(expiryTimer);
  expiryTimer = undefined;
  if (!token) return;
  const exp = readJwtExpiry(token);
  if (exp === null) return;
  const delay = exp - Date.now();
  // setTimeout overflows above ~24.8 days; such tokens are checked again at the next start.
  if (delay > 0 && delay < 2 ** 31 - 1) {
    expiryTimer = setTimeout(() => clearSession(), delay);
  }
}

function isUser(value: unknown): value is User {
  if (!value || typeof value !== 'object') return false;
  const u = value as Record<string, unknown>;
  return typeof u.id === 'string' && typeof u.email === 'string' && typeof u.username === 'string';
}

/**
 * A stored user, read defensively: only the known fields, each with a safe
 * default. Sessions stored before a field existed (is_verified) read as
 * false, so the app asks the server rather than assuming.
 */
function storedUser(u: User): User {
  return {
    id: u.id,
    email: u.email,
    username: u.username,
    full_name: typeof u.full_name === 'string' ? u.full_name : '',
    is_admin: u.is_admin === true,
    is_verified: u.is_verified === true,
  };
}

export function getAuthState(): AuthState {
  return state;
}

export function getToken(): string | null {
  return state.token;
}

/** The signed-in user's id; null when nobody is signed in. */
export function signedInUserId(): string | null {
  return state.status === 'authenticated' && state.user ? state.user.id : null;
}

export function subscribeAuth(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * SPEC §4 start-up: with a stored token and user, read the token expiry:
 * expired or unreadable clears the session, otherwise authenticated.
 */
export function initAuth(now: number = Date.now()): AuthState {
  const wasSignedIn = state.status === 'authenticated';
  const stored = readJson<PersistedAuth>(STORAGE_KEYS.auth);
  if (stored && typeof stored.token === 'string' && stored.token && isUser(stored.user)) {
    if (tokenState(stored.token, now) === 'valid') {
      const user = storedUser(stored.user);
      emit({ status: 'authenticated', user, token: stored.token, pendingRedirect: null });
      scheduleExpiry(stored.token);
      return state;
    }
  }
  // Anything stored but unusable (expired, unreadable, broken JSON) is dropped.
  // A session that ended so (or by a logout in another tab: watchOtherTabs)
  // takes its account's browser data with it, as clearSession does.
  const ended = readString(STORAGE_KEYS.auth) !== null || wasSignedIn;
  if (readString(STORAGE_KEYS.auth) !== null) removeKey(STORAGE_KEYS.auth);
  if (ended) clearUserData();
  emit({ status: 'unauthenticated', user: null, token: null, pendingRedirect: null });
  return state;
}

export function setSession(user: User, token: string, options: { redirectTo?: string } = {}): void {
  const persisted: PersistedAuth = { user, token, isAuthenticated: true };
  writeJson(STORAGE_KEYS.auth, persisted);
  emit({ status: 'authenticated', user, token, pendingRedirect: options.redirectTo ?? null });
  scheduleExpiry(token);
}

/**
 * Replace the signed-in user's details (a fresh /auth/me, a confirmed email)
 * and keep the token. Ignored unless `user` is the signed-in account, so a
 * late answer for another account never lands in this session.
 */
export function updateUser(user: User): void {
  if (state.status !== 'authenticated' || !state.user || state.user.id !== user.id || !state.token) return;
  const same = (Object.keys(user) as (keyof User)[]).every((k) => state.user![k] === user[k]);
  if (same) return;
  writeJson(STORAGE_KEYS.auth, { user, token: state.token, isAuthenticated: true } satisfies PersistedAuth);
  emit({ ...state, user });
}

/** Forget the pending target once the guard has used it. */
export function consumePendingRedirect(): void {
  if (state.pendingRedirect !== null) emit({ ...state, pendingRedirect: null });
}

/**
 * Logout and "any 401": drop the session from memory and storage.
 * `redirectTo` (logout) tells the guard where to go instead of /login.
 */
export function clearSession(options: { redirectTo?: string } = {}): void {
  scheduleExpiry(null);
  removeKey(STORAGE_KEYS.auth);
  // What this account left in the browser goes with its session.
  clearUserData();
  const pendingRedirect = options.redirectTo ?? null;
  if (state.status === 'unauthenticated' && state.token === null && state.pendingRedirect === pendingRedirect) return;
  emit({ status: 'unauthenticated', user: null, token: null, pendingRedirect });
}

/** Keep tabs in step: a logout or login in another tab applies here too. */
export function watchOtherTabs(): () => void {
  const onStorage = (e: StorageEvent) => {
    if (e.key !== STORAGE_KEYS.auth && e.key !== null) return;
    initAuth();
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}

/** Tests only: back to the pristine 'loading' state. */
export function resetAuthForTests(): void {
  scheduleExpiry(null);
  listeners.clear();
  state = INITIAL;
}
