import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/render-app';
import { getAuthState } from '../../../lib/auth-session';
import { jsonResponse, tokenExpiringIn } from '../../../test/jwt-fixtures';
import { startSignedIn, startSignedOut } from '../../../test/session';
import { userKey, STORAGE_KEYS } from '../../../lib/storage';
import { setUpPageTests } from '../../../test/page-tests';

const apiAda = { id: 'u1', email: 'ada@example.com', username: 'ada', full_name: 'Ada Lovelace', is_superuser: false, is_verified: true };
const USED = 'This reset link has already been used. Ask for a new one if you still need to reset your password.';
const api = setUpPageTests();

beforeAll(async () => {
  await import('./reset-password-page');
}, 30_000);

async function openReset(path = '/reset-password?token=reset-tok') {
  renderApp(path);
  return screen.findByRole('form', { name: 'Choose a new password' });
}

const submit = (form: HTMLElement) => userEvent.click(within(form).getByRole('button', { name: 'Set new password' }));

describe('ResetPasswordPage', () => {
  it("shows SPEC's required messages on an empty submit and sends nothing", async () => {
    startSignedOut();
    const form = await openReset();
    await submit(form);
    expect(await screen.findByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText('Please confirm your password')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it("shows SPEC's length and match messages", async () => {
    startSignedOut();
    const form = await openReset();
    await userEvent.type(screen.getByLabelText('New password'), '12345');
    await userEvent.type(screen.getByLabelText('Confirm new password'), '12346');
    await submit(form);
    expect(await screen.findByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('sets the password, stores the session like a login and goes to /dashboard with a toast', async () => {
    startSignedOut();
    const token = tokenExpiringIn(3600);
    api.route('POST /api/v1/auth/reset-password', () => jsonResponse(200, { access_token: token, token_type: 'bearer', user: apiAda }));
    await openReset();
    await userEvent.type(screen.getByLabelText('New password'), 'new-secret');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'new-secret{Enter}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard$/));
    expect(within(screen.getByTestId('toasts')).getByText('Your password has been changed. You are signed in.')).toBeInTheDocument();
    const [call] = api.callsTo('POST', '/api/v1/auth/reset-password');
    expect(call).toMatchObject({ body: { token: 'reset-tok', password: 'new-secret' }, auth: null });
    expect(getAuthState()).toMatchObject({ status: 'authenticated', token, user: { id: 'u1', is_verified: true } });
    expect(JSON.parse(localStorage.getItem('auth-storage')!)).toMatchObject({ token, isAuthenticated: true });
  });

  it("replaces another account's session, with that account's browser data", async () => {
    startSignedIn({ id: 'u9', email: 'eve@example.com', username: 'eve', full_name: 'Eve', is_admin: false, is_verified: true });
    localStorage.setItem(userKey(STORAGE_KEYS.chatConversations, 'u9'), '{"t":[]}');
    const token = tokenExpiringIn(3600);
    api.route('POST /api/v1/auth/reset-password', () => jsonResponse(200, { access_token: token, user: apiAda }));
    await openReset();
    await userEvent.type(screen.getByLabelText('New password'), 'new-secret');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'new-secret{Enter}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard$/));
    expect(getAuthState()).toMatchObject({ token, user: { id: 'u1' } });
    expect(localStorage.getItem(userKey(STORAGE_KEYS.chatConversations, 'u9'))).toBeNull();
  });

  it.each([
    ['link_used', USED],
    ['link_expired', 'This reset link has expired. Ask for a new one.'],
    ['link_invalid', 'This reset link is not valid. Open the whole link from the email, or ask for a new one.'],
  ])("a refused link (%s) shows the server's detail and a link to Forgot password?", async (code, detail) => {
    startSignedOut();
    api.route('POST /api/v1/auth/reset-password', () => jsonResponse(400, { detail, code }));
    await openReset();
    await userEvent.type(screen.getByLabelText('New password'), 'new-secret');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'new-secret{Enter}');
    expect(await screen.findByTestId('reset-refused')).toHaveTextContent(detail);
    expect(screen.queryByRole('form', { name: 'Choose a new password' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Forgot password?' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/forgot-password$/));
    expect(getAuthState().status).toBe('unauthenticated');
  });

  it("keeps the form and shows the server's detail when the password is refused", async () => {
    startSignedOut();
    api.route('POST /api/v1/auth/reset-password', () => jsonResponse(400, { detail: 'Password must be at most 72 bytes', code: 'invalid' }));
    await openReset();
    await userEvent.type(screen.getByLabelText('New password'), 'new-secret');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'new-secret{Enter}');
    expect(await within(screen.getByTestId('toasts')).findByText('Password must be at most 72 bytes')).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Choose a new password' })).toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toHaveValue('new-secret');
  });

  it('says the link is incomplete without a token', async () => {
    startSignedOut();
    renderApp('/reset-password');
    expect(await screen.findByTestId('reset-refused')).toHaveTextContent('The reset link is incomplete');
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
    expect(api.calls).toHaveLength(0);
  });
});
