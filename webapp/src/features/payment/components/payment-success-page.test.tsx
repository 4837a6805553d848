import { screen, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/render-app';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { startSignedIn } from '../../../test/session';
import { setUpPageTests } from '../../../test/page-tests';

const api = setUpPageTests();

beforeAll(async () => {
  await import('./payment-success-page');
}, 30_000);

beforeEach(() => {
  startSignedIn();
});

function answer(status: string, extra: Record<string, unknown> = {}) {
  api.route('GET /api/v1/payments/verify-session/cs_1', () =>
    jsonResponse(200, { prompt_title: 'Launch plan', amount: 5.99, session_id: 'cs_1', status, ...extra }),
  );
}

describe('PaymentSuccessPage', () => {
  it('shows a paid session with the SPEC success toast', async () => {
    answer('paid');
    renderApp('/payment/success?session_id=cs_1');
    expect(await screen.findByRole('heading', { name: 'Payment successful!' })).toBeInTheDocument();
    expect(screen.getByTestId('payment-prompt-title')).toHaveTextContent('Launch plan');
    expect(
      await within(screen.getByTestId('toasts')).findByText('Payment successful! Prompt is now available in your dashboard.'),
    ).toBeInTheDocument();
  });

  it('says a second payment for a prompt already owned was refunded, not that it succeeded', async () => {
    answer('duplicate_refunded');
    renderApp('/payment/success?session_id=cs_1');
    expect(await screen.findByRole('heading', { name: 'Duplicate payment refunded' })).toBeInTheDocument();
    expect(
      screen.getByText('You already had "Launch plan", so this second payment of $5.99 was refunded to your card. The prompt is still yours.'),
    ).toBeInTheDocument();
    expect(await within(screen.getByTestId('toasts')).findByText('You already had this prompt, so this payment was refunded.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Payment successful!' })).not.toBeInTheDocument();
    expect(within(screen.getByTestId('toasts')).queryByText(/Payment successful!/)).not.toBeInTheDocument();
  });

  it('shows a bought agent as an agent, with Start chat in a tab bound to it', async () => {
    answer('paid', { kind: 'agent', agent_id: 'a-123' });
    renderApp('/payment/success?session_id=cs_1');
    expect(await screen.findByRole('heading', { name: 'Payment successful!' })).toBeInTheDocument();
    expect(screen.getByText('Your agent is ready: start a chat with it.')).toBeInTheDocument();
    expect(within(screen.getByTestId('payment-details')).getByText('Agent')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Start chat' })).toHaveAttribute('href', '/llm-chat?agent=a-123');
    expect(screen.getByRole('link', { name: 'Open the agent' })).toHaveAttribute('href', '/agents/a-123');
    expect(screen.queryByRole('link', { name: 'View your prompts' })).toBeNull();
    expect(await within(screen.getByTestId('toasts')).findByText('Payment successful! The agent is yours: start a chat with it.')).toBeInTheDocument();
  });

  it('says a second payment for an agent already owned keeps the agent', async () => {
    answer('duplicate_refunded', { kind: 'agent', agent_id: 'a-123' });
    renderApp('/payment/success?session_id=cs_1');
    expect(
      await screen.findByText('You already had "Launch plan", so this second payment of $5.99 was refunded to your card. The agent is still yours.'),
    ).toBeInTheDocument();
    expect(await within(screen.getByTestId('toasts')).findByText('You already had this agent, so this payment was refunded.')).toBeInTheDocument();
  });
});
