// Calls to /api/v1/auth/* that are actions, not cached reads.

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

export async function fetchMe(token: string): Promise<User> {
  const me = await apiRequest<ApiUser>('/auth/me', { token });
  if (!me || typeof me !== 'object' || !me.email) throw new Error('Unexpected /auth/me answer');
  return toUser(me);
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
