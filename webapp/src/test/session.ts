import { initAuth, resetAuthForTests, type User } from '../lib/auth-session';
import { tokenExpiringIn } from './jwt-fixtures';

export const ADA: User = { id: 'u1', email: 'ada@example.com', username: 'ada', full_name: 'Ada Lovelace', is_admin: false, is_verified: true };

/** Ada before she confirmed her email address. */
export const UNVERIFIED_ADA: User = { ...ADA, is_verified: false };

/** Start as if the browser had a stored, valid session. */
export function startSignedIn(user: User = ADA, token: string = tokenExpiringIn(3600)): string {
  resetAuthForTests();
  localStorage.setItem('auth-storage', JSON.stringify({ user, token, isAuthenticated: true }));
  initAuth();
  return token;
}

export function startSignedOut(): void {
  resetAuthForTests();
  initAuth();
}
