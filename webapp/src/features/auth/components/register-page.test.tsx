import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BLUR_ERROR_DELAY_MS } from '../validation';
import { renderApp } from '../../../test/render-app';
import { getAuthState } from '../../../lib/auth-session';
import { jsonResponse, tokenExpiringIn } from '../../../test/jwt-fixtures';
import { setUpPageTests } from '../../../test/page-tests';
import { startSignedOut } from '../../../test/session';

const apiUser = { id: 'u2', email: 'grace@example.com', username: 'grace', full_name: 'Grace Hopper', is_superuser: false };
const REGISTER = 'POST /api/v1/auth/register';
const LOGIN = 'POST /api/v1/auth/login';
// Unrouted calls answer 404 (the dashboard's activities and owned prompts among them).
const api = setUpPageTests();

beforeEach(() => {
  startSignedOut();
});

async function fill(values: Partial<Record<'Email' | 'Username' | 'Full name' | 'Password' | 'Confirm password', string>>) {
  for (const [label, value] of Object.entries(values)) {
    if (value) await userEvent.type(screen.getByLabelText(label), value);
  }
}

describe('RegisterPage', () => {
  it('shows every required message on an empty submit', async () => {
    renderApp('/register');
    const form = await screen.findByRole('form', { name: 'Create your account' });
    await userEvent.click(within(form).getByRole('button', { name: 'Create account' }));
    for (const text of ['Email is required', 'Username is required', 'Full name is required', 'Password is required', 'Please confirm your password']) {
      expect(screen.getByText(text)).toBeInTheDocument();
    }
    expect(api.calls).toHaveLength(0);
  });

  describe('errors of a field left', () => {
    beforeEach(() => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('show a moment after the field is left for another field', async () => {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderApp('/register');
      await screen.findByRole('form', { name: 'Create your account' });
      await user.type(screen.getByLabelText('Email'), 'x');
      await user.click(screen.getByLabelText('Username'));
      expect(screen.queryByText('Invalid email address')).toBeNull();
      act(() => vi.advanceTimersByTime(BLUR_ERROR_DELAY_MS));
      expect(screen.getByText('Invalid email address')).toBeInTheDocument();
    });

    // On a slow device the mouse can stay down longer than the moment: an
    // error shown then pushed the button away and the click was lost (seen
    // in the browser suite on a busy machine).
    it('never move the submit button while it is pressed: the click submits', async () => {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderApp('/register');
      const form = await screen.findByRole('form', { name: 'Create your account' });
      await user.type(screen.getByLabelText('Email'), 'x');
      const submit = within(form).getByRole('button', { name: 'Create account' });
      await user.pointer({ keys: '[MouseLeft>]', target: submit });
      expect(submit).toHaveFocus();
      act(() => vi.advanceTimersByTime(BLUR_ERROR_DELAY_MS * 4));
      expect(screen.queryByText('Invalid email address')).toBeNull();
      await user.pointer({ keys: '[/MouseLeft]', target: submit });
      for (const text of ['Invalid email address', 'Username is required', 'Full name is required']) {
        expect(screen.getByText(text)).toBeInTheDocument();
      }
      expect(api.calls).toHaveLength(0);
    });
  });

  it("checks the confirmation on submit: 'Passwords do not match'", async () => {
    renderApp('/register');
    await screen.findByRole('form', { name: 'Create your account' });
    await fill({ Email: 'grace@example.com', Username: 'grace', 'Full name': 'Grace Hopper', Password: 'secret1', 'Confirm password': 'secret2' });
    expect(screen.queryByText('Passwords do not match')).toBeNull();
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('shows the length messages', async () => {
    renderApp('/register');
    await screen.findByRole('form', { name: 'Create your account' });
    await fill({ Email: 'x', Username: 'ab', 'Full name': 'G', Password: '123', 'Confirm password': '123' });
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    expect(screen.getByText('Username must be at least 3 characters')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
  });

  it('registers, signs in with the returned token and goes to /dashboard', async () => {
    const token = tokenExpiringIn(3600);
    api.route(REGISTER, () => jsonResponse(201, { access_token: token, token_type: 'bearer', user: apiUser }));
    renderApp('/register');
    await screen.findByRole('form', { name: 'Create your account' });
    await fill({ Email: 'grace@example.com', Username: 'grace', 'Full name': 'Grace Hopper', Password: 'secret1', 'Confirm password': 'secret1' });
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard$/));
    expect(within(screen.getByTestId('toasts')).getByText('Registration successful!')).toBeInTheDocument();
    expect(await screen.findByTestId('dashboard-greeting')).toHaveTextContent('Welcome back, Grace Hopper!');
    const body = api.calls[0].body;
    expect(api.calls[0].path).toBe('/api/v1/auth/register');
    expect(body).toEqual({ email: 'grace@example.com', username: 'grace', full_name: 'Grace Hopper', password: 'secret1' });
    expect(getAuthState().token).toBe(token);
  });

  it('logs in afterwards when the answer has no token', async () => {
    const token = tokenExpiringIn(3600);
    api.route(REGISTER, () => jsonResponse(201, { id: 'u2' }));
    api.route(LOGIN, () => jsonResponse(200, { access_token: token, user: apiUser }));
    renderApp('/register');
    await screen.findByRole('form', { name: 'Create your account' });
    await fill({ Email: 'grace@example.com', Username: 'grace', 'Full name': 'Grace Hopper', Password: 'secret1', 'Confirm password': 'secret1' });
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard$/));
    expect(api.callsTo('POST', '/api/v1/auth/login')).toHaveLength(1);
    expect(getAuthState().token).toBe(token);
  });

  it('registered but the sign-in fails: the error is still shown on the sign-in page it leads to', async () => {
    api.route(REGISTER, () => jsonResponse(201, { id: 'u2' }));
    api.route(LOGIN, () => jsonResponse(503, { detail: 'Sign-in is busy, try again' }));
    renderApp('/register');
    await screen.findByRole('form', { name: 'Create your account' });
    await fill({ Email: 'grace@example.com', Username: 'grace', 'Full name': 'Grace Hopper', Password: 'secret1', 'Confirm password': 'secret1' });
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login?redirect=%2Fdashboard'));
    await screen.findByRole('form', { name: 'Sign in' });
    const toasts = screen.getByTestId('toasts');
    expect(within(toasts).getByText('Registration successful!')).toBeInTheDocument();
    expect(within(toasts).getByText('Sign-in is busy, try again')).toBeInTheDocument();
  });

  it('shows the server detail on failure and keeps what was typed', async () => {
    api.route(REGISTER, () => jsonResponse(409, { detail: 'Email already registered', code: 'conflict' }));
    renderApp('/register');
    await screen.findByRole('form', { name: 'Create your account' });
    await fill({ Email: 'grace@example.com', Username: 'grace', 'Full name': 'Grace Hopper', Password: 'secret1', 'Confirm password': 'secret1' });
    await userEvent.keyboard('{Enter}');
    expect(await within(screen.getByTestId('toasts')).findByText('Email already registered')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('grace@example.com');
    expect(screen.getByLabelText('Username')).toHaveValue('grace');
    expect(screen.getByLabelText('Full name')).toHaveValue('Grace Hopper');
    expect(screen.getByLabelText('Password')).toHaveValue('secret1');
    expect(getAuthState().status).toBe('unauthenticated');
  });

  it("falls back to 'Registration failed'", async () => {
    api.route(REGISTER, () => {
      throw new TypeError('Failed to fetch');
    });
    renderApp('/register');
    await screen.findByRole('form', { name: 'Create your account' });
    await fill({ Email: 'grace@example.com', Username: 'grace', 'Full name': 'Grace Hopper', Password: 'secret1', 'Confirm password': 'secret1' });
    await userEvent.keyboard('{Enter}');
    expect(await within(screen.getByTestId('toasts')).findByText('Registration failed')).toBeInTheDocument();
  });
});
