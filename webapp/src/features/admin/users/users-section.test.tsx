import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { setUpPageTests } from '../../../test/page-tests';
import { renderApp } from '../../../test/render-app';
import { ADA, startSignedIn } from '../../../test/session';
import { fakeAdminApi, user } from '../test-fixtures';

const api = setUpPageTests();

beforeAll(async () => {
  await import('../components/admin-page');
}, 60_000);

// Ada (u1) is the admin signed in, and the only admin.
const ADA_ROW = user({ id: 'u1', email: 'ada@example.com', username: 'ada', full_name: 'Ada Lovelace', is_superuser: true, purchases: 2, connections: 1, chat_tokens_today: 1234 });
const BOB = user({ id: 'u2', email: 'bob@example.com', username: 'bobby', is_verified: false, locked_until: '2999-01-01T00:00:00Z' });
const CY = user({ id: 'u3', email: 'cy@example.com', username: 'cy', disabled: true });

function open() {
  startSignedIn({ ...ADA, is_admin: true });
  const state = fakeAdminApi(api, { users: [ADA_ROW, BOB, CY] });
  renderApp('/admin/users');
  return state;
}

const row = (id: string) => {
  const el = document.querySelector<HTMLElement>(`[data-testid="user-row"][data-user-id="${id}"]`);
  if (!el) throw new Error(`no row ${id}`);
  return el;
};
const findRow = async (id: string) => {
  await waitFor(() => row(id));
  return row(id);
};
const rowIds = () => screen.queryAllByTestId('user-row').map((r) => r.getAttribute('data-user-id'));
const actions = (id: string) => within(within(row(id)).getAllByRole('cell')[10]).getAllByRole('button').map((b) => b.textContent);

describe('users', () => {
  it('lists every column of the contract', async () => {
    open();
    const cells = within(await findRow('u1')).getAllByRole('cell').map((c) => c.textContent);
    expect(cells.slice(0, 10)).toEqual(['ada@example.com (you)Ada Lovelace', 'ada', 'Yes', 'Admin', 'No', 'No', 'Mar 7, 2026, 10:00 AM UTC', '2', '1', '1,234']);
    const bob = within(row('u2')).getAllByRole('cell').map((c) => c.textContent);
    expect(bob[2]).toBe('No');
    expect(bob[5]).toBe('Until Jan 1, 2999, 12:00 AM UTC');
    expect(within(row('u3')).getAllByRole('cell')[4]).toHaveTextContent('Disabled');
  });

  it('offers the actions that apply, and says why the API would refuse one', async () => {
    open();
    await findRow('u1');
    expect(actions('u1')).toEqual(['End all sessions', 'Revoke admin', 'Disable']);
    expect(actions('u2')).toEqual(['Resend confirmation', 'Unlock', 'End all sessions', 'Grant admin', 'Disable']);
    expect(actions('u3')).toEqual(['End all sessions', 'Grant admin', 'Enable']);
    // Not yourself; admins only with a confirmed address.
    const disableSelf = within(row('u1')).getByRole('button', { name: 'Disable: ada@example.com' });
    expect(disableSelf).toBeDisabled();
    expect(disableSelf).toHaveAccessibleDescription('You cannot disable your own account.');
    const grantBob = within(row('u2')).getByRole('button', { name: 'Grant admin: bob@example.com' });
    expect(grantBob).toBeDisabled();
    expect(grantBob).toHaveAccessibleDescription('Grant admin needs a confirmed address.');
    expect(within(row('u3')).getByRole('button', { name: 'Grant admin: cy@example.com' })).toBeEnabled();
  });

  it('searches by email or username', async () => {
    open();
    await findRow('u1');
    await userEvent.type(screen.getByLabelText('Search users'), 'bob');
    await waitFor(() => expect(rowIds()).toEqual(['u2']));
    expect(api.callsTo('GET', '/api/v1/admin/users').at(-1)!.search).toBe('?q=bob&limit=25');
    await userEvent.clear(screen.getByLabelText('Search users'));
    await userEvent.type(screen.getByLabelText('Search users'), 'nobody');
    expect(await screen.findByTestId('empty-state')).toHaveTextContent('No user has that email or username.');
  });

  it('runs the harmless actions at once: resend confirmation, unlock, enable', async () => {
    const state = open();
    await userEvent.click(within(await findRow('u2')).getByRole('button', { name: 'Resend confirmation: bob@example.com' }));
    await waitFor(() => expect(screen.getByTestId('toasts')).toHaveTextContent('Sent a new confirmation link to bob@example.com.'));
    await userEvent.click(within(row('u2')).getByRole('button', { name: 'Unlock: bob@example.com' }));
    await waitFor(() => expect(within(row('u2')).getAllByRole('cell')[5]).toHaveTextContent('No'));
    await userEvent.click(within(row('u3')).getByRole('button', { name: 'Enable: cy@example.com' }));
    await waitFor(() => expect(within(row('u3')).getAllByRole('cell')[4]).toHaveTextContent('No'));
    expect(state.users[2].disabled).toBe(false);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      '/api/v1/admin/users/u2/resend-confirmation',
      '/api/v1/admin/users/u2/unlock',
      '/api/v1/admin/users/u3/enable',
    ]);
  });

  it('asks before disabling: Cancel sends nothing, confirming disables', async () => {
    const state = open();
    await userEvent.click(within(await findRow('u2')).getByRole('button', { name: 'Disable: bob@example.com' }));
    const dialog = screen.getByRole('dialog', { name: 'Disable bob@example.com?' });
    expect(dialog).toHaveAccessibleDescription(/Sign-in is refused and every session ends at once/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('POST', '/api/v1/admin/users/u2/disable')).toHaveLength(0);

    await userEvent.click(within(row('u2')).getByRole('button', { name: 'Disable: bob@example.com' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Disable bob@example.com?' })).getByRole('button', { name: 'Disable account' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST', '/api/v1/admin/users/u2/disable')).toHaveLength(1);
    expect(state.users[1].disabled).toBe(true);
    await waitFor(() => expect(actions('u2')).toContain('Enable'));
  });

  it('asks before ending sessions and before granting admin', async () => {
    const state = open();
    await userEvent.click(within(await findRow('u3')).getByRole('button', { name: 'End all sessions: cy@example.com' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'End every session of cy@example.com?' })).getByRole('button', { name: 'End all sessions' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await userEvent.click(within(row('u3')).getByRole('button', { name: 'Grant admin: cy@example.com' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Make cy@example.com an admin?' })).getByRole('button', { name: 'Grant admin' }));
    await waitFor(() => expect(within(row('u3')).getAllByRole('cell')[3]).toHaveTextContent('Admin'));
    expect(state.users[2].is_superuser).toBe(true);
  });

  it("shows the API's 409 detail in the dialog: the last admin cannot be revoked", async () => {
    const state = open();
    await userEvent.click(within(await findRow('u1')).getByRole('button', { name: 'Revoke admin: ada@example.com' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke admin from ada@example.com?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke admin' }));
    expect(await within(dialog).findByTestId('confirm-error')).toHaveTextContent('This is the last admin: grant admin to someone else first.');
    expect(state.users[0].is_superuser).toBe(true);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
