import { act } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GOOGLE_MESSAGES, startGoogleLogin } from './google-button';
import { clearNotificationsForTests, getNotifications } from '../../../components/notifications/notification-store';
import { installFakeApi, type FakeApi } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/jwt-fixtures';

const LOGIN = 'GET /api/v1/auth/google/login';
let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
});
afterEach(() => {
  act(() => clearNotificationsForTests());
  vi.unstubAllGlobals();
});

const messages = () => getNotifications().map((n) => [n.kind, n.message]);

describe('startGoogleLogin', () => {
  it('goes to auth_url', async () => {
    api.route(LOGIN, () => jsonResponse(200, { auth_url: 'https://accounts.google.com/o/oauth2/v2/auth?x=1' }));
    const go = vi.fn();
    await expect(startGoogleLogin(go)).resolves.toBe(true);
    expect(api.calls.map((c) => c.path + c.search)).toEqual(['/api/v1/auth/google/login']);
    expect(go).toHaveBeenCalledWith('https://accounts.google.com/o/oauth2/v2/auth?x=1');
    expect(messages()).toEqual([]);
  });

  it("says 'Failed to initiate Google login' without an auth_url", async () => {
    api.route(LOGIN, () => jsonResponse(200, {}));
    const go = vi.fn();
    await expect(startGoogleLogin(go)).resolves.toBe(false);
    expect(go).not.toHaveBeenCalled();
    expect(messages()).toEqual([['error', GOOGLE_MESSAGES.failed]]);
    expect(GOOGLE_MESSAGES.failed).toBe('Failed to initiate Google login');
  });

  it('refuses a non-http auth_url', async () => {
    api.route(LOGIN, () => jsonResponse(200, { auth_url: 'javascript:alert(1)' }));
    const go = vi.fn();
    await startGoogleLogin(go);
    expect(go).not.toHaveBeenCalled();
    expect(messages()).toEqual([['error', 'Failed to initiate Google login']]);
  });

  it("shows the server's detail (e.g. 503 not configured)", async () => {
    api.route(LOGIN, () => jsonResponse(503, { detail: 'Google sign-in is not available on this site.', code: 'unavailable' }));
    await startGoogleLogin(vi.fn());
    expect(messages()).toEqual([['error', 'Google sign-in is not available on this site.']]);
  });

  it('falls back to the generic text on an error without detail', async () => {
    api.route(LOGIN, () => new Response('', { status: 500, statusText: 'Internal Server Error' }));
    await startGoogleLogin(vi.fn());
    expect(messages()).toEqual([['error', 'Failed to initiate Google login']]);
  });

  it("says 'Network error during Google login' on a network failure", async () => {
    api.route(LOGIN, () => {
      throw new TypeError('Failed to fetch');
    });
    await startGoogleLogin(vi.fn());
    expect(messages()).toEqual([['error', 'Network error during Google login']]);
  });
});
