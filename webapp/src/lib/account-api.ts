// Calls about the signed-in account that more than one feature makes:
// who am I (/auth/me), end this session (/auth/logout), mail a new
// confirmation link (/auth/resend-verification), and the refusal of an
// action that needs a confirmed email. Sign-in, register and password
// calls stay in features/auth/api.

import { ApiError, apiRequest, authorizedFetch } from './api-client';
import { getAuthState, toUser, updateUser, type ApiUser, type User } from './auth-session';

export async function fetchMe(token: string): Promise<User> {
  const me = await apiRequest<ApiUser>('/auth/me', { token });
  if (!me || typeof me !== 'object' || !me.email) throw new Error('Unexpected /auth/me answer');
  return toUser(me);
}

/**
 * POST /auth/logout with the session's token: ends that session on the
 * server. Never throws and never clears anything itself: logout goes on
 * locally whatever the answer (a 401 means it had ended already).
 */
export function postLogout(token: string): Promise<void> {
  return authorizedFetch('/auth/logout', { method: 'POST', token, keepalive: true, headers: { Accept: 'application/json' } }).then(
    () => undefined,
    () => undefined,
  );
}

/** The answers of verify-email, resend-verification and forgot-password. */
export interface StatusResponse {
  status?: string;
  detail?: string;
}

/** POST /auth/resend-verification (signed in): a new confirmation link by mail. */
export function postResendVerification(): Promise<StatusResponse> {
  return apiRequest<StatusResponse>('/auth/resend-verification', { method: 'POST' });
}

/** The 403 code of an action that needs a confirmed email (free uses). */
export const EMAIL_UNVERIFIED = 'email_unverified';

export function isEmailUnverified(err: unknown): err is ApiError {
  return err instanceof ApiError && err.status === 403 && err.code === EMAIL_UNVERIFIED;
}

/** Asks /auth/me again and stores what changed (is_verified, names, admin). Errors are ignored. */
export async function refreshSignedInUser(): Promise<void> {
  const { status, token } = getAuthState();
  if (status !== 'authenticated' || !token) return;
  try {
    const user = await fetchMe(token);
    // Still the same session? A sign-out or another sign-in meanwhile wins.
    if (getAuthState().token === token) updateUser(user);
  } catch {
    // A 401 has cleared the session already (api-client); anything else can wait.
  }
}
