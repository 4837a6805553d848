// /auth/callback (SPEC §2, §5) decision logic, pure.

import { hasThreeParts } from '../../lib/jwt';

export type LoginErrorCode = 'oauth_failed' | 'account_disabled' | 'token_processing_failed' | 'no_token';

export type CallbackDecision =
  | { kind: 'error'; code: LoginErrorCode }
  | { kind: 'verify'; token: string };

/**
 * `token` is the one taken out of the address at start (lib/url-secrets);
 * by default the query's.
 */
export function decideCallback(params: URLSearchParams, token: string | null = params.get('token')): CallbackDecision {
  const error = params.get('error');
  // An admin disabled the account: said as such, not as a failed sign-in.
  if (error === 'account_disabled') return { kind: 'error', code: 'account_disabled' };
  if (error !== null) return { kind: 'error', code: 'oauth_failed' };
  if (!token) return { kind: 'error', code: 'no_token' };
  if (!hasThreeParts(token) || params.get('type') !== 'google') {
    return { kind: 'error', code: 'token_processing_failed' };
  }
  return { kind: 'verify', token };
}

export function loginErrorPath(code: LoginErrorCode): string {
  return `/login?error=${code}`;
}

/** Readable texts for the error codes /login receives in its query. */
export const LOGIN_ERROR_MESSAGES: Record<LoginErrorCode, string> = {
  oauth_failed: 'Google sign-in failed or was cancelled. Please try again.',
  account_disabled: 'This account has been disabled. If you think this is a mistake, please contact support.',
  token_processing_failed: 'We could not complete your Google sign-in. Please try again.',
  no_token: 'Google sign-in did not return a session. Please try again.',
};

export function loginErrorMessage(code: string | null): string | null {
  if (!code) return null;
  return (LOGIN_ERROR_MESSAGES as Record<string, string>)[code] ?? 'Sign-in failed. Please try again.';
}
