import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/render-app';
import { getAuthState } from '../../../lib/auth-session';
import { jsonResponse, tokenExpiringIn } from '../../../test/jwt-fixtures';
import { setUpPageTests } from '../../../test/page-tests';
import { startSignedOut } from '../../../test/session';

const apiUser = { id: 'u1', email: 'ada@example.com', username: 'ada', full_name: 'Ada Lovelace', is_superuser: false };
const LOGIN = 'POST /api/v1/auth/login';
const api = setUpPageTests();

beforeEach(() => {
  startSignedOut();
});

async function openLogin(path = '/login') {
  renderApp(path);
  return screen.findByRole('form', { name: 'Sign in' });
}

describe('LoginPage', () => {
  it('shows the required messages on an empty submit and sends nothing', async () => {
    const form = await openLogin();
    await userEvent.click(within(form).getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(api.calls).toHaveLength(0);
  });

  it('shows the format and length messages', async () => {
    await openLogin();
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    await userEvent.type(screen.getByLabelText('Password'), '12345{Enter}');
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('submits on Enter, toasts success and follows a safe redirect', async () => {
    const token = tokenExpiringIn(3600);
    api.route(LOGIN, () => jsonResponse(200, { access_token: token, token_type: 'bearer', user: apiUser }));
    await openLogin('/login?redirect=%2Fuser-guide');
    await userEvent.type(screen.getByLabelText('Email'), ' ada@example.com ');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1{Enter}');

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/user-guide$/));
    expect(within(screen.getByTestId('toasts')).getByText('Login successful!')).toBeInTheDocument();
    const [login] = api.calls;
    expect([login.method, login.path + login.search]).toEqual(['POST', '/api/v1/auth/login']);
    expect(login.body).toEqual({ email: 'ada@example.com', password: 'secret1' });
    expect(getAuthState()).toMatchObject({ status: 'authenticated', token, user: { id: 'u1', full_name: 'Ada Lovelace' } });
    expect(JSON.parse(localStorage.getItem('auth-storage')!)).toMatchObject({ token, isAuthenticated: true });
  });

  it('ignores an unsafe redirect and goes to /dashboard', async () => {
    api.route(LOGIN, () => jsonResponse(200, { access_token: tokenExpiringIn(3600), user: apiUser }));
    await openLogin('/login?redirect=%2F%2Fevil.example');
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1{Enter}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard$/));
  });

  it('asks /auth/me when the login answer has no user', async () => {
    const token = tokenExpiringIn(3600);
    api.route(LOGIN, () => jsonResponse(200, { access_token: token, token_type: 'bearer' }));
    api.route('GET /api/v1/auth/me', () => jsonResponse(200, apiUser));
    await openLogin('/login?redirect=%2Fagents');
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1{Enter}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/agents'));
    const meCall = api.callsTo('GET', '/api/v1/auth/me')[0];
    expect(meCall.auth).toBe(`Bearer ${token}`);
    expect(getAuthState().user?.username).toBe('ada');
  });

  it('shows the server detail on failure and keeps the input', async () => {
    api.route(LOGIN, () => jsonResponse(401, { detail: 'Incorrect email or password', code: 'unauthorized' }));
    await openLogin();
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrongpw{Enter}');
    expect(await within(screen.getByTestId('toasts')).findByText('Incorrect email or password')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });

  it("falls back to 'Login failed' without a server detail", async () => {
    api.route(LOGIN, () => new Response('oops', { status: 500, statusText: 'Internal Server Error' }));
    await openLogin();
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1{Enter}');
    expect(await within(screen.getByTestId('toasts')).findByText('Login failed')).toBeInTheDocument();
  });

  it.each([
    ['oauth_failed', /Google sign-in failed/],
    ['token_processing_failed', /could not complete your Google sign-in/],
    ['no_token', /did not return a session/],
  ])('explains the %s error code', async (code, text) => {
    await openLogin(`/login?error=${code}`);
    expect(screen.getByRole('alert')).toHaveTextContent(text);
  });
});
