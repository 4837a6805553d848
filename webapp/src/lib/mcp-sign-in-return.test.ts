import { describe, expect, it } from 'vitest';
import { readSignInReturn, SIGN_IN_FAILED, signInFailureMessage, withoutSignInReturn } from './mcp-sign-in-return';

const DETAIL_ID = 'piyFK1ItNguzBCskRHdNk2tX6bbXO6IJksJynHUzzAk';

describe('readSignInReturn', () => {
  it('reads a finished sign-in', () => {
    expect(readSignInReturn(new URLSearchParams('connected=local-oauth'))).toEqual({ kind: 'connected', serverId: 'local-oauth' });
  });

  it('reads a failure with its code, server and detail id', () => {
    expect(readSignInReturn(new URLSearchParams(`oauth_error=token_refused&server=s1&detail_id=${DETAIL_ID}`))).toEqual({
      kind: 'failed',
      serverId: 's1',
      code: 'token_refused',
      detailId: DETAIL_ID,
    });
  });

  it('keeps no text of the address: a detail is not read, a detail id that is not one is not asked for', () => {
    const r = readSignInReturn(new URLSearchParams({ oauth_error: 'x', detail: 'Call 555-0100 now', detail_id: '../../auth/me' }));
    expect(r).toEqual({ kind: 'failed', serverId: '', code: 'x', detailId: '' });
  });

  it('is nothing on an ordinary visit', () => {
    expect(readSignInReturn(new URLSearchParams(''))).toBeNull();
    expect(readSignInReturn(new URLSearchParams('search=git'))).toBeNull();
  });
});

describe('signInFailureMessage', () => {
  it('is the product’s message for each code, and one message for any other', () => {
    expect(signInFailureMessage('access_denied')).toBe('You cancelled the sign-in.');
    expect(signInFailureMessage('other_browser')).toBe('This sign-in was started in another browser. Start again from the registry.');
    for (const code of ['weird', 'Your account is locked. Call 555-0100', 'constructor', '__proto__', 'toString']) {
      expect(signInFailureMessage(code)).toBe(SIGN_IN_FAILED);
    }
  });
});

describe('withoutSignInReturn', () => {
  it('drops only the sign-in’s parameters', () => {
    expect(withoutSignInReturn(new URLSearchParams('connected=a&x=1&server=s&detail=d&detail_id=i&oauth_error=e')).toString()).toBe('x=1');
  });
});
