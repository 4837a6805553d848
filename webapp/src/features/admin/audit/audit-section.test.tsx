import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { setUpPageTests } from '../../../test/page-tests';
import { renderApp } from '../../../test/render-app';
import { ADA, startSignedIn } from '../../../test/session';
import { fakeAdminApi, type WireAudit } from '../test-fixtures';

const api = setUpPageTests();

beforeAll(async () => {
  await import('../components/admin-page');
}, 60_000);

const entry = (i: number, over: Partial<WireAudit> = {}): WireAudit => ({
  id: `a${i}`,
  at: '2026-03-07T10:00:00Z',
  actor_id: 'u1',
  actor_email: 'ada@example.com',
  action: 'prompt.update',
  target_type: 'prompt',
  target_id: `p${i}`,
  before: { title: 'Old', price: 5 },
  after: { title: 'New', price: 5 },
  ...over,
});

function open(audit: WireAudit[]) {
  startSignedIn({ ...ADA, is_admin: true });
  fakeAdminApi(api, { audit });
  renderApp('/admin/audit');
}

const rows = () => screen.queryAllByTestId('audit-row');

describe('audit log', () => {
  it('shows when, who, what, on what, and the change field by field; nothing to edit', async () => {
    open([
      entry(1, { at: '2026-03-08T09:30:00Z', action: 'order.refund', target_type: 'order', target_id: 'o1', before: { status: 'paid' }, after: { status: 'refunded', refund_reason: 'Asked' } }),
      entry(2, { action: 'category.create', target_type: 'category', target_id: 'sales', before: null, after: { id: 'sales', name: 'Sales' }, pending: true }),
    ]);
    await waitFor(() => expect(rows()).toHaveLength(2));
    const first = within(rows()[0]).getAllByRole('cell').map((c) => c.textContent);
    expect(first.slice(0, 4)).toEqual(['Mar 8, 2026, 9:30 AM UTC', 'ada@example.com', 'order.refund', 'order o1']);
    const change = within(rows()[0]).getByTestId('audit-change');
    expect(within(change).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'status: "paid" → changed to "refunded"',
      'refund_reason: (none) → changed to "Asked"',
    ]);
    expect(within(rows()[1]).getByTestId('audit-change')).toHaveTextContent('name: (none) → changed to "Sales"');
    // Written ahead of its change, never confirmed.
    expect(within(rows()[1]).getByTestId('audit-pending')).toHaveTextContent('Pending: it may not have happened');
    expect(within(rows()[0]).queryByTestId('audit-pending')).toBeNull();
    expect(screen.queryAllByRole('button').filter((b) => /edit|delete|undo/i.test(b.textContent ?? ''))).toEqual([]);
  });

  it('pages by cursor (the log has no total) and filters by actor and target', async () => {
    open(Array.from({ length: 30 }, (_, i) => entry(i, { actor_id: i % 2 ? 'u1' : 'u9', actor_email: i % 2 ? 'ada@example.com' : 'zed@example.com' })));
    await waitFor(() => expect(rows()).toHaveLength(25));
    expect(screen.getByTestId('audit-table-count')).toHaveTextContent('Showing 25 entries, more below');
    await userEvent.click(screen.getByRole('button', { name: 'Load more entries' }));
    await waitFor(() => expect(rows()).toHaveLength(30));
    expect(screen.getByTestId('audit-table-count')).toHaveTextContent('Showing 30 entries');
    expect(api.callsTo('GET', '/api/v1/admin/audit').map((c) => c.search)).toEqual(['?limit=25', '?limit=25&cursor=25']);

    await userEvent.type(screen.getByLabelText('Actor'), 'u9');
    await waitFor(() => expect(rows()).toHaveLength(15));
    await userEvent.type(screen.getByLabelText('Target'), 'p4');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(api.callsTo('GET', '/api/v1/admin/audit').at(-1)!.search).toBe('?actor=u9&target=p4&limit=25');
  });
});
