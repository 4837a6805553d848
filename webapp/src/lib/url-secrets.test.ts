import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetUrlToken, readUrlToken, stripUrlSecrets } from './url-secrets';

afterEach(() => window.history.replaceState(null, '', '/'));

const here = () => window.location.pathname + window.location.search + window.location.hash;

describe('stripUrlSecrets', () => {
  it.each(['/auth/callback', '/verify-email', '/reset-password'])('takes the token out of %s and keeps it in memory', (page) => {
    window.history.replaceState(null, '', `${page}?token=s3cr3t.tok.en&type=google#top`);
    expect(stripUrlSecrets()).toBe(true);
    expect(here()).toBe(`${page}?type=google#top`);
    expect(window.location.href).not.toContain('s3cr3t');
    // The page reads it from memory, the address no longer has it.
    expect(readUrlToken(page, new URLSearchParams(window.location.search))).toBe('s3cr3t.tok.en');
    forgetUrlToken(page);
    expect(readUrlToken(page, new URLSearchParams(window.location.search))).toBeNull();
  });

  it('leaves an address with nothing left but the path clean', () => {
    window.history.replaceState(null, '', '/verify-email/?token=abc');
    stripUrlSecrets();
    expect(here()).toBe('/verify-email/');
    expect(readUrlToken('/verify-email', new URLSearchParams())).toBe('abc');
  });

  it('does nothing on other pages or without a token', () => {
    const replace = vi.spyOn(window.history, 'replaceState');
    window.history.pushState(null, '', '/marketplace?token=keep');
    replace.mockClear();
    expect(stripUrlSecrets()).toBe(false);
    window.history.pushState(null, '', '/verify-email?x=1');
    expect(stripUrlSecrets()).toBe(false);
    expect(replace).not.toHaveBeenCalled();
    expect(here()).toBe('/verify-email?x=1');
  });

  it('falls back to the query when nothing was taken at start', () => {
    expect(readUrlToken('/reset-password', new URLSearchParams('token=q'))).toBe('q');
  });
});
