import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/render-app';
import { getAuthState } from '../../../lib/auth-session';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { ADA, startSignedIn, startSignedOut, UNVERIFIED_ADA } from '../../../test/session';
import { deferred } from '../../../test/fake-api';
import { setUpPageTests } from '../../../test/page-tests';
import { stripUrlSecrets } from '../../../lib/url-secrets';

const VERIFIED = 'Your email address is confirmed.';
const DETAILS = {
  link_used:
    'This confirmation link has already been used. If your email address is confirmed, you are all set; otherwise ask for a new link from your dashboard.',
  link_expired: 'This confirmation link has expired. Ask for a new one from your dashboard.',
  link_invalid: 'This confirmation link is not valid. Open the whole link from the email, or ask for a new one from your dashboard.',
} as const;

const apiAda = { id: 'u1', email: 'ada@example.com', username: 'ada', full_name: 'Ada Lovelace', is_superuser: false, is_verified: true };
const api = setUpPageTests();

beforeAll(async () => {
  await import('./verify-email-page');
}, 30_000);

afterEach(() => {
  window.history.replaceState(null, '', '/');
});

const verifyCalls = () => api.callsTo('POST', '/api/v1/auth/verify-email');
const result = () => screen.findByTestId('verify-result');

function answerVerified() {
  api.route('POST /api/v1/auth/verify-email', () => jsonResponse(200, { status: 'verified', detail: VERIFIED, user: apiAda }));
}

describe('VerifyEmailPage', () => {
  it('shows a loading state, then the confirmation; signed out it offers to log in', async () => {
    startSignedOut();
    const hold = deferred<Response>();
    api.route('POST /api/v1/auth/verify-email', () => hold.promise);
    renderApp('/verify-email?token=tok-1');
    expect(await screen.findByText('Confirming your email address...')).toBeInTheDocument();
    await act(async () => hold.resolve(jsonResponse(200, { status: 'verified', detail: VERIFIED, user: apiAda })));
    expect(await result()).toHaveTextContent(VERIFIED);
    expect(screen.getByRole('heading', { name: 'Email address confirmed' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login?redirect=%2Fdashboard');
    expect(verifyCalls()).toHaveLength(1);
    expect(verifyCalls()[0]).toMatchObject({ body: { token: 'tok-1' }, auth: null });
    // Nobody is signed in: nothing stored.
    expect(getAuthState().status).toBe('unauthenticated');
    expect(localStorage.getItem('auth-storage')).toBeNull();
  });

  it("spends the single-use link once under StrictMode's double effects and a remount", async () => {
    startSignedOut();
    answerVerified();
    const first = renderApp('/verify-email?token=tok-strict', { strict: true });
    expect(await result()).toHaveTextContent(VERIFIED);
    first.unmount();
    renderApp('/verify-email?token=tok-strict', { strict: true });
    expect(await result()).toHaveTextContent(VERIFIED);
    expect(verifyCalls()).toHaveLength(1);
  });

  it("signed in: marks the stored user verified and links to the dashboard", async () => {
    const token = startSignedIn(UNVERIFIED_ADA);
    answerVerified();
    renderApp('/verify-email?token=tok-2');
    expect(await result()).toHaveTextContent(VERIFIED);
    expect(getAuthState()).toMatchObject({ status: 'authenticated', token, user: { id: 'u1', is_verified: true } });
    expect(JSON.parse(localStorage.getItem('auth-storage')!)).toMatchObject({ token, user: { is_verified: true } });
    expect(screen.getByRole('link', { name: 'Go to your dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it("signed in as another account: leaves this session's user alone", async () => {
    startSignedIn({ ...UNVERIFIED_ADA, id: 'u2', email: 'bob@example.com' });
    answerVerified();
    renderApp('/verify-email?token=tok-3');
    expect(await result()).toHaveTextContent(VERIFIED);
    expect(getAuthState().user).toMatchObject({ id: 'u2', is_verified: false });
  });

  it('reads the token taken out of the address at start', async () => {
    startSignedOut();
    answerVerified();
    window.history.replaceState(null, '', '/verify-email?token=from-start');
    stripUrlSecrets();
    renderApp(window.location.pathname + window.location.search);
    expect(await result()).toHaveTextContent(VERIFIED);
    expect(verifyCalls()[0].body).toEqual({ token: 'from-start' });
  });

  describe.each(Object.entries(DETAILS))('a refused link (%s)', (code, detail) => {
    beforeEach(() => {
      api.route('POST /api/v1/auth/verify-email', () => jsonResponse(400, { detail, code }));
    });

    it("shows the server's detail and, signed out, a way to log in", async () => {
      startSignedOut();
      renderApp(`/verify-email?token=${code}-out`);
      expect(await result()).toHaveTextContent(detail);
      expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login?redirect=%2Fdashboard');
      expect(screen.queryByRole('button', { name: 'Resend email' })).not.toBeInTheDocument();
    });

    it("shows the server's detail and, signed in, Resend email", async () => {
      startSignedIn(UNVERIFIED_ADA);
      api.route('POST /api/v1/auth/resend-verification', () =>
        jsonResponse(200, { status: 'sent', detail: 'We sent a new confirmation link to ada@example.com. It works once, for 24 hours.' }),
      );
      renderApp(`/verify-email?token=${code}-in`);
      expect(await result()).toHaveTextContent(detail);
      await userEvent.click(screen.getByRole('button', { name: 'Resend email' }));
      expect(await within(screen.getByTestId('toasts')).findByText(/We sent a new confirmation link to ada@example.com/)).toBeInTheDocument();
      const resend = api.callsTo('POST', '/api/v1/auth/resend-verification');
      expect(resend).toHaveLength(1);
      expect(resend[0].auth).toMatch(/^Bearer /);
      expect(getAuthState().user?.is_verified).toBe(false);
    });
  });

  it('a signed-in user already confirmed is sent to the dashboard instead of Resend', async () => {
    startSignedIn(ADA);
    api.route('POST /api/v1/auth/verify-email', () => jsonResponse(400, { detail: DETAILS.link_used, code: 'link_used' }));
    renderApp('/verify-email?token=used-verified');
    expect(await result()).toHaveTextContent(DETAILS.link_used);
    expect(screen.getByRole('link', { name: 'Go to your dashboard' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resend email' })).not.toBeInTheDocument();
  });

  it('says the link is incomplete without a token, and sends nothing', async () => {
    startSignedOut();
    renderApp('/verify-email');
    expect(await result()).toHaveTextContent('The confirmation link is incomplete');
    expect(api.calls).toHaveLength(0);
  });

  it('without a token, a signed-in user already confirmed is told so (e.g. after a reload)', async () => {
    startSignedIn(ADA);
    renderApp('/verify-email');
    expect(await result()).toHaveTextContent('Your email address is already confirmed.');
    expect(screen.getByRole('link', { name: 'Go to your dashboard' })).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('offers Try again after a failure that is not about the link', async () => {
    startSignedOut();
    api.route('POST /api/v1/auth/verify-email', () => jsonResponse(503, { detail: 'Service unavailable. Try again shortly.', code: 'unavailable' }));
    renderApp('/verify-email?token=tok-retry');
    expect(await result()).toHaveTextContent('Service unavailable. Try again shortly.');
    answerVerified();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByTestId('verify-result')).toHaveTextContent(VERIFIED));
    expect(verifyCalls()).toHaveLength(2);
  });

  it('a network failure has a readable message too', async () => {
    startSignedOut();
    api.route('POST /api/v1/auth/verify-email', () => {
      throw new TypeError('Failed to fetch');
    });
    renderApp('/verify-email?token=tok-net');
    expect(await result()).toHaveTextContent('We could not confirm your email address. Please try again.');
    expect(verifyCalls()).toHaveLength(1);
  });
});
