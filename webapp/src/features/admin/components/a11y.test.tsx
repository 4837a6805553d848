// axe-core (the e2e gate's engine) on each admin section and its dialogs,
// in jsdom: names, roles, labels and ARIA use. Colour contrast needs a
// real layout and is left to e2e/a11y.test.mjs.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { setUpPageTests } from '../../../test/page-tests';
import { renderApp } from '../../../test/render-app';
import { ADA, startSignedIn } from '../../../test/session';
import { agent, agentReview, creator, fakeAdminApi, order, prompt, review, server, user } from '../test-fixtures';

const api = setUpPageTests();

beforeAll(async () => {
  await import('./admin-page');
}, 60_000);

async function seriousViolations(): Promise<string[]> {
  const result = await axe.run(document.body, { resultTypes: ['violations'], rules: { 'color-contrast': { enabled: false } } });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

function open(path: string) {
  startSignedIn({ ...ADA, is_admin: true });
  fakeAdminApi(api, {
    prompts: [prompt({ id: 'p1', title: 'Cold email', featured: true }), prompt({ id: 'p2', published: false })],
    servers: [server({ id: 's1', name: 'Everything' })],
    orders: [order({ id: 'o1' }), order({ id: 'o2', creator: { username: 'grace', display_name: 'Grace Hopper' }, fee: 2, net: 7.99 })],
    reviews: [
      agentReview({ id: 'a-9', agent: { provider: 'openai', model: 'gpt-4o', servers: [{ server_id: 's1', name: 'Everything', tools: ['echo'] }], starters: ['Hi'] } }),
      review({ id: 'r1', title: 'Cold outreach', decisions: [{ at: '2026-03-06T09:00:00Z', decision: 'reject', reason: 'Too short.' }] }), review({ id: 'r2', live_version: 1, change_note: 'Shorter.' })],
    creators: [creator({ id: 'c1', username: 'grace', display_name: 'Grace Hopper', sales: 3, net: 23.97 }), creator({ id: 'c2', username: 'linus', suspended: true })],
    agents: [agent({ id: 'a-1', name: 'Sales coach' }), agent({ id: 'a-2', suspended: true, on_sale: false })],
    users: [user({ id: 'u1', email: 'ada@example.com', is_superuser: true }), user({ id: 'u2', email: 'bob@example.com', is_verified: false })],
    audit: [{ id: 'a1', at: '2026-03-07T10:00:00Z', actor_id: 'u1', actor_email: 'ada@example.com', action: 'prompt.update', target_type: 'prompt', target_id: 'p1', before: { title: 'A' }, after: { title: 'B' } }],
  });
  renderApp(path);
}

describe('admin accessibility (axe, serious and critical)', () => {
  it.each([
    ['/admin/prompts', 'prompt-row'],
    ['/admin/categories', 'category-row'],
    ['/admin/mcp-servers', 'server-row'],
    ['/admin/reviews', 'review-item'],
    ['/admin/reviews?kind=agent', 'review-item'],
    ['/admin/creators', 'creator-row'],
    ['/admin/agents', 'agent-row'],
    ['/admin/orders', 'order-row'],
    ['/admin/users', 'user-row'],
    ['/admin/audit', 'audit-row'],
  ])('%s', async (path, rowTestId) => {
    open(path);
    await waitFor(() => expect(screen.getAllByTestId(rowTestId).length).toBeGreaterThan(0));
    expect(await seriousViolations()).toEqual([]);
  });

  it('the prompt editor with its errors, and the delete confirmation', async () => {
    open('/admin/prompts');
    await userEvent.click(await screen.findByRole('button', { name: 'New prompt' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'New prompt' })).getByRole('button', { name: 'Create prompt' }));
    expect(await seriousViolations()).toEqual([]);
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByRole('button', { name: 'Delete Cold email' }));
    expect(await seriousViolations()).toEqual([]);
  });

  it('the server editor and the probe history', async () => {
    open('/admin/mcp-servers');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Everything' }));
    expect(await seriousViolations()).toEqual([]);
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByRole('button', { name: 'Probe history of Everything' }));
    await within(screen.getByRole('dialog', { name: 'Probe history: Everything' })).findByTestId('empty-state');
    expect(await seriousViolations()).toEqual([]);
  });

  it('an order with the refund confirmation over it', async () => {
    open('/admin/orders');
    await userEvent.click(await screen.findByRole('button', { name: 'Open order o1' }));
    await within(screen.getByRole('dialog', { name: 'Order o1' })).findByTestId('order-events');
    await userEvent.click(screen.getByRole('button', { name: 'Refund…' }));
    expect(await seriousViolations()).toEqual([]);
  });

  it('the reject dialog with its missing reason, and the suspend confirmation', async () => {
    open('/admin/reviews');
    await userEvent.click(within(await screen.findByRole('article', { name: 'Cold outreach' })).getByRole('button', { name: 'Reject' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Reject “Cold outreach”?' })).getByRole('button', { name: 'Reject' }));
    expect(await seriousViolations()).toEqual([]);
    await userEvent.keyboard('{Escape}');
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Admin sections' })).getByRole('link', { name: 'Creators' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Suspend: Grace Hopper' }));
    expect(await seriousViolations()).toEqual([]);
  });

  it("a creator's order with its split", async () => {
    open('/admin/orders');
    await userEvent.click(await screen.findByRole('button', { name: 'Open order o2' }));
    await within(screen.getByRole('dialog', { name: 'Order o2' })).findByTestId('order-events');
    expect(await seriousViolations()).toEqual([]);
  });
});
