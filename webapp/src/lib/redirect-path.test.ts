import { describe, expect, it } from 'vitest';
import { restoreStoredRedirectPath, takeStoredRedirectPath } from './redirect-path';

describe('stored redirect path', () => {
  it('returns a stored same-site path once', () => {
    sessionStorage.setItem('redirectPath', '/marketplace?filter=purchased');
    expect(takeStoredRedirectPath()).toBe('/marketplace?filter=purchased');
    expect(sessionStorage.getItem('redirectPath')).toBeNull();
    expect(takeStoredRedirectPath()).toBeNull();
  });

  it('drops unsafe values', () => {
    sessionStorage.setItem('redirectPath', '//evil.example');
    expect(takeStoredRedirectPath()).toBeNull();
    expect(sessionStorage.getItem('redirectPath')).toBeNull();
  });

  it('restores the path into the URL at start', () => {
    window.history.replaceState(null, '', '/');
    sessionStorage.setItem('redirectPath', '/user-guide');
    restoreStoredRedirectPath();
    expect(window.location.pathname).toBe('/user-guide');
    window.history.replaceState(null, '', '/');
  });
});
