import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { setUpPageTests } from '../../../test/page-tests';
import { renderApp } from '../../../test/render-app';
import { startSignedIn } from '../../../test/session';

const api = setUpPageTests();

function baseRoutes() {
  api.route('GET /api/v1/payments/owned-prompts', () => jsonResponse(200, { owned_prompt_ids: [] }));
  api.route('GET /api/v1/users/activities', () => jsonResponse(200, []));
}

const PROFILE = {
  username: 'ada',
  display_name: 'Ada',
  bio: '',
  country: 'GB',
  suspended: false,
  payouts: { status: 'pending', charges_enabled: false, payouts_enabled: false },
};

describe('the dashboard’s Sell your prompts section', () => {
  it('offers a user who is not a creator (404) one line and a link to the creator studio', async () => {
    startSignedIn();
    baseRoutes();
    api.route('GET /api/v1/creators/me', () => jsonResponse(404, { detail: 'You are not a creator yet: save your creator profile first.' }));
    renderApp('/dashboard');
    const card = await screen.findByTestId('creator-card');
    expect(within(card).getByRole('heading', { name: 'Sell your prompts' })).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Sell your prompts' })).toHaveAttribute('href', '/creator');
    expect(within(card).queryByText(/Payouts:/)).toBeNull();
    // Not a creator: no sales to ask for.
    expect(api.callsTo('GET', '/api/v1/creators/me/dashboard')).toHaveLength(0);
  });

  it('shows a creator their payout status, sales and net, and links to the studio', async () => {
    startSignedIn();
    baseRoutes();
    api.route('GET /api/v1/creators/me', () => jsonResponse(200, PROFILE));
    api.route('GET /api/v1/creators/me/dashboard', () =>
      jsonResponse(200, { sales: 3, gross: 29.97, fees: 6, net: 23.97, refunds: 0, prompts: [] }),
    );
    renderApp('/dashboard');
    const card = await screen.findByTestId('creator-card');
    expect(within(card).getByTestId('creator-card-payouts')).toHaveTextContent('Pending');
    expect(await within(card).findByTestId('creator-card-sales')).toHaveTextContent('3');
    expect(within(card).getByTestId('creator-card-net')).toHaveTextContent('$23.97');
    expect(within(card).getByRole('link', { name: 'Open creator studio' })).toHaveAttribute('href', '/creator');
    expect(within(card).queryByRole('link', { name: 'Sell your prompts' })).toBeNull();
  });

  it('shows nothing when the profile cannot be read (not a 404)', async () => {
    startSignedIn();
    baseRoutes();
    api.route('GET /api/v1/creators/me', () => jsonResponse(500, { detail: 'boom' }));
    renderApp('/dashboard');
    await screen.findByTestId('dashboard-greeting');
    await expect.poll(() => api.callsTo('GET', '/api/v1/creators/me').length).toBeGreaterThan(0);
    expect(screen.queryByTestId('creator-card')).toBeNull();
  });
});
