import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderApp } from '../test/render-app';
import { getAuthState } from '../lib/auth-session';
import { getNotifications } from '../components/notifications/notification-store';
import { jsonResponse, tokenExpiringIn } from '../test/jwt-fixtures';
import { ADA, startSignedIn } from '../test/session';
import { deferred } from '../test/fake-api';
import { setUpPageTests } from '../test/page-tests';

const api = setUpPageTests();

beforeAll(async () => {
  await Promise.all([import('../features/auth/components/login-page'), import('../features/dashboard/components/dashboard-page'), import('../features/home/components/home-page')]);
}, 30_000);

async function logOutFromDashboard() {
  renderApp('/dashboard');
  const greeting = await screen.findByTestId('dashboard-greeting');
  await userEvent.click(within(greeting.parentElement!).getByRole('button', { name: 'Logout' }));
}

const logoutCalls = () => api.callsTo('POST', '/api/v1/auth/logout');

describe('logout', () => {
  it('ends the session on the server with its token before clearing anything local', async () => {
    const token = startSignedIn();
    let storedAtCall: string | null = 'not called';
    api.route('POST /api/v1/auth/logout', () => {
      storedAtCall = localStorage.getItem('auth-storage');
      return new Response(null, { status: 204 });
    });
    await logOutFromDashboard();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(logoutCalls()).toHaveLength(1);
    expect(logoutCalls()[0].auth).toBe(`Bearer ${token}`);
    expect(storedAtCall).toContain(token);
    expect(getAuthState().status).toBe('unauthenticated');
    expect(localStorage.getItem('auth-storage')).toBeNull();
  });

  it.each([
    ['a 401 (the session had ended already)', () => jsonResponse(401, { detail: 'Your session has ended. Please log in again.', code: 'unauthorized' })],
    ['a server error', () => jsonResponse(500, { detail: 'Internal error.' })],
    [
      'a network failure',
      () => {
        throw new TypeError('Failed to fetch');
      },
    ],
  ])('still logs out, silently, after %s', async (_label, answer) => {
    startSignedIn();
    api.route('POST /api/v1/auth/logout', answer);
    await logOutFromDashboard();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    await waitFor(() => expect(logoutCalls()).toHaveLength(1));
    expect(getAuthState().status).toBe('unauthenticated');
    expect(getNotifications().filter((n) => n.kind === 'error')).toEqual([]);
  });

  it('does not wait for the server', async () => {
    startSignedIn();
    const never = deferred<Response>();
    api.route('POST /api/v1/auth/logout', () => never.promise);
    await logOutFromDashboard();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(getAuthState().status).toBe('unauthenticated');
    // A late answer for the ended session clears nothing that came after it.
    const again = startSignedIn(ADA, tokenExpiringIn(7200));
    await act(async () => never.resolve(jsonResponse(401, { detail: 'Your session has ended. Please log in again.' })));
    expect(getAuthState()).toMatchObject({ status: 'authenticated', token: again });
  });
});
