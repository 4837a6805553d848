import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { deferred, type FakeHandler } from '../../../test/fake-api';
import { setUpPageTests } from '../../../test/page-tests';
import { renderApp } from '../../../test/render-app';
import { ADA, startSignedIn } from '../../../test/session';
import { fakeAdminApi, order } from '../test-fixtures';

const api = setUpPageTests();

beforeAll(async () => {
  await import('../components/admin-page');
}, 60_000);

const PAID = order({ id: 'o1', user_id: 'u2', user_email: 'bob@example.com', prompt_id: 'p1', prompt_title: 'Cold email', amount: 9.99, status: 'paid', created_at: '2026-03-07T10:00:00Z' });
const PENDING = order({ id: 'o2', user_id: 'u3', user_email: 'cy@example.com', prompt_id: 'p2', prompt_title: 'Blog outline', amount: 4.5, status: 'pending', created_at: '2026-03-09T12:00:00Z', paid_at: undefined, events: [] });

function open() {
  startSignedIn({ ...ADA, is_admin: true });
  const state = fakeAdminApi(api, { orders: [PAID, PENDING] });
  renderApp('/admin/orders');
  return state;
}

const row = (id: string) => {
  const el = document.querySelector<HTMLElement>(`[data-testid="order-row"][data-order-id="${id}"]`);
  if (!el) throw new Error(`no row ${id}`);
  return el;
};
const findRow = async (id: string) => {
  await waitFor(() => row(id));
  return row(id);
};
const rowIds = () => screen.queryAllByTestId('order-row').map((r) => r.getAttribute('data-order-id'));
const lastSearch = () => api.callsTo('GET', '/api/v1/admin/orders').at(-1)!.search;

async function openRefund() {
  await userEvent.click(within(await findRow('o1')).getByRole('button', { name: 'Open order o1' }));
  const details = screen.getByRole('dialog', { name: 'Order o1' });
  await userEvent.click(within(details).getByRole('button', { name: 'Refund…' }));
  return { details, refund: screen.getByRole('dialog', { name: 'Refund $9.99?' }) };
}

describe('orders: the table', () => {
  it('lists orders with buyer, prompt, amount and state', async () => {
    open();
    const cells = within(await findRow('o1')).getAllByRole('cell').map((c) => c.textContent);
    expect(cells.slice(0, 6)).toEqual(['o1', 'Mar 7, 2026, 10:00 AM UTC', 'bob@example.com', 'Cold email', '$9.99', 'Paid']);
    expect(within(row('o2')).getByTestId('order-status')).toHaveTextContent('Pending');
  });

  it('filters by state, buyer, prompt and dates (UTC days), as the API is asked', async () => {
    open();
    await findRow('o1');
    const filters = screen.getByRole('search', { name: 'Filter orders' });
    await userEvent.selectOptions(within(filters).getByLabelText('State'), 'Pending');
    await waitFor(() => expect(rowIds()).toEqual(['o2']));
    expect(lastSearch()).toBe('?state=pending&limit=25');
    await userEvent.selectOptions(within(filters).getByLabelText('State'), '');

    await userEvent.type(within(filters).getByLabelText('Buyer'), 'bob@example.com');
    await waitFor(() => expect(rowIds()).toEqual(['o1']));
    expect(lastSearch()).toBe('?user=bob%40example.com&limit=25');
    await userEvent.clear(within(filters).getByLabelText('Buyer'));

    await userEvent.type(within(filters).getByLabelText('Prompt'), 'p2');
    await waitFor(() => expect(rowIds()).toEqual(['o2']));
    await userEvent.clear(within(filters).getByLabelText('Prompt'));
    await waitFor(() => expect(rowIds()).toEqual(['o1', 'o2']));

    await userEvent.type(within(filters).getByLabelText('From (UTC)'), '2026-03-08');
    await waitFor(() => expect(rowIds()).toEqual(['o2']));
    await userEvent.type(within(filters).getByLabelText('To (UTC)'), '2026-03-08');
    expect(await screen.findByTestId('empty-state')).toHaveTextContent('No order matches these filters.');
    expect(lastSearch()).toBe('?from=2026-03-08&to=2026-03-08&limit=25');
  });

  it('says when the last day is before the first, and does not send that range', async () => {
    open();
    await findRow('o1');
    const filters = screen.getByRole('search', { name: 'Filter orders' });
    await userEvent.type(within(filters).getByLabelText('From (UTC)'), '2026-03-09');
    await waitFor(() => expect(rowIds()).toEqual(['o2']));
    await userEvent.type(within(filters).getByLabelText('To (UTC)'), '2026-03-01');
    expect(within(filters).getByText('The last day is before the first: the dates are not applied.')).toBeInTheDocument();
    await waitFor(() => expect(rowIds()).toEqual(['o1', 'o2']));
    expect(api.callsTo('GET', '/api/v1/admin/orders').every((c) => !c.search.includes('to='))).toBe(true);
  });
});

describe('orders: details and refund', () => {
  it('opens an order with its ids, amounts and payment events', async () => {
    open();
    await userEvent.click(within(await findRow('o1')).getByRole('button', { name: 'Open order o1' }));
    const dialog = screen.getByRole('dialog', { name: 'Order o1' });
    const facts = within(dialog).getByTestId('order-facts');
    expect(facts).toHaveTextContent('Buyerbob@example.com (u2)');
    expect(facts).toHaveTextContent('PromptCold email (p1)');
    expect(facts).toHaveTextContent('Amount$9.99');
    expect(facts).toHaveTextContent('Payment intentpi_123');
    expect(await within(dialog).findByTestId('order-events')).toHaveTextContent('checkout.session.completed');
    expect(api.callsTo('GET', '/api/v1/admin/orders/o1')).toHaveLength(1);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();

    // Only a paid order offers Refund.
    await userEvent.click(within(row('o2')).getByRole('button', { name: 'Open order o2' }));
    const pending = screen.getByRole('dialog', { name: 'Order o2' });
    expect(await within(pending).findByText('No payment event received for this order.')).toBeInTheDocument();
    expect(within(pending).queryByRole('button', { name: 'Refund…' })).toBeNull();
  });

  it("shows a creator's sale with its creator and the split; the platform's own sale has no split rows", async () => {
    startSignedIn({ ...ADA, is_admin: true });
    fakeAdminApi(api, { orders: [order({ id: 'o3', amount: 9.99, creator: { username: 'grace', display_name: 'Grace Hopper' }, fee: 2, net: 7.99 }), PAID] });
    renderApp('/admin/orders');
    await userEvent.click(within(await findRow('o3')).getByRole('button', { name: 'Open order o3' }));
    let facts = within(screen.getByRole('dialog', { name: 'Order o3' })).getByTestId('order-facts');
    await waitFor(() => expect(facts).toHaveTextContent('Platform fee$2.00'));
    expect(facts).toHaveTextContent('CreatorGrace Hopper (grace)');
    expect(facts).toHaveTextContent("Creator's share$7.99");
    await userEvent.keyboard('{Escape}');

    await userEvent.click(within(row('o1')).getByRole('button', { name: 'Open order o1' }));
    const dialog = screen.getByRole('dialog', { name: 'Order o1' });
    await within(dialog).findByTestId('order-events');
    facts = within(dialog).getByTestId('order-facts');
    expect(facts).not.toHaveTextContent('Platform fee');
    expect(facts).not.toHaveTextContent("Creator's share");
    expect(facts).not.toHaveTextContent('Creator');
  });

  it('refunds only after the confirmation, with the reason given', async () => {
    const state = open();
    let { refund } = await openRefund();
    expect(refund).toHaveAccessibleDescription(/bob@example.com gets \$9.99 back .* no longer owns “Cold email”/);
    await userEvent.click(within(refund).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: 'Refund $9.99?' })).toBeNull();
    expect(api.callsTo('POST', '/api/v1/admin/orders/o1/refund')).toHaveLength(0);

    const details = screen.getByRole('dialog', { name: 'Order o1' });
    await userEvent.click(within(details).getByRole('button', { name: 'Refund…' }));
    refund = screen.getByRole('dialog', { name: 'Refund $9.99?' });
    await userEvent.type(within(refund).getByLabelText('Reason (optional)'), 'Asked by mail');
    await userEvent.click(within(refund).getByRole('button', { name: 'Refund' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Refund $9.99?' })).toBeNull());
    expect(api.callsTo('POST', '/api/v1/admin/orders/o1/refund')[0].body).toEqual({ reason: 'Asked by mail' });
    expect(state.orders[0].status).toBe('refunded');
    await waitFor(() => expect(within(details).getByTestId('order-status')).toHaveTextContent('Refunded'));
    expect(within(details).getByTestId('order-facts')).toHaveTextContent('Refund reasonAsked by mail');
    expect(await within(details).findByText('charge.refunded')).toBeInTheDocument();
    expect(within(details).queryByRole('button', { name: 'Refund…' })).toBeNull();
    await waitFor(() => expect(within(row('o1')).getByTestId('order-status')).toHaveTextContent('Refunded'));
    expect(screen.getByTestId('toasts')).toHaveTextContent('Refunded $9.99 to bob@example.com.');
  });

  it('a double click on Refund sends one request; the button is disabled while it runs', async () => {
    open();
    const { refund } = await openRefund();
    const hold = deferred();
    const real = api.handlerFor('POST /api/v1/admin/orders/o1/refund')!;
    api.route('POST /api/v1/admin/orders/o1/refund', async (req) => {
      await hold.promise;
      return (real as FakeHandler)(req);
    });
    await userEvent.dblClick(within(refund).getByRole('button', { name: 'Refund' }));
    const busy = within(refund).getByRole('button', { name: 'Refunding…' });
    expect(busy).toBeDisabled();
    expect(within(refund).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    // Escape does not close it while the refund runs.
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Refund $9.99?' })).toBeInTheDocument();
    hold.resolve();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Refund $9.99?' })).toBeNull());
    expect(api.callsTo('POST', '/api/v1/admin/orders/o1/refund')).toHaveLength(1);
  });

  it("shows the API's 409 in the confirmation when the order is no longer paid", async () => {
    const state = open();
    const { refund } = await openRefund();
    state.orders[0].status = 'failed';
    await userEvent.click(within(refund).getByRole('button', { name: 'Refund' }));
    expect(await within(refund).findByTestId('confirm-error')).toHaveTextContent('Only a paid order can be refunded; this one is failed.');
    // The order behind is read again and shows its real state.
    const details = screen.getByRole('dialog', { name: 'Order o1' });
    await waitFor(() => expect(within(details).getByTestId('order-status')).toHaveTextContent('Failed'));
    await userEvent.click(within(refund).getByRole('button', { name: 'Cancel' }));
    expect(within(details).queryByRole('button', { name: 'Refund…' })).toBeNull();
  });

  it('takes a reason of at most 500 characters, as the API does', async () => {
    open();
    const { refund } = await openRefund();
    await userEvent.click(within(refund).getByLabelText('Reason (optional)'));
    await userEvent.paste('r'.repeat(501));
    expect(within(refund).getByText('The reason must be at most 500 characters.')).toBeInTheDocument();
    await userEvent.click(within(refund).getByRole('button', { name: 'Refund' }));
    expect(api.callsTo('POST', '/api/v1/admin/orders/o1/refund')).toHaveLength(0);
  });
});
