import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/render-app';
import { getAuthState } from '../../../lib/auth-session';
import { jsonResponse, tokenExpiringIn } from '../../../test/jwt-fixtures';
import { startSignedOut } from '../../../test/session';
import { setUpPageTests } from '../../../test/page-tests';

// Google sign-in counts as a confirmed address.
const apiUser = { id: 'g1', email: 'gina@example.com', username: 'gina', full_name: 'Gina G', is_superuser: true, is_verified: true };
const ME = 'GET /api/v1/auth/me';
const api = setUpPageTests();

beforeEach(() => {
  startSignedOut();
});

const location = () => screen.getByTestId('location');

describe('AuthCallbackPage', () => {
  it('sends an OAuth error to /login?error=oauth_failed', async () => {
    renderApp('/auth/callback?error=access_denied');
    await waitFor(() => expect(location()).toHaveTextContent('/login?error=oauth_failed'));
    expect(await screen.findByRole('alert')).toHaveTextContent(/Google sign-in failed/);
  });

  it('sends a missing token to /login?error=no_token', async () => {
    renderApp('/auth/callback?type=google');
    await waitFor(() => expect(location()).toHaveTextContent('/login?error=no_token'));
  });

  it('sends a malformed token to /login?error=token_processing_failed without calling the API', async () => {
    renderApp('/auth/callback?token=abc&type=google');
    await waitFor(() => expect(location()).toHaveTextContent('/login?error=token_processing_failed'));
    expect(api.calls).toHaveLength(0);
  });

  it('sends a failing /auth/me to /login?error=token_processing_failed', async () => {
    api.route(ME, () => jsonResponse(401, { detail: 'Invalid token' }));
    renderApp(`/auth/callback?token=${tokenExpiringIn(3600)}&type=google`);
    await waitFor(() => expect(location()).toHaveTextContent('/login?error=token_processing_failed'));
    expect(getAuthState().status).toBe('unauthenticated');
  });

  it('stores user and token, toasts and goes to /dashboard', async () => {
    const token = tokenExpiringIn(3600);
    api.route(ME, () => jsonResponse(200, apiUser));
    renderApp(`/auth/callback?token=${token}&type=google`);
    expect(screen.getByRole('status')).toHaveTextContent(/Loading|Completing Google sign-in/);
    await waitFor(() => expect(location()).toHaveTextContent(/^\/dashboard$/));
    expect(within(screen.getByTestId('toasts')).getByText('Google login successful!')).toBeInTheDocument();
    expect(getAuthState()).toMatchObject({ status: 'authenticated', token, user: { email: 'gina@example.com', is_admin: true, is_verified: true } });
    const meCalls = api.callsTo('GET', '/api/v1/auth/me');
    expect(meCalls[0].auth).toBe(`Bearer ${token}`);
    expect(meCalls).toHaveLength(1);
  });
});
