import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { setUpPageTests } from '../../../test/page-tests';
import { renderApp } from '../../../test/render-app';
import { ADA, startSignedIn } from '../../../test/session';
import { agentReview, fakeAdminApi, review, type AdminSeed } from '../test-fixtures';

const api = setUpPageTests();

beforeAll(async () => {
  await import('../components/admin-page');
}, 60_000);

const NEW = review({
  id: 'r1',
  title: 'Cold outreach',
  description: 'Emails that get answers.',
  content: 'Write to [NAME] about [PRODUCT].\n'.repeat(40),
  price: 7.5,
  category_name: 'Sales',
  creator: { user_id: 'c1', username: 'grace', display_name: 'Grace Hopper', payouts_status: 'enabled' },
  decisions: [{ at: '2026-03-06T09:00:00Z', decision: 'reject', reason: 'Say who it is for.' }],
});
const EDIT = review({
  id: 'r2',
  title: 'Blog outline',
  change_note: 'Shorter sections.',
  live_version: 2,
  creator: { user_id: 'c2', username: 'linus', display_name: 'Linus', payouts_status: 'details_needed' },
});

function open(seed: AdminSeed = { reviews: [NEW, EDIT] }) {
  startSignedIn({ ...ADA, is_admin: true });
  const state = fakeAdminApi(api, seed);
  renderApp('/admin/reviews');
  return state;
}

const item = (title: string) => screen.getByRole('article', { name: title });

describe('reviews: the queue', () => {
  it('is reached from the section nav and shows each prompt whole, with its creator and earlier decisions', async () => {
    startSignedIn({ ...ADA, is_admin: true });
    fakeAdminApi(api, { reviews: [NEW, EDIT] });
    renderApp('/admin/prompts');
    await userEvent.click(within(await screen.findByRole('navigation', { name: 'Admin sections' })).getByRole('link', { name: 'Reviews' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Reviews' })).toBeInTheDocument();
    const first = await screen.findByRole('article', { name: 'Cold outreach' });
    expect(api.callsTo('GET', '/api/v1/admin/reviews')[0].search).toContain('kind=prompt');

    const facts = within(first).getByTestId('review-facts');
    expect(facts).toHaveTextContent('CreatorGrace Hopper (@grace)');
    expect(facts).toHaveTextContent('PayoutsEnabled');
    expect(facts).toHaveTextContent('Price$7.50');
    expect(facts).toHaveTextContent('CategorySales');
    expect(facts).not.toHaveTextContent('Live version');
    expect(within(first).getByText('New prompt')).toBeInTheDocument();
    expect(within(first).getByText('Emails that get answers.')).toBeInTheDocument();
    // The whole content, in a frame that scrolls (and takes the keyboard).
    const content = within(first).getByRole('region', { name: 'Content of Cold outreach' });
    expect(content.textContent).toBe(NEW.content);
    expect(content).toHaveAttribute('tabindex', '0');
    expect(within(first).getByTestId('review-decisions')).toHaveTextContent('Rejected Mar 6, 2026, 9:00 AM UTC: Say who it is for.');

    // An edit of a published prompt: its note and the version live now.
    const edit = item('Blog outline');
    expect(within(edit).getByText('Edit of version 2')).toBeInTheDocument();
    expect(within(edit).getByTestId('review-facts')).toHaveTextContent('Live version2');
    expect(within(edit).getByTestId('review-facts')).toHaveTextContent('What changedShorter sections.');
    expect(within(edit).getByTestId('review-facts')).toHaveTextContent('PayoutsDetails needed');
    expect(within(edit).queryByTestId('review-decisions')).toBeNull();
  });

  it('says when nothing waits', async () => {
    open({ reviews: [] });
    expect(await screen.findByTestId('empty-state')).toHaveTextContent('No prompts are waiting for review.');
  });
});

describe('reviews: decisions', () => {
  it('Approve publishes the prompt and the queue is read again', async () => {
    const state = open();
    await screen.findByRole('article', { name: 'Cold outreach' });
    const reads = api.callsTo('GET', '/api/v1/admin/reviews').length;
    await userEvent.click(within(item('Cold outreach')).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Cold outreach' })).toBeNull());
    expect(api.callsTo('POST', '/api/v1/admin/reviews/r1')[0].body).toEqual({ decision: 'approve', reason: '' });
    expect(state.decided).toEqual([{ id: 'r1', decision: 'approve', reason: '' }]);
    expect(api.callsTo('GET', '/api/v1/admin/reviews').length).toBeGreaterThan(reads);
    expect(screen.getByTestId('toasts')).toHaveTextContent('Approved “Cold outreach”');
  });

  it("shows the API's 409 in place when the creator cannot be paid yet", async () => {
    const state = open();
    await screen.findByRole('article', { name: 'Blog outline' });
    await userEvent.click(within(item('Blog outline')).getByRole('button', { name: 'Approve' }));
    expect(await within(item('Blog outline')).findByTestId('review-error')).toHaveTextContent('Set up payouts before selling a paid prompt.');
    expect(state.decided).toEqual([]);
    expect(within(item('Cold outreach')).queryByTestId('review-error')).toBeNull();
  });

  it('Reject needs a reason: none sends nothing; with one, the creator gets it', async () => {
    const state = open();
    await screen.findByRole('article', { name: 'Cold outreach' });
    await userEvent.click(within(item('Cold outreach')).getByRole('button', { name: 'Reject' }));
    const dialog = screen.getByRole('dialog', { name: 'Reject “Cold outreach”?' });
    expect(dialog).toHaveAccessibleDescription(/Grace Hopper reads your reason/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(within(dialog).getByText('Give a reason: the creator reads it.')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText(/^Reason/), '   ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(api.callsTo('POST', '/api/v1/admin/reviews/r1')).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText(/^Reason/), 'The placeholders need examples.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST', '/api/v1/admin/reviews/r1')[0].body).toEqual({ decision: 'reject', reason: 'The placeholders need examples.' });
    expect(state.decided).toEqual([{ id: 'r1', decision: 'reject', reason: 'The placeholders need examples.' }]);
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Cold outreach' })).toBeNull());
  });

  it("shows a refused rejection's message in the dialog (decided meanwhile by another admin)", async () => {
    const state = open();
    await screen.findByRole('article', { name: 'Cold outreach' });
    await userEvent.click(within(item('Cold outreach')).getByRole('button', { name: 'Reject' }));
    const dialog = screen.getByRole('dialog', { name: 'Reject “Cold outreach”?' });
    await userEvent.type(within(dialog).getByLabelText(/^Reason/), 'Too short.');
    state.reviews.splice(0, 1);
    api.route('POST /api/v1/admin/reviews/r1', () =>
      new Response(JSON.stringify({ detail: 'Only a prompt in review can be approved or rejected; this one is published.', code: 'conflict' }), {
        status: 409,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByTestId('confirm-error')).toHaveTextContent('Only a prompt in review can be approved or rejected; this one is published.');
    // The queue is read again: the prompt decided elsewhere is gone from it.
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Cold outreach' })).toBeNull());
  });
});

const COACH = agentReview({
  id: 'a-000000000001',
  title: 'Sales coach',
  description: 'Coaches your calls.',
  content: 'You are a sales coach.\n'.repeat(50),
  price: 0,
  agent: {
    provider: 'anthropic',
    model: 'claude-3-opus',
    servers: [
      { server_id: 'local-everything', name: 'Everything', tools: ['echo', 'add'] },
      { server_id: 'notes', name: 'notes', tools: [] },
    ],
    starters: ['Review my call', 'Plan my week'],
  },
});
const PAID = agentReview({
  id: 'a-000000000002',
  title: 'Paid helper',
  price: 12,
  live_version: 1,
  change_note: 'New tools.',
  creator: { user_id: 'c2', username: 'linus', display_name: 'Linus', payouts_status: 'none' },
});

describe('reviews: agents', () => {
  it('a Review kind switch loads the agents’ queue and shows each agent whole', async () => {
    open({ reviews: [NEW, COACH, PAID] });
    expect(await screen.findByRole('article', { name: 'Cold outreach' })).toBeInTheDocument();
    expect(screen.queryByRole('article', { name: 'Sales coach' })).toBeNull();
    const kind = screen.getByRole('radiogroup', { name: 'Review kind' });
    expect(within(kind).getByRole('radio', { name: 'Prompts' })).toBeChecked();
    await userEvent.click(within(kind).getByRole('radio', { name: 'Agents' }));

    const coach = await screen.findByRole('article', { name: 'Sales coach' });
    expect(api.callsTo('GET', '/api/v1/admin/reviews').at(-1)?.search).toContain('kind=agent');
    expect(screen.getByTestId('location')).toHaveTextContent('/admin/reviews?kind=agent');
    expect(screen.queryByRole('article', { name: 'Cold outreach' })).toBeNull();
    expect(screen.getByText('2 agents are waiting for review.')).toBeInTheDocument();

    expect(within(coach).getByText('New agent')).toBeInTheDocument();
    const facts = within(coach).getByTestId('review-facts');
    expect(facts).toHaveTextContent('ModelAnthropic Claude claude-3-opus');
    expect(facts).toHaveTextContent('PriceFree');
    // The instructions whole, in a frame that scrolls and takes the keyboard.
    const instructions = within(coach).getByRole('region', { name: 'Instructions of Sales coach' });
    expect(instructions.textContent).toBe(COACH.content);
    expect(instructions).toHaveAttribute('tabindex', '0');
    const servers = within(coach).getByRole('region', { name: 'MCP servers of Sales coach' });
    expect(within(servers).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Everything (local-everything): echo, add', 'notes: no tools allowed']);
    const starters = within(coach).getByRole('region', { name: 'Starter prompts of Sales coach' });
    expect(within(starters).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Review my call', 'Plan my week']);

    const paid = item('Paid helper');
    expect(within(paid).getByText('Edit of version 1')).toBeInTheDocument();
    expect(within(paid).getByTestId('review-facts')).toHaveTextContent('Price$12.00');
    expect(within(paid).getByTestId('review-facts')).toHaveTextContent('What changedNew tools.');
    expect(within(paid).getByRole('region', { name: 'MCP servers of Paid helper' })).toHaveTextContent('None: the agent uses no tools.');
  });

  it('opens on the agents from the address, and says when none waits', async () => {
    startSignedIn({ ...ADA, is_admin: true });
    fakeAdminApi(api, { reviews: [NEW] });
    renderApp('/admin/reviews?kind=agent');
    expect(await screen.findByTestId('empty-state')).toHaveTextContent('No agents are waiting for review.');
    expect(screen.getByRole('radio', { name: 'Agents' })).toBeChecked();
  });

  it('approves and rejects an agent as a prompt, and shows the payouts refusal in place', async () => {
    startSignedIn({ ...ADA, is_admin: true });
    const state = fakeAdminApi(api, { reviews: [COACH, PAID] });
    renderApp('/admin/reviews?kind=agent');
    await screen.findByRole('article', { name: 'Sales coach' });

    await userEvent.click(within(item('Paid helper')).getByRole('button', { name: 'Approve' }));
    expect(await within(item('Paid helper')).findByTestId('review-error')).toHaveTextContent('Set up payouts before selling a paid agent.');

    await userEvent.click(within(item('Paid helper')).getByRole('button', { name: 'Reject' }));
    const dialog = screen.getByRole('dialog', { name: 'Reject “Paid helper”?' });
    expect(dialog).toHaveAccessibleDescription(/The agent stays off the marketplace, and Linus reads your reason/);
    await userEvent.type(within(dialog).getByLabelText(/^Reason/), 'Set up payouts first.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Paid helper' })).toBeNull());

    await userEvent.click(within(item('Sales coach')).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Sales coach' })).toBeNull());
    expect(api.callsTo('POST', '/api/v1/admin/reviews/a-000000000001')[0].body).toEqual({ decision: 'approve', reason: '' });
    expect(state.decided).toEqual([
      { id: 'a-000000000002', decision: 'reject', reason: 'Set up payouts first.' },
      { id: 'a-000000000001', decision: 'approve', reason: '' },
    ]);
    expect(screen.getByTestId('toasts')).toHaveTextContent('Approved “Sales coach”');
  });
});
