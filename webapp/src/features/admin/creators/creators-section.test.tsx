import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { setUpPageTests } from '../../../test/page-tests';
import { renderApp } from '../../../test/render-app';
import { ADA, startSignedIn } from '../../../test/session';
import { creator, fakeAdminApi } from '../test-fixtures';

const api = setUpPageTests();

beforeAll(async () => {
  await import('../components/admin-page');
}, 60_000);

const GRACE = creator({
  id: 'c1',
  username: 'grace',
  display_name: 'Grace Hopper',
  country: 'DE',
  prompts: { draft: 1, in_review: 2, published: 3, rejected: 0 },
  sales: 12,
  net: 95.88,
});
const LINUS = creator({ id: 'c2', username: 'linus', display_name: 'Linus', payouts_status: 'details_needed', suspended: true });

function open() {
  startSignedIn({ ...ADA, is_admin: true });
  const state = fakeAdminApi(api, { creators: [GRACE, LINUS] });
  renderApp('/admin/creators');
  return state;
}

const row = (id: string) => {
  const el = document.querySelector<HTMLElement>(`[data-testid="creator-row"][data-creator-id="${id}"]`);
  if (!el) throw new Error(`no row ${id}`);
  return el;
};
const findRow = async (id: string) => {
  await waitFor(() => row(id));
  return row(id);
};
const cells = (id: string) => within(row(id)).getAllByRole('cell').map((c) => c.textContent);

describe('creators', () => {
  it('lists each creator with payouts, prompts per state, sales, net and suspension', async () => {
    open();
    await findRow('c1');
    expect(cells('c1').slice(0, 8)).toEqual(['Grace Hopper@grace', 'DE', 'Enabled', '3 published, 2 in review, 1 draft, 0 rejected', '12', '$95.88', 'No', 'Mar 7, 2026, 10:00 AM UTC']);
    // No sales in the answer: none shown.
    expect(cells('c2').slice(1, 7)).toEqual(['US', 'Details needed', '1 published, 0 in review, 0 drafts, 0 rejected', '—', '—', 'Suspended']);
    expect(screen.getByTestId('creators-table-count')).toHaveTextContent('Showing 2 of 2 creators');
    expect(api.callsTo('GET', '/api/v1/admin/creators')[0].search).toBe('?limit=25');
  });

  it('asks before suspending, saying what happens; Cancel sends nothing, confirming suspends', async () => {
    const state = open();
    await userEvent.click(within(await findRow('c1')).getByRole('button', { name: 'Suspend: Grace Hopper' }));
    let dialog = screen.getByRole('dialog', { name: 'Suspend Grace Hopper?' });
    expect(dialog).toHaveAccessibleDescription('Their prompts leave the marketplace; buyers keep access.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('POST', '/api/v1/admin/creators/c1/suspend')).toHaveLength(0);

    await userEvent.click(within(row('c1')).getByRole('button', { name: 'Suspend: Grace Hopper' }));
    dialog = screen.getByRole('dialog', { name: 'Suspend Grace Hopper?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST', '/api/v1/admin/creators/c1/suspend')).toHaveLength(1);
    expect(state.creators[0].suspended).toBe(true);
    await waitFor(() => expect(cells('c1')[6]).toBe('Suspended'));
    expect(within(row('c1')).getByRole('button', { name: 'Unsuspend: Grace Hopper' })).toBeInTheDocument();
  });

  it('asks before unsuspending, then lists their prompts again', async () => {
    const state = open();
    await userEvent.click(within(await findRow('c2')).getByRole('button', { name: 'Unsuspend: Linus' }));
    const dialog = screen.getByRole('dialog', { name: 'Unsuspend Linus?' });
    expect(dialog).toHaveAccessibleDescription('Their published prompts return to the marketplace.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unsuspend' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST', '/api/v1/admin/creators/c2/unsuspend')).toHaveLength(1);
    expect(state.creators[1].suspended).toBe(false);
    await waitFor(() => expect(cells('c2')[6]).toBe('No'));
    expect(screen.getByTestId('toasts')).toHaveTextContent('Unsuspended Linus');
  });
});
