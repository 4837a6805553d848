// The frame page tests share: call setUpPageTests() once at the top of a test
// file that renders the app (or its hooks) against the fake API.

import { act } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { clearNotificationsForTests } from '../components/notifications/notification-store';
import { resetAuthForTests } from '../lib/auth-session';
import { installFakeApi, type FakeApi } from './fake-api';
import { stubSystemTheme } from './match-media';

/**
 * Before each test: a light system theme and a new fake API. After it: the
 * toasts cleared (inside act, the page is still mounted), the globals
 * unstubbed and the session reset. Returns the running test's fake API: one
 * object for the whole file that speaks for each test's new one.
 */
export function setUpPageTests(): FakeApi {
  let current: FakeApi | null = null;
  const api = (): FakeApi => {
    if (!current) throw new Error('setUpPageTests: the fake API exists only while a test runs');
    return current;
  };
  beforeEach(() => {
    stubSystemTheme(false);
    current = installFakeApi();
  });
  afterEach(() => {
    act(() => clearNotificationsForTests());
    vi.unstubAllGlobals();
    resetAuthForTests();
    current = null;
  });
  return {
    route: (key, handler) => api().route(key, handler),
    handlerFor: (key) => api().handlerFor(key),
    get calls() {
      return api().calls;
    },
    callsTo: (method, path) => api().callsTo(method, path),
  };
}
