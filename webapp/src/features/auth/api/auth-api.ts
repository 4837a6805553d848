// Calls to /api/v1/auth/* that are actions, not cached reads.

import { fetchMe, type StatusResponse } from '../../../lib/account-api';
import { apiRequest } from '../../../lib/api-client';
import { toUser, type ApiUser, type User } from '../../../lib/auth-session';

export interface TokenResponse {
  access_token?: string;
  token_type?: string;
  user?: ApiUser | null;
}

export function postLogin(email: string, password: string): Promise<TokenResponse> {
  return apiRequest<TokenResponse>('/auth/login', { method: 'POST', body: { email, password }, token: null });
}

export function postRegister(input: { email: string; username: string; full_name: string; password: string }): Promise<TokenResponse> {
  return apiRequest<TokenResponse>('/auth/register', { method: 'POST', body: input, token: null });
}

export function getGoogleLogin(): Promise<{ auth_url?: string }> {
  return apiRequest<{ auth_url?: string }>('/auth/google/login', { token: null });
}

/** Token response → signed-in user; asks /auth/me when the answer carried no user (SPEC §7). */
export async function sessionFromTokenResponse(res: TokenResponse): Promise<{ user: User; token: string } | null> {
  const token = res?.access_token;
  if (!token) return null;
  const user = res.user && res.user.email ? toUser(res.user) : await fetchMe(token);
  return { user, token };
}

export interface VerifyEmailResponse extends StatusResponse {
  user?: ApiUser | null;
}

/** POST /auth/verify-email {token}; no sign-in needed (the link may open in another browser). */
export function postVerifyEmail(token: string): Promise<VerifyEmailResponse> {
  return apiRequest<VerifyEmailResponse>('/auth/verify-email', { method: 'POST', body: { token }, token: null });
}

/** POST /auth/forgot-password {email}: the same answer whether or not the account exists. */
export function postForgotPassword(email: string): Promise<StatusResponse> {
  return apiRequest<StatusResponse>('/auth/forgot-password', { method: 'POST', body: { email }, token: null });
}

/** POST /auth/reset-password {token, password}: answers like login. */
export function postResetPassword(token: string, password: string): Promise<TokenResponse> {
  return apiRequest<TokenResponse>('/auth/reset-password', { method: 'POST', body: { token, password }, token: null });
}
