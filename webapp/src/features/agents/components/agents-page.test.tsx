// The Agent Marketplace (/agents) and an agent's page (/agents/{id})
// against a fake agents API: cards, search, category, sort, paging, the
// loading, empty and error states; the page's servers and tools,
// starters, instructions, Start chat, Buy, Export, rating and 404.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { browserLocation } from '../../../lib/browser-location';
import { deferred } from '../../../test/fake-api';
import { fakeAgent, fakeAgentsApi } from '../../../test/fake-agents-api';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { setUpPageTests } from '../../../test/page-tests';
import { renderApp } from '../../../test/render-app';
import { startSignedIn, startSignedOut } from '../../../test/session';
import { agentIdFromPath, priceLabel } from '../agent-text';

const api = setUpPageTests();

beforeAll(async () => {
  await import('./agents-page');
  await import('./agent-page');
}, 30_000);

const CATEGORIES = [
  { id: 'writing', name: 'Writing' },
  { id: 'sales', name: 'Sales' },
];

const PAID = fakeAgent({
  id: 'a-00000000000b',
  name: 'Sales closer',
  description: 'Closes deals.',
  creator: { username: 'grace', display_name: 'Grace Hopper' },
  price: 12.5,
  is_free: false,
  instructions: undefined,
  category_id: 'sales',
  category_name: 'Sales',
  rating_avg: 3,
  rating_count: 1,
  servers: [{ server_id: 'keyed', name: 'Keyed server', auth: 'key', tools: ['lookup'], connection_id: null }],
  created_at: '2026-11-02T10:00:00Z',
});

function serve(agents = [fakeAgent(), PAID], pageSize = 24) {
  api.route('GET /api/v1/prompts/categories', () => jsonResponse(200, CATEGORIES));
  return fakeAgentsApi(api, { agents: agents.map((a) => ({ ...a })), pageSize });
}

const card = (id: string) => {
  const el = document.querySelector<HTMLElement>(`[data-testid="agent-card"][data-agent-id="${id}"]`);
  if (!el) throw new Error(`no card ${id}`);
  return el;
};
const cardIds = () => [...document.querySelectorAll<HTMLElement>('[data-testid="agent-card"]')].map((el) => el.dataset.agentId);

describe('/agents', () => {
  it('shows each agent as a card: name, creator, description, model, servers with their auth kind, rating, price or Free', async () => {
    startSignedOut();
    serve();
    renderApp('/agents');
    expect(await screen.findByRole('heading', { level: 1, name: 'Agent Marketplace' })).toBeInTheDocument();
    await waitFor(() => expect(cardIds()).toEqual(['a-00000000000b', 'a-000000000001']));
    const free = card('a-000000000001');
    expect(within(free).getByRole('heading', { name: 'Inbox helper' })).toBeInTheDocument();
    expect(within(free).getByRole('link', { name: 'by Ada L.' })).toHaveAttribute('href', '/creators/ada');
    expect(free).toHaveTextContent('Sorts your inbox and drafts replies.');
    expect(free).toHaveTextContent('gpt-4o (openai)');
    const servers = within(free).getByRole('list', { name: 'MCP servers' });
    expect(within(servers).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Everything No key', 'Notion OAuth']);
    expect(within(free).getByTestId('agent-price')).toHaveTextContent('Free');
    expect(free).toHaveTextContent('4.5 (2)');
    const paid = card('a-00000000000b');
    expect(within(paid).getByTestId('agent-price')).toHaveTextContent('$12.50');
    expect(paid).toHaveTextContent('Keyed server API key');
    expect(screen.getByTestId('agent-count')).toHaveTextContent('2 agents found');
    // Visitors are told what signing in allows.
    expect(screen.getByTestId('agents-visitor')).toHaveTextContent('Log in or sign up to chat with an agent.');
    // The card leads to the agent's page.
    expect(within(free).getByRole('link', { name: 'Inbox helper' })).toHaveAttribute('href', '/agents/a-000000000001');
  });

  it('searches, filters by category and sorts on the server', async () => {
    startSignedIn();
    serve();
    renderApp('/agents');
    await waitFor(() => expect(cardIds()).toHaveLength(2));
    expect(screen.queryByTestId('agents-visitor')).toBeNull();

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search agents' }), 'inbox');
    // A slow machine may send a part of the words first: the whole query goes once typing pauses.
    await waitFor(() => expect(api.calls.some((c) => c.path === '/api/v1/agents/' && c.search === '?search=inbox')).toBe(true));
    await waitFor(() => expect(cardIds()).toEqual(['a-000000000001']));
    await userEvent.clear(screen.getByRole('searchbox', { name: 'Search agents' }));
    await waitFor(() => expect(cardIds()).toHaveLength(2));

    await waitFor(() => expect(screen.getByLabelText('Category')).toHaveTextContent('Sales'));
    await userEvent.selectOptions(screen.getByLabelText('Category'), 'sales');
    await waitFor(() => expect(cardIds()).toEqual(['a-00000000000b']));
    expect(api.calls.filter((c) => c.path === '/api/v1/agents/').at(-1)?.search).toBe('?category=sales');
    await userEvent.selectOptions(screen.getByLabelText('Category'), '');
    await waitFor(() => expect(cardIds()).toHaveLength(2));

    await userEvent.selectOptions(screen.getByLabelText('Sort'), 'price-high');
    await waitFor(() => expect(api.calls.filter((c) => c.path === '/api/v1/agents/').at(-1)?.search).toBe('?sort=price-high'));
    await waitFor(() => expect(cardIds()).toEqual(['a-00000000000b', 'a-000000000001']));
    await userEvent.selectOptions(screen.getByLabelText('Sort'), 'rating');
    await waitFor(() => expect(cardIds()).toEqual(['a-000000000001', 'a-00000000000b']));
  });

  it('reads the next page with Load more', async () => {
    startSignedOut();
    serve([fakeAgent(), PAID, fakeAgent({ id: 'a-00000000000c', name: 'Third', created_at: '2026-10-01T00:00:00Z' })], 2);
    renderApp('/agents');
    await waitFor(() => expect(cardIds()).toHaveLength(2));
    await userEvent.click(await screen.findByRole('button', { name: 'Load more agents' }));
    await waitFor(() => expect(cardIds()).toEqual(['a-00000000000b', 'a-000000000001', 'a-00000000000c']));
    expect(api.calls.some((c) => c.path === '/api/v1/agents/' && c.search === '?cursor=2')).toBe(true);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more agents' })).toBeNull());
  });

  it('shows skeletons while loading, then the empty state', async () => {
    startSignedOut();
    serve([]);
    const held = deferred();
    const handler = api.handlerFor('GET /api/v1/agents/')!;
    api.route('GET /api/v1/agents/', async (req) => {
      await held.promise;
      return handler(req);
    });
    renderApp('/agents');
    expect(await screen.findByRole('status', { name: 'Loading agents' })).toBeInTheDocument();
    expect(screen.getAllByTestId('agent-card-skeleton')).toHaveLength(6);
    held.resolve();
    expect(await screen.findByRole('heading', { name: 'No agents found' })).toBeInTheDocument();
    expect(screen.getByTestId('agent-count')).toHaveTextContent('0 agents found');
  });

  it('says when the list cannot be read, and Retry asks again', async () => {
    startSignedOut();
    serve();
    const handler = api.handlerFor('GET /api/v1/agents/')!;
    api.route('GET /api/v1/agents/', () => jsonResponse(500, { detail: 'The agents are resting.' }));
    renderApp('/agents');
    expect(await screen.findByText('The agents are resting.')).toBeInTheDocument();
    api.route('GET /api/v1/agents/', handler);
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(cardIds()).toHaveLength(2));
  });
});

describe('/agents/{id}', () => {
  it("shows a free agent: creator, model, servers with their tools, starters, instructions, Export, and Start chat opens the agent's chat", async () => {
    startSignedIn();
    serve();
    api.route('GET /api/v1/chat/conversations', () => jsonResponse(200, { conversations: [], next_cursor: '', total: 0 }));
    renderApp('/agents/a-000000000001');
    expect(await screen.findByRole('heading', { level: 1, name: 'Inbox helper' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'by Ada L.' })).toHaveAttribute('href', '/creators/ada');
    expect(screen.getByTestId('agent-model')).toHaveTextContent('gpt-4o (openai)');
    expect(screen.getByTestId('agent-price')).toHaveTextContent('Free');
    const servers = within(screen.getByTestId('agent-page-servers')).getAllByRole('listitem');
    expect(servers.map((li) => li.textContent)).toEqual(['Everything No keyTools: echo, get-sum', 'Notion OAuthTools: search']);
    expect(within(screen.getByTestId('agent-starters')).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Summarise my unread mail',
      'Draft a polite no',
    ]);
    expect(screen.getByTestId('agent-instructions')).toHaveTextContent('You sort mail.');
    expect(screen.getByRole('link', { name: 'Export' })).toHaveAttribute('href', '/api/v1/agents/a-000000000001/export');
    expect(screen.queryByRole('button', { name: 'Buy' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Start chat' }));
    // The chat page opens the agent's tab, and drops the parameter once read (its own tests: llm-chat).
    await waitFor(() => expect(screen.getByTestId('location').textContent).toMatch(/^\/llm-chat(\?agent=a-000000000001)?$/));
  });

  it("copies a free agent's share link: its page's address", async () => {
    startSignedIn();
    serve();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderApp('/agents/a-000000000001');
    await userEvent.click(await screen.findByRole('button', { name: 'Copy share link' }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/agents/a-000000000001`);
    expect(await within(screen.getByTestId('toasts')).findByText('Link copied: anyone with it can open this agent and start a chat.')).toBeInTheDocument();
  });

  it('offers Buy for a paid agent not owned: the checkout page; no instructions, no Export, no share link', async () => {
    startSignedIn();
    serve();
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    renderApp('/agents/a-00000000000b');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sales closer' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start chat' })).toBeNull();
    expect(screen.queryByTestId('agent-instructions')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Export' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Copy share link' })).toBeNull();
    expect(screen.getByTestId('agent-price')).toHaveTextContent('$12.50');
    await userEvent.click(screen.getByRole('button', { name: 'Buy' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost:12111/checkout/cs_agent_1'));
    expect(api.callsTo('POST', '/api/v1/agents/a-00000000000b/checkout')).toHaveLength(1);
  });

  it('says why a checkout was refused', async () => {
    startSignedIn();
    serve();
    api.route('POST /api/v1/agents/a-00000000000b/checkout', () => jsonResponse(403, { detail: 'You cannot buy your own agent.' }));
    renderApp('/agents/a-00000000000b');
    await userEvent.click(await screen.findByRole('button', { name: 'Buy' }));
    expect(await screen.findByText('You cannot buy your own agent.')).toBeInTheDocument();
  });

  it('a bought paid agent offers Start chat', async () => {
    startSignedIn();
    serve([fakeAgent(), { ...PAID, owned: true }]);
    renderApp('/agents/a-00000000000b');
    expect(await screen.findByRole('button', { name: 'Start chat' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Buy' })).toBeNull();
  });

  it('a visitor sees the agent and is asked to log in to chat; rating says why it cannot', async () => {
    startSignedOut();
    serve();
    renderApp('/agents/a-000000000001');
    expect(await screen.findByRole('heading', { level: 1, name: 'Inbox helper' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in to start a chat' })).toHaveAttribute('href', '/login?redirect=%2Fagents%2Fa-000000000001');
    expect(screen.queryByRole('button', { name: 'Start chat' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Rate 4 stars' }));
    expect(await screen.findByText('Log in to rate this agent.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/v1/agents/a-000000000001/rate')).toHaveLength(0);
  });

  it('rates a free agent (POST …/rate) and shows the new average', async () => {
    startSignedIn();
    const state = serve();
    renderApp('/agents/a-000000000001');
    await userEvent.click(await screen.findByRole('button', { name: 'Rate 2 stars' }));
    await waitFor(() => expect(state.ratings['a-000000000001']).toEqual([2]));
    expect(await screen.findByLabelText('Average rating 3.7 out of 5 from 3 ratings')).toBeInTheDocument();
  });

  it('a paid agent not bought cannot be rated', async () => {
    startSignedIn();
    serve();
    renderApp('/agents/a-00000000000b');
    await userEvent.click(await screen.findByRole('button', { name: 'Rate 5 stars' }));
    expect(await screen.findByText('Buy this agent to rate it.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/v1/agents/a-00000000000b/rate')).toHaveLength(0);
  });

  it('an unknown agent is "Agent not found."', async () => {
    startSignedOut();
    serve();
    renderApp('/agents/a-ffffffffffff');
    expect(await screen.findByRole('heading', { level: 1, name: 'Agent not found.' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the Agent Marketplace' })).toHaveAttribute('href', '/agents');
  });
});

describe('agent text', () => {
  it('reads the id from the path, and names the price', () => {
    expect(agentIdFromPath('/agents/a-1')).toBe('a-1');
    expect(agentIdFromPath('/agents/a-1/')).toBe('a-1');
    expect(agentIdFromPath('/agents/')).toBeNull();
    expect(agentIdFromPath('/agents/a/b')).toBeNull();
    expect(priceLabel({ price: 0, is_free: true })).toBe('Free');
    expect(priceLabel({ price: 3, is_free: false })).toBe('$3.00');
  });
});
