import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/render-app';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { startSignedOut } from '../../../test/session';
import { setUpPageTests } from '../../../test/page-tests';

const SENT = 'If an account exists for that email, we sent it a link to reset the password. The link works once, for 1 hour.';
const api = setUpPageTests();

beforeAll(async () => {
  await Promise.all([import('./forgot-password-page'), import('./login-page')]);
}, 30_000);

beforeEach(() => {
  startSignedOut();
});

const openForgot = async () => {
  renderApp('/forgot-password');
  return screen.findByRole('form', { name: 'Send a reset link' });
};
const send = (form: HTMLElement) => userEvent.click(within(form).getByRole('button', { name: 'Send reset link' }));

describe('ForgotPasswordPage', () => {
  it('is reached from the sign-in page, with the email typed there', async () => {
    renderApp('/login');
    await screen.findByRole('form', { name: 'Sign in' });
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.click(screen.getByRole('link', { name: 'Forgot password?' }));
    const form = await screen.findByRole('form', { name: 'Send a reset link' });
    // The email travels in the navigation state, never in the address.
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/forgot-password$/);
    expect(within(form).getByLabelText('Email')).toHaveValue('ada@example.com');
  });

  it("shows SPEC's email messages and sends nothing", async () => {
    const form = await openForgot();
    await send(form);
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    await send(form);
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it("sends the email and shows the server's one answer, nothing more", async () => {
    api.route('POST /api/v1/auth/forgot-password', () => jsonResponse(200, { status: 'sent', detail: SENT }));
    const form = await openForgot();
    await userEvent.type(screen.getByLabelText('Email'), '  ada@example.com ');
    await send(form);
    const sent = await screen.findByTestId('forgot-sent');
    expect(sent).toHaveTextContent(SENT);
    const [call] = api.callsTo('POST', '/api/v1/auth/forgot-password');
    expect(call).toMatchObject({ body: { email: 'ada@example.com' }, auth: null });
    // Whether the account exists is not the page's to say: the card holds the server's text and fixed hints only.
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Check your email');
    expect(screen.queryByText(/no account|not found|not registered/i)).not.toBeInTheDocument();
  });

  it("shows the server's detail when refused (429)", async () => {
    api.route('POST /api/v1/auth/forgot-password', () =>
      jsonResponse(429, { detail: 'Too many reset requests. Please try again later.', code: 'rate_limited' }, { headers: { 'Retry-After': '60', 'Content-Type': 'application/json' } }),
    );
    const form = await openForgot();
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await send(form);
    expect(await within(screen.getByTestId('toasts')).findByText('Too many reset requests. Please try again later.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
  });

  it('falls back to a generic text on a network failure', async () => {
    api.route('POST /api/v1/auth/forgot-password', () => {
      throw new TypeError('Failed to fetch');
    });
    const form = await openForgot();
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await send(form);
    await waitFor(() => expect(within(screen.getByTestId('toasts')).getByText('Could not send the reset link. Please try again.')).toBeInTheDocument());
  });
});
