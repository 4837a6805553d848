import { describe, expect, it } from 'vitest';
import { readSignInReturn, withoutSignInReturn } from './sign-in-return';

describe('readSignInReturn', () => {
  it('reads a finished sign-in', () => {
    expect(readSignInReturn(new URLSearchParams('connected=local-oauth'))).toEqual({ kind: 'connected', serverId: 'local-oauth' });
  });

  it('reads a failure with the callback’s detail', () => {
    expect(readSignInReturn(new URLSearchParams('oauth_error=token_refused&server=s1&detail=The+code+was+refused.'))).toEqual({
      kind: 'failed',
      serverId: 's1',
      code: 'token_refused',
      detail: 'The code was refused.',
    });
  });

  it('explains a failure that came without a detail', () => {
    expect(readSignInReturn(new URLSearchParams('oauth_error=access_denied&server=s1'))).toMatchObject({ detail: 'You cancelled the sign-in.' });
    expect(readSignInReturn(new URLSearchParams('oauth_error=weird'))).toMatchObject({ serverId: '', detail: 'The sign-in failed (weird).' });
  });

  it('cuts an over-long detail', () => {
    const r = readSignInReturn(new URLSearchParams({ oauth_error: 'x', detail: 'a'.repeat(1000) }));
    expect(r?.kind === 'failed' && r.detail.length).toBe(300);
  });

  it('is nothing on an ordinary visit', () => {
    expect(readSignInReturn(new URLSearchParams(''))).toBeNull();
    expect(readSignInReturn(new URLSearchParams('search=git'))).toBeNull();
  });
});

describe('withoutSignInReturn', () => {
  it('drops only the sign-in’s parameters', () => {
    expect(withoutSignInReturn(new URLSearchParams('connected=a&x=1&server=s&detail=d&oauth_error=e')).toString()).toBe('x=1');
  });
});
