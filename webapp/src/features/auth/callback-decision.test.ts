import { describe, expect, it } from 'vitest';
import { decideCallback, loginErrorMessage, loginErrorPath, LOGIN_ERROR_MESSAGES } from './callback-decision';

const q = (s: string) => new URLSearchParams(s);

describe('decideCallback', () => {
  it('maps any error parameter to oauth_failed, even with a token', () => {
    expect(decideCallback(q('error=access_denied'))).toEqual({ kind: 'error', code: 'oauth_failed' });
    expect(decideCallback(q('error=account_disabled'))).toEqual({ kind: 'error', code: 'account_disabled' });
    expect(loginErrorMessage('account_disabled')).toBe('This account has been disabled. If you think this is a mistake, please contact support.');
    expect(decideCallback(q('error=&token=a.b.c&type=google'))).toEqual({ kind: 'error', code: 'oauth_failed' });
  });

  it('maps a missing or empty token to no_token', () => {
    expect(decideCallback(q(''))).toEqual({ kind: 'error', code: 'no_token' });
    expect(decideCallback(q('type=google'))).toEqual({ kind: 'error', code: 'no_token' });
    expect(decideCallback(q('token=&type=google'))).toEqual({ kind: 'error', code: 'no_token' });
  });

  it('maps a token without three dot-separated parts to token_processing_failed', () => {
    expect(decideCallback(q('token=abc&type=google'))).toEqual({ kind: 'error', code: 'token_processing_failed' });
    expect(decideCallback(q('token=a.b&type=google'))).toEqual({ kind: 'error', code: 'token_processing_failed' });
    expect(decideCallback(q('token=a.b.c.d&type=google'))).toEqual({ kind: 'error', code: 'token_processing_failed' });
  });

  it('requires type=google', () => {
    expect(decideCallback(q('token=a.b.c'))).toEqual({ kind: 'error', code: 'token_processing_failed' });
    expect(decideCallback(q('token=a.b.c&type=github'))).toEqual({ kind: 'error', code: 'token_processing_failed' });
    expect(decideCallback(q('token=a.b.c&type=Google'))).toEqual({ kind: 'error', code: 'token_processing_failed' });
  });

  it('uses the token taken out of the address at start when given', () => {
    expect(decideCallback(q('type=google'), 'aaa.bbb.ccc')).toEqual({ kind: 'verify', token: 'aaa.bbb.ccc' });
    expect(decideCallback(q('type=google'), null)).toEqual({ kind: 'error', code: 'no_token' });
    expect(decideCallback(q('error=x&type=google'), 'aaa.bbb.ccc')).toEqual({ kind: 'error', code: 'oauth_failed' });
  });

  it('verifies a well-formed google token', () => {
    expect(decideCallback(q('token=aaa.bbb.ccc&type=google'))).toEqual({ kind: 'verify', token: 'aaa.bbb.ccc' });
  });
});

describe('login error codes', () => {
  it('builds the /login error paths', () => {
    expect(loginErrorPath('oauth_failed')).toBe('/login?error=oauth_failed');
    expect(loginErrorPath('no_token')).toBe('/login?error=no_token');
    expect(loginErrorPath('token_processing_failed')).toBe('/login?error=token_processing_failed');
  });

  it('has a readable, distinct message for each code', () => {
    const messages = Object.values(LOGIN_ERROR_MESSAGES);
    expect(new Set(messages).size).toBe(4);
    expect(loginErrorMessage('oauth_failed')).toBe(LOGIN_ERROR_MESSAGES.oauth_failed);
    expect(loginErrorMessage('no_token')).toBe(LOGIN_ERROR_MESSAGES.no_token);
    expect(loginErrorMessage('token_processing_failed')).toBe(LOGIN_ERROR_MESSAGES.token_processing_failed);
    for (const m of messages) expect(m).not.toMatch(/_/);
  });

  it('shows nothing without a code and a generic text for unknown codes (never echoing the query)', () => {
    expect(loginErrorMessage(null)).toBeNull();
    expect(loginErrorMessage('')).toBeNull();
    const unknown = loginErrorMessage('<script>alert(1)</script>');
    expect(unknown).toBe('Sign-in failed. Please try again.');
  });
});
