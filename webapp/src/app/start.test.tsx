// Finding 5: the sign-in token of /auth/callback?token=… (and the tokens of
// the mailed links) must leave the address before anything else runs, so no
// analytics call and no request carries it. The real start-up (startApp:
// StrictMode, BrowserRouter, route guard, page views) runs here with the
// analytics module spied and fetch faked; every call is logged with the
// address at that moment (what a Referer or gtag's page_location would carry).
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as analytics from '../lib/analytics';
import { getAuthState, resetAuthForTests } from '../lib/auth-session';
import { jsonResponse, tokenExpiringIn } from '../test/jwt-fixtures';
import { stubSystemTheme } from '../test/match-media';
import { startApp } from './start';

interface Entry {
  what: string;
  /** window.location.href when it happened. */
  href: string;
  detail: unknown;
}

const log: Entry[] = [];

/** Spies on the analytics module's calls, logging each with the address at that moment. */
function spyOnAnalytics() {
  for (const name of ['trackPageView', 'trackLogin', 'configureGoogleAnalytics'] as const) {
    const original = analytics[name] as (...args: unknown[]) => void;
    vi.spyOn(analytics, name).mockImplementation((...args: unknown[]) => {
      log.push({ what: name, href: window.location.href, detail: args });
      original(...args);
    });
  }
}

const apiUser = { id: 'g1', email: 'gina@example.com', username: 'gina', full_name: 'Gina G', is_superuser: false, is_verified: true };
type GtagWindow = Window & { dataLayer?: unknown; gtag?: unknown };

let container: HTMLDivElement;
let stop: (() => void) | undefined;
let replaceState: typeof window.history.replaceState;

beforeEach(() => {
  stubSystemTheme(false);
  resetAuthForTests();
  log.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      log.push({ what: `fetch ${init.method ?? 'GET'} ${input}`, href: window.location.href, detail: { url: input, headers: init.headers ?? {}, body: init.body ?? null } });
      const path = new URL(input, 'http://localhost').pathname;
      if (path === '/api/v1/auth/me') return jsonResponse(200, apiUser);
      return jsonResponse(404, { detail: 'Not found', code: 'not_found' });
    }),
  );
  Object.defineProperty(navigator, 'sendBeacon', {
    configurable: true,
    value: vi.fn((url: string, body?: unknown) => {
      log.push({ what: `beacon ${url}`, href: window.location.href, detail: { url, body } });
      return true;
    }),
  });
  replaceState = window.history.replaceState.bind(window.history);
  vi.spyOn(window.history, 'replaceState').mockImplementation((data, unused, url) => {
    log.push({ what: 'replaceState', href: window.location.href, detail: url });
    replaceState(data, unused, url);
  });
  // A sink, so analytics events really flow (and are logged).
  spyOnAnalytics();
  analytics.configureAnalytics((event) => log.push({ what: `analytics ${event.name}`, href: window.location.href, detail: event }));
  container = document.createElement('div');
  document.body.appendChild(container);
});

afterEach(() => {
  act(() => stop?.());
  stop = undefined;
  container.remove();
  analytics.configureAnalytics(null);
  const w = window as GtagWindow;
  delete w.dataLayer;
  delete w.gtag;
  document.head.querySelectorAll('script[src*="googletagmanager"]').forEach((s) => s.remove());
  vi.unstubAllGlobals();
  replaceState(null, '', '/');
  resetAuthForTests();
});

/**
 * Everything after the first replaceState: no address, URL, body or
 * analytics field may hold `secret`, except the body of `bodyAllowedFor`
 * (the one request whose purpose is to send it).
 */
function expectNothingCarries(secret: string, bodyAllowedFor?: string) {
  const first = log.findIndex((e) => e.what === 'replaceState');
  expect(first).toBe(0);
  expect(String(log[0].detail)).not.toContain(secret);
  for (const e of log.slice(1)) {
    expect(e.href, `${e.what}: address`).not.toContain(secret);
    if (e.what.startsWith('fetch ')) {
      const { url, headers, body } = e.detail as { url: string; headers: Record<string, string>; body: unknown };
      expect(url, `${e.what}: URL`).not.toContain(secret);
      if (e.what !== bodyAllowedFor) expect(String(body ?? ''), `${e.what}: body`).not.toContain(secret);
      // Only the Authorization header may hold a sign-in token: that is its use.
      const carrying = Object.entries(headers).filter(([, v]) => String(v).includes(secret)).map(([k]) => k);
      expect(carrying.filter((k) => k !== 'Authorization'), `${e.what}: headers`).toEqual([]);
    } else {
      expect(JSON.stringify(e.detail ?? null), `${e.what}: data`).not.toContain(secret);
    }
  }
}

describe('start-up with a token in the address', () => {
  it('/auth/callback: the token leaves the address first; page views, trackLogin and every request go without it', async () => {
    const token = tokenExpiringIn(3600);
    replaceState(null, '', `/auth/callback?token=${token}&type=google`);
    act(() => {
      stop = startApp(container);
    });
    await waitFor(() => expect(window.location.pathname).toBe('/dashboard'));
    await waitFor(() => expect(log.some((e) => e.what === 'trackLogin')).toBe(true));
    await screen.findByText(/Welcome back, Gina G!/);

    expect(log[0]).toMatchObject({ what: 'replaceState', detail: '/auth/callback?type=google' });
    expectNothingCarries(token);
    // The callback did its work with the token from memory.
    expect(getAuthState()).toMatchObject({ status: 'authenticated', token, user: { email: 'gina@example.com' } });
    const me = log.filter((e) => e.what === 'fetch GET /api/v1/auth/me');
    expect(me.length).toBeGreaterThanOrEqual(1);
    expect((me[0].detail as { headers: Record<string, string> }).headers.Authorization).toBe(`Bearer ${token}`);
    const pageViews = log.filter((e) => e.what === 'trackPageView').map((e) => (e.detail as string[])[0]);
    expect(pageViews).toContain('/auth/callback');
    expect(log.filter((e) => e.what === 'trackLogin').map((e) => e.detail)).toEqual([['google']]);
    expect(window.location.href).not.toContain(token);
  });

  it('with Google Analytics on, gtag never sees the address with the token either', async () => {
    const token = tokenExpiringIn(3600);
    const w = window as GtagWindow;
    // gtag.js reads document.location for page_location when it sends: log what it would read.
    w.dataLayer = { push: (args: IArguments) => log.push({ what: `gtag ${String(args[0])}`, href: window.location.href, detail: Array.from(args) }) };
    replaceState(null, '', `/auth/callback?token=${token}&type=google`);
    act(() => {
      stop = startApp(container, 'G-TEST1234');
    });
    await waitFor(() => expect(window.location.pathname).toBe('/dashboard'));
    await waitFor(() => expect(log.some((e) => e.what === 'gtag event' && JSON.stringify(e.detail).includes('"login"'))).toBe(true));
    expect(log.some((e) => e.what === 'gtag config')).toBe(true);
    expectNothingCarries(token);
    const script = document.head.querySelector<HTMLScriptElement>('script[src*="googletagmanager"]');
    expect(script?.src).not.toContain(token);
  });

  it.each([
    ['/reset-password', 'Choose a new password'],
    ['/verify-email', 'Your email address is confirmed.'],
  ])('%s: the mailed link token leaves the address too, and the page still gets it', async (page, shown) => {
    const secret = 'mailed-link-secret-0123456789';
    vi.mocked(fetch).mockImplementation(async (input: string | URL | Request, init: RequestInit = {}) => {
      const url = String(input);
      log.push({ what: `fetch ${init.method ?? 'GET'} ${url}`, href: window.location.href, detail: { url, headers: init.headers ?? {}, body: init.body ?? null } });
      if (url === '/api/v1/auth/verify-email') return jsonResponse(200, { status: 'verified', detail: 'Your email address is confirmed.', user: apiUser });
      return jsonResponse(404, { detail: 'Not found' });
    });
    const w = window as GtagWindow;
    w.dataLayer = { push: (args: IArguments) => log.push({ what: `gtag ${String(args[0])}`, href: window.location.href, detail: Array.from(args) }) };
    replaceState(null, '', `${page}?token=${secret}`);
    act(() => {
      stop = startApp(container, 'G-TEST1234');
    });
    expect(await screen.findAllByText(shown)).not.toHaveLength(0);
    expect(window.location.pathname + window.location.search).toBe(page);
    expectNothingCarries(secret, 'fetch POST /api/v1/auth/verify-email');
    if (page === '/verify-email') {
      const verify = log.filter((e) => e.what === 'fetch POST /api/v1/auth/verify-email');
      expect(verify).toHaveLength(1);
      expect(JSON.parse((verify[0].detail as { body: string }).body)).toEqual({ token: secret });
    }
    // The first render waits for the page's chunk, so its effects may run a little later.
    await waitFor(() => expect(log.filter((e) => e.what === 'trackPageView').map((e) => (e.detail as string[])[0])).toContain(page));
  });
});
