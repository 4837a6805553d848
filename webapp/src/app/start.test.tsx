// Finding 5: the sign-in token of /auth/callback?token=… (and the tokens of
// the mailed links) must leave the address before anything else runs, so no
// analytics call and no request carries it. The real start-up (startApp:
// StrictMode, BrowserRouter, route guard, page views) runs here with the
// analytics module spied and the API faked; every call is logged with the
// address at that moment (what a Referer or gtag's page_location would carry):
// the requests by the fake API, the rest here.
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as analytics from '../lib/analytics';
import { getAuthState, resetAuthForTests } from '../lib/auth-session';
import { jsonResponse, tokenExpiringIn } from '../test/jwt-fixtures';
import { setUpPageTests } from '../test/page-tests';
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

const api = setUpPageTests();
/** The sign-in callback asks whose token it holds: Gina's. */
const answerMe = () => api.route('GET /api/v1/auth/me', () => jsonResponse(200, apiUser));

let container: HTMLDivElement;
let stop: (() => void) | undefined;
let replaceState: typeof window.history.replaceState;

beforeEach(() => {
  resetAuthForTests();
  log.length = 0;
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
  replaceState(null, '', '/');
});

/**
 * Everything after the first replaceState: no address, URL, body or
 * analytics field may hold `secret`, except the body of `bodyAllowedFor`
 * ("METHOD path": the one request whose purpose is to send it). A request
 * made before that replaceState would fail the address check: it went from
 * the address that still held the secret.
 */
function expectNothingCarries(secret: string, bodyAllowedFor?: string) {
  const first = log.findIndex((e) => e.what === 'replaceState');
  expect(first).toBe(0);
  expect(String(log[0].detail)).not.toContain(secret);
  for (const e of log.slice(1)) {
    expect(e.href, `${e.what}: address`).not.toContain(secret);
    expect(JSON.stringify(e.detail ?? null), `${e.what}: data`).not.toContain(secret);
  }
  for (const call of api.calls) {
    const what = `${call.method} ${call.path}`;
    expect(call.href, `${what}: address`).not.toContain(secret);
    expect(call.path + call.search, `${what}: URL`).not.toContain(secret);
    if (what !== bodyAllowedFor) expect(JSON.stringify(call.body ?? null), `${what}: body`).not.toContain(secret);
    // Only the Authorization header may hold a sign-in token: that is its use.
    const carrying = Object.entries(call.headers).filter(([, v]) => String(v).includes(secret)).map(([k]) => k);
    expect(carrying.filter((k) => k !== 'Authorization'), `${what}: headers`).toEqual([]);
  }
}

describe('start-up with a token in the address', () => {
  it('/auth/callback: the token leaves the address first; page views, trackLogin and every request go without it', async () => {
    const token = tokenExpiringIn(3600);
    answerMe();
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
    const me = api.callsTo('GET', '/api/v1/auth/me');
    expect(me.length).toBeGreaterThanOrEqual(1);
    expect(me[0].auth).toBe(`Bearer ${token}`);
    const pageViews = log.filter((e) => e.what === 'trackPageView').map((e) => (e.detail as string[])[0]);
    expect(pageViews).toContain('/auth/callback');
    expect(log.filter((e) => e.what === 'trackLogin').map((e) => e.detail)).toEqual([['google']]);
    expect(window.location.href).not.toContain(token);
  });

  it('with Google Analytics on, gtag never sees the address with the token either', async () => {
    const token = tokenExpiringIn(3600);
    answerMe();
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
    api.route('POST /api/v1/auth/verify-email', () => jsonResponse(200, { status: 'verified', detail: 'Your email address is confirmed.', user: apiUser }));
    const w = window as GtagWindow;
    w.dataLayer = { push: (args: IArguments) => log.push({ what: `gtag ${String(args[0])}`, href: window.location.href, detail: Array.from(args) }) };
    replaceState(null, '', `${page}?token=${secret}`);
    act(() => {
      stop = startApp(container, 'G-TEST1234');
    });
    expect(await screen.findAllByText(shown)).not.toHaveLength(0);
    expect(window.location.pathname + window.location.search).toBe(page);
    expectNothingCarries(secret, 'POST /api/v1/auth/verify-email');
    if (page === '/verify-email') {
      const verify = api.callsTo('POST', '/api/v1/auth/verify-email');
      expect(verify).toHaveLength(1);
      expect(verify[0].body).toEqual({ token: secret });
    }
    // The first render waits for the page's chunk, so its effects may run a little later.
    await waitFor(() => expect(log.filter((e) => e.what === 'trackPageView').map((e) => (e.detail as string[])[0])).toContain(page));
  });
});
