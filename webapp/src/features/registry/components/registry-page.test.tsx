import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { clearNotificationsForTests } from '../../../components/notifications/notification-store';
import { deferred, fakeSignInFailures } from '../../../test/fake-api';
import { setUpPageTests } from '../../../test/page-tests';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { renderApp } from '../../../test/render-app';
import { ADA, startSignedIn, startSignedOut } from '../../../test/session';
import type { McpServer, McpServerDetail } from '../../../lib/api/mcp-types';
import type { McpConnection } from '../../../lib/api/types';
import { browserLocation } from '../../../lib/browser-location';
import { localConnectionsKey } from '../../../lib/local-connections';
import { connection, connectResponse, detail, server, TOOLS } from '../test-fixtures';

const api = setUpPageTests();

// The route is lazy: load its module once so the first test does not pay for the transform.
beforeAll(async () => {
  await import('./registry-page');
}, 30_000);

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

const EVERYTHING = server({
  id: 'local-everything',
  name: 'Everything (local reference server)',
  registry_name: 'local/everything',
  description: 'The MCP reference server, with every feature.',
  endpoint_url: 'http://127.0.0.1:3001/mcp',
  model_type: 'reference',
  supported_features: ['tools', 'prompts', 'resources'],
  health: { status: 'up', checked_at: minutesAgo(5), latency_ms: 12, protocol_version: '2025-06-18', tools_count: 13, detail: '' },
  tools_changed_at: minutesAgo(60 * 24 * 2),
});
const STRIPE = server({
  id: 'com.stripe--mcp',
  name: 'Stripe',
  model_type: 'payments',
  api_key_required: true,
  endpoint_url: 'https://mcp.stripe.com/',
  health: { status: 'auth_required', checked_at: minutesAgo(30), latency_ms: 80, protocol_version: '', tools_count: 0, detail: 'The server asks for credentials.' },
  tools_changed_at: minutesAgo(60 * 24 * 10),
});
const NOTION = server({
  id: 'com.notion--mcp',
  name: 'Notion',
  model_type: 'productivity',
  oauth_required: true,
  endpoint_url: 'https://mcp.notion.com/mcp',
  health: { status: 'auth_required', checked_at: minutesAgo(2), latency_ms: 50, protocol_version: '', tools_count: 0, detail: '' },
});
const GITHUB = server({
  id: 'io.github--github-mcp',
  name: 'GitHub',
  model_type: 'code',
  description: 'Repositories, issues and pull requests.',
  health: { status: 'down', checked_at: minutesAgo(10), latency_ms: 0, protocol_version: '', tools_count: 0, detail: 'The server could not be reached.' },
});
const OLD = server({ id: 'old', name: 'Zed Old', model_type: 'code', is_active: false, health: { ...GITHUB.health, status: 'unknown', checked_at: '' } });
const CATALOGUE = [EVERYTHING, STRIPE, NOTION, GITHUB, OLD];

/** The backend as the contract describes it, with state the tests can change. */
function serveRegistry(
  opts: { servers?: McpServer[]; details?: Record<string, McpServerDetail>; connections?: McpConnection[]; pageSize?: number; countExact?: boolean } = {},
) {
  const state = { servers: opts.servers ?? CATALOGUE, connections: opts.connections ?? ([] as McpConnection[]) };
  api.route('GET /api/v1/mcp-servers/', ({ url }) => {
    const type = url.searchParams.get('model_type');
    const q = url.searchParams.get('search')?.toLowerCase();
    const found = state.servers.filter((s) => (!type || s.model_type === type) && (!q || s.name.toLowerCase().includes(q) || s.description.toLowerCase().includes(q)));
    // A page at a time, the cursor the index of the page's first server.
    const size = opts.pageSize ?? 24;
    const from = Number(url.searchParams.get('cursor') ?? '0');
    const items = found.slice(from, from + size);
    const next = from + size < found.length ? String(from + size) : null;
    const exact = opts.countExact ?? true;
    return jsonResponse(200, { items, next_cursor: next, count: exact ? found.length : from + items.length, count_exact: exact || next === null });
  });
  for (const s of state.servers) {
    const d = opts.details?.[s.id] ?? detail(s);
    api.route(`GET /api/v1/mcp-servers/${s.id}`, () => jsonResponse(200, d));
  }
  api.route('GET /api/v1/mcp-connections/', ({ headers }) =>
    headers.Authorization ? jsonResponse(200, state.connections) : jsonResponse(401, { detail: 'Not authenticated', code: 'unauthorized' }),
  );
  return state;
}

const toasts = () => screen.getByTestId('toasts');
// A detail id as the sign-in's callback makes them.
const DETAIL_ID = 'piyFK1ItNguzBCskRHdNk2tX6bbXO6IJksJynHUzzAk';
const card = (id: string) => {
  const el = document.querySelector<HTMLElement>(`[data-testid="server-card"][data-server-id="${id}"]`);
  if (!el) throw new Error(`no card ${id}`);
  return el;
};
const findCard = async (id: string) => {
  await waitFor(() => card(id));
  return card(id);
};
const listCalls = () => api.callsTo('GET', '/api/v1/mcp-servers/');

describe('RegistryPage: listing', () => {
  it('shows six skeleton cards while loading, then the count and the cards', async () => {
    startSignedOut();
    const gate = deferred();
    serveRegistry();
    api.route('GET /api/v1/mcp-servers/', async () => {
      await gate.promise;
      return jsonResponse(200, { items: CATALOGUE, next_cursor: null, count: CATALOGUE.length, count_exact: true });
    });
    renderApp('/registry');
    expect(await screen.findByRole('heading', { level: 1, name: 'MCP Server Registry' })).toBeInTheDocument();
    const loading = await screen.findByRole('status', { name: 'Loading servers' });
    expect(within(loading).getAllByTestId('server-card-skeleton')).toHaveLength(6);
    expect(screen.queryByTestId('server-count')).not.toBeInTheDocument();
    gate.resolve();
    expect(await screen.findByTestId('server-count')).toHaveTextContent('5 servers found');
    expect(screen.queryByTestId('server-card-skeleton')).not.toBeInTheDocument();
    // In the server's order (it sorts by name; the card shows the health).
    expect(screen.getAllByTestId('server-card').map((c) => c.getAttribute('data-server-id'))).toEqual(CATALOGUE.map((s) => s.id));
  });

  it('reads the list a page at a time with Load more, each server once, the count exact', async () => {
    startSignedOut();
    serveRegistry({ pageSize: 2 });
    renderApp('/registry');
    expect(await screen.findByTestId('server-count')).toHaveTextContent('5 servers found');
    expect(screen.getAllByTestId('server-card')).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'Load more servers' }));
    await waitFor(() => expect(screen.getAllByTestId('server-card')).toHaveLength(4));
    await userEvent.click(screen.getByRole('button', { name: 'Load more servers' }));
    await waitFor(() => expect(screen.getAllByTestId('server-card').map((c) => c.getAttribute('data-server-id'))).toEqual(CATALOGUE.map((s) => s.id)));
    expect(screen.queryByRole('button', { name: 'Load more servers' })).not.toBeInTheDocument();
    expect(listCalls().map((c) => new URLSearchParams(c.search).get('cursor'))).toEqual([null, '2', '4']);
  });

  it('says "at least" while a search\'s total is unknown, exact on its last page', async () => {
    startSignedOut();
    serveRegistry({ pageSize: 3, countExact: false });
    renderApp('/registry');
    expect(await screen.findByTestId('server-count')).toHaveTextContent('3+ servers found');
    await userEvent.click(screen.getByRole('button', { name: 'Load more servers' }));
    await waitFor(() => expect(screen.getByTestId('server-count')).toHaveTextContent('5 servers found'));
  });

  it('shows every element of a card, with readable status text', async () => {
    startSignedOut();
    serveRegistry();
    renderApp('/registry');
    const c = await findCard('local-everything');
    expect(c.tagName).toBe('ARTICLE');
    expect(within(c).getByRole('heading', { name: 'Everything (local reference server)' })).toBeInTheDocument();
    expect(within(c).getByText('The MCP reference server, with every feature.')).toBeInTheDocument();
    expect(within(c).getByTestId('server-status')).toHaveTextContent('Active');
    expect(c.querySelector('[data-model-type="reference"]')).toHaveTextContent('🧪 Reference');
    expect(within(c).getByTestId('server-endpoint')).toHaveTextContent('http://127.0.0.1:3001/mcp');
    const features = within(c).getByRole('list', { name: 'Supported features' });
    expect(within(features).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['tools', 'prompts', 'resources']);
    const health = within(c).getByTestId('server-health');
    expect(health).toHaveTextContent('Last checked 5 minutes ago');
    expect(health).toHaveTextContent('13 tools');
    expect(health).toHaveTextContent('12 ms');
    expect(within(c).getByText('Tools changed')).toBeInTheDocument();
    expect(within(c).queryByRole('img', { name: 'API key required' })).not.toBeInTheDocument();
    const open = within(c).getByRole('link', { name: 'Open' });
    expect(open).toHaveAttribute('href', 'http://127.0.0.1:3001/mcp');
    expect(open).toHaveAttribute('target', '_blank');
    expect(open).toHaveAttribute('rel', 'noopener noreferrer');
    for (const name of ['Copy', 'Details', 'Connect']) expect(within(c).getByRole('button', { name })).toBeEnabled();

    const stripe = card('com.stripe--mcp');
    expect(within(stripe).getByRole('img', { name: 'API key required' })).toHaveTextContent('🔑');
    expect(within(stripe).getByTestId('server-status')).toHaveTextContent('Needs key');
    expect(within(stripe).getByTestId('server-health')).not.toHaveTextContent('tools');
    expect(within(stripe).queryByText('Tools changed')).not.toBeInTheDocument();
    expect(stripe.querySelector('[data-model-type="payments"]')).toHaveTextContent('💳 Payments');

    const notion = card('com.notion--mcp');
    expect(within(notion).getByText('OAuth')).toBeInTheDocument();
    expect(within(notion).getByTestId('server-status')).toHaveTextContent('Needs sign-in');
    expect(within(card('io.github--github-mcp')).getByTestId('server-status')).toHaveTextContent('Down');

    const old = card('old');
    expect(within(old).getByTestId('server-status')).toHaveTextContent('Inactive');
    expect(within(old).getByTestId('server-health')).toHaveTextContent('Not checked yet');
    expect(within(old).getByRole('button', { name: 'Connect' })).toBeDisabled();
  });

  it('filters by model type (All Models + distinct types with emojis) on the server', async () => {
    startSignedOut();
    serveRegistry();
    renderApp('/registry');
    await findCard('local-everything');
    const select = screen.getByLabelText('Model type');
    // The known types (the list comes a page at a time, so not all of its types are known).
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'All Models',
      '☁️ Cloud',
      '💻 Code',
      '📊 Data',
      '📚 Documentation',
      '💳 Payments',
      '🗂️ Productivity',
      '🧪 Reference',
      '🔎 Search',
    ]);
    await userEvent.selectOptions(select, 'code');
    await waitFor(() => expect(screen.getByTestId('server-count')).toHaveTextContent('2 servers found'));
    expect(screen.getAllByTestId('server-card').map((c) => c.getAttribute('data-server-id'))).toEqual(['io.github--github-mcp', 'old']);
    await waitFor(() => expect(listCalls().some((c) => c.search === '?model_type=code')).toBe(true));
    // The options still list every type while one is chosen.
    expect(within(select).getAllByRole('option')).toHaveLength(9);
    await userEvent.selectOptions(select, '');
    await waitFor(() => expect(screen.getByTestId('server-count')).toHaveTextContent('5 servers found'));
  });

  it('searches on the server, debounced, and shows the empty state with Clear filters', async () => {
    startSignedOut();
    serveRegistry();
    renderApp('/registry');
    await findCard('local-everything');
    const before = listCalls().length;
    await userEvent.type(screen.getByLabelText('Search servers'), 'pull');
    await waitFor(() => expect(screen.getByTestId('server-count')).toHaveTextContent('1 servers found'));
    expect(screen.getAllByTestId('server-card').map((c) => c.getAttribute('data-server-id'))).toEqual(['io.github--github-mcp']);
    const searches = listCalls()
      .slice(before)
      .map((c) => new URLSearchParams(c.search).get('search'));
    expect(searches).toEqual(['pull']);

    await userEvent.clear(screen.getByLabelText('Search servers'));
    await userEvent.type(screen.getByLabelText('Search servers'), 'zzz-nothing');
    const empty = await screen.findByTestId('empty-state');
    expect(within(empty).getByRole('heading', { name: 'No servers found' })).toBeInTheDocument();
    expect(within(empty).getByText('Try adjusting your filters or check back later for new servers.')).toBeInTheDocument();
    expect(screen.getByTestId('server-count')).toHaveTextContent('0 servers found');
    await userEvent.click(within(empty).getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(screen.getByTestId('server-count')).toHaveTextContent('5 servers found'));
    expect(screen.getByLabelText('Search servers')).toHaveValue('');
  });

  it('shows the empty state when the registry is empty', async () => {
    startSignedOut();
    serveRegistry({ servers: [] });
    renderApp('/registry');
    expect(await screen.findByText('No servers found')).toBeInTheDocument();
    expect(screen.getByText('Try adjusting your filters or check back later for new servers.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
  });

  it('shows an error with Retry', async () => {
    startSignedOut();
    serveRegistry();
    let fail = true;
    api.route('GET /api/v1/mcp-servers/', () => (fail ? jsonResponse(500, { detail: 'Internal error.' }) : jsonResponse(200, [EVERYTHING])));
    renderApp('/registry');
    const error = await screen.findByTestId('registry-error');
    expect(error).toHaveTextContent('Could not load servers');
    expect(error).toHaveTextContent('Internal error.');
    expect(screen.queryByTestId('server-count')).not.toBeInTheDocument();
    fail = false;
    await userEvent.click(within(error).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('server-count')).toHaveTextContent('1 servers found');
  });

  it('Copy copies the endpoint URL and says so; a refused copy says that', async () => {
    startSignedOut();
    const writeText = vi.fn().mockResolvedValueOnce(undefined).mockRejectedValueOnce(new Error('denied'));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    serveRegistry();
    renderApp('/registry');
    const copy = within(await findCard('local-everything')).getByRole('button', { name: 'Copy' });
    await userEvent.click(copy);
    expect(writeText).toHaveBeenCalledWith('http://127.0.0.1:3001/mcp');
    expect(await within(toasts()).findByText('Endpoint URL copied to clipboard!')).toBeInTheDocument();
    await userEvent.click(copy);
    expect(await within(toasts()).findByText('Failed to copy to clipboard')).toBeInTheDocument();
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
  });
});

describe('RegistryPage: details', () => {
  it('lists server info and tools with read-only / destructive hints before connecting', async () => {
    startSignedOut();
    const gate = deferred();
    serveRegistry();
    api.route('GET /api/v1/mcp-servers/local-everything', async () => {
      await gate.promise;
      return jsonResponse(200, detail(EVERYTHING));
    });
    renderApp('/registry');
    const details = within(await findCard('local-everything')).getByRole('button', { name: 'Details' });
    await userEvent.click(details);
    const dialog = await screen.findByRole('dialog', { name: 'Everything (local reference server)' });
    expect(within(dialog).getByRole('status', { name: 'Loading server details' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent('The MCP reference server, with every feature.');
    gate.resolve();
    expect(await within(dialog).findByTestId('server-info')).toHaveTextContent('Everything Server (mcp-servers/everything) · version 2026.8.31');
    expect(within(dialog).getByRole('heading', { name: 'Tools (3)' })).toBeInTheDocument();
    const tools = within(dialog).getAllByTestId('tool');
    expect(tools.map((t) => t.getAttribute('data-tool-name'))).toEqual(TOOLS.map((t) => t.name));
    expect(within(tools[0]).getByText('Read-only')).toBeInTheDocument();
    expect(within(tools[0]).queryByText('Destructive')).not.toBeInTheDocument();
    expect(within(tools[1]).getByText('Destructive')).toBeInTheDocument();
    expect(within(tools[2]).queryByText(/Read-only|Destructive/)).not.toBeInTheDocument();
    expect(tools[0]).toHaveTextContent('Echoes back the input.');
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(details).toHaveFocus();
  });

  it('explains missing tools and shows an error with Retry', async () => {
    startSignedOut();
    serveRegistry({ details: { 'com.stripe--mcp': detail(STRIPE, { server_info: null, tools: [] }) } });
    let fail = true;
    api.route('GET /api/v1/mcp-servers/io.github--github-mcp', () =>
      fail ? jsonResponse(404, { detail: 'No MCP server with id io.github--github-mcp.' }) : jsonResponse(200, detail(GITHUB, { tools: [] })),
    );
    renderApp('/registry');
    await userEvent.click(within(await findCard('com.stripe--mcp')).getByRole('button', { name: 'Details' }));
    let dialog = await screen.findByRole('dialog', { name: 'Stripe' });
    expect(await within(dialog).findByText(/lists its tools only with an API key/)).toBeInTheDocument();
    expect(within(dialog).getByText('Not reported yet.')).toBeInTheDocument();
    expect(within(dialog).getByText('The server asks for credentials.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));

    await userEvent.click(within(card('io.github--github-mcp')).getByRole('button', { name: 'Details' }));
    dialog = await screen.findByRole('dialog', { name: 'GitHub' });
    const error = await within(dialog).findByTestId('details-error');
    expect(error).toHaveTextContent('No MCP server with id io.github--github-mcp.');
    fail = false;
    await userEvent.click(within(error).getByRole('button', { name: 'Retry' }));
    expect(await within(dialog).findByText(/did not answer the last check/)).toBeInTheDocument();
  });

  it('Connect in the details opens the Connect dialog for a signed-in user', async () => {
    startSignedIn();
    serveRegistry();
    renderApp('/registry');
    await userEvent.click(within(await findCard('local-everything')).getByRole('button', { name: 'Details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Everything (local reference server)' });
    await within(dialog).findByTestId('server-info');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    expect(await screen.findByRole('dialog', { name: 'Connect to Everything (local reference server)' })).toBeInTheDocument();
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
  });
});

describe('RegistryPage: visitors', () => {
  it('Connect tells a visitor to log in, with no dialog and no request', async () => {
    startSignedOut();
    serveRegistry();
    renderApp('/registry');
    expect(await screen.findByTestId('registry-visitor-notice')).toHaveTextContent('Log in');
    await userEvent.click(within(await findCard('local-everything')).getByRole('button', { name: 'Connect' }));
    expect(await within(toasts()).findByText('Please log in to connect to MCP servers')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByTestId('my-connections')).not.toBeInTheDocument();
    expect(api.calls.some((c) => c.path.startsWith('/api/v1/mcp-connections'))).toBe(false);
  });
});

describe('RegistryPage: Connect dialog', () => {
  it('shows the description, the optional endpoint, the optional key and the features; Escape closes', async () => {
    startSignedIn();
    serveRegistry();
    renderApp('/registry');
    const connect = within(await findCard('local-everything')).getByRole('button', { name: 'Connect' });
    await userEvent.click(connect);
    const dialog = await screen.findByRole('dialog', { name: 'Connect to Everything (local reference server)' });
    expect(dialog).toHaveAccessibleDescription('The MCP reference server, with every feature.');
    const endpoint = within(dialog).getByLabelText('Endpoint URL');
    expect(endpoint).toHaveValue('');
    expect(endpoint).toHaveAttribute('placeholder', 'http://127.0.0.1:3001/mcp');
    expect(within(dialog).getByText('Leave empty to use default endpoint')).toBeInTheDocument();
    const key = within(dialog).getByLabelText('API Key');
    expect(key).toHaveAttribute('type', 'password');
    expect(key).not.toBeRequired();
    expect(key).toHaveAccessibleDescription(/^Optional\./);
    expect(within(dialog).getByRole('list', { name: 'Supported features' })).toHaveTextContent('toolspromptsresources');
    expect(within(dialog).getByRole('button', { name: 'Connect' })).toBeEnabled();
    expect(within(dialog).queryByText('API key is required for this server')).not.toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(connect).toHaveFocus();
  });

  it('keeps Connect disabled with the SPEC text while a required key is empty or blank', async () => {
    startSignedIn();
    const state = serveRegistry();
    api.route('POST /api/v1/mcp-connections/', ({ body }) => {
      state.connections = [connection({ connection_id: 'c-new', server_id: STRIPE.id, server_name: 'Stripe', has_api_key: true, api_key_last4: 'cdef' })];
      return jsonResponse(200, connectResponse(STRIPE, { has_api_key: true, api_key_last4: (body as { api_key: string }).api_key.slice(-4) }));
    });
    renderApp('/registry');
    await userEvent.click(within(await findCard('com.stripe--mcp')).getByRole('button', { name: 'Connect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect to Stripe' });
    const key = within(dialog).getByLabelText('API Key');
    expect(key).toBeRequired();
    expect(key).toHaveAttribute('type', 'password');
    expect(key).toHaveAccessibleDescription(/^Required\./);
    const submit = within(dialog).getByRole('button', { name: 'Connect' });
    expect(submit).toBeDisabled();
    expect(within(dialog).getByText('API key is required for this server')).toBeInTheDocument();
    expect(submit).toHaveAccessibleDescription('API key is required for this server');

    await userEvent.type(key, '   ');
    expect(submit).toBeDisabled();
    expect(within(dialog).getByText('API key is required for this server')).toBeInTheDocument();
    // Enter in the form does not submit either.
    await userEvent.type(key, '{Enter}');
    expect(api.callsTo('POST', '/api/v1/mcp-connections/')).toHaveLength(0);

    await userEvent.clear(key);
    await userEvent.type(key, 'sk_test_abcdef');
    expect(submit).toBeEnabled();
    expect(within(dialog).queryByText('API key is required for this server')).not.toBeInTheDocument();
    await userEvent.click(submit);
    expect(await within(toasts()).findByText('Successfully connected to Stripe!')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/v1/mcp-connections/')[0].body).toEqual({
      server_id: 'com.stripe--mcp',
      server_name: 'Stripe',
      endpoint_url: 'https://mcp.stripe.com/',
      model_type: 'payments',
      api_key: 'sk_test_abcdef',
    });
    expect(within(dialog).getByTestId('connect-success')).toHaveTextContent('key …cdef');
    // The key never lands in browser storage.
    expect(JSON.stringify({ ...localStorage })).not.toContain('sk_test_abcdef');
  });

  it('cannot be closed while connecting; shows Connecting...', async () => {
    startSignedIn();
    serveRegistry();
    const answer = deferred();
    api.route('POST /api/v1/mcp-connections/', async () => {
      await answer.promise;
      return jsonResponse(200, connectResponse(EVERYTHING));
    });
    renderApp('/registry');
    await userEvent.click(within(await findCard('local-everything')).getByRole('button', { name: 'Connect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect to Everything (local reference server)' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    const busy = await within(dialog).findByRole('button', { name: 'Connecting...' });
    expect(busy).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Close dialog' })).toBeDisabled();
    expect(within(dialog).getByLabelText('Endpoint URL')).toHaveAttribute('readonly');

    fireEvent.keyDown(document, { key: 'Escape' });
    fireEvent.click(document.querySelector('.modal-backdrop')!);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.getByRole('dialog', { name: 'Connect to Everything (local reference server)' })).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/v1/mcp-connections/')).toHaveLength(1);

    answer.resolve();
    expect(await within(toasts()).findByText('Successfully connected to Everything (local reference server)!')).toBeInTheDocument();
    // Closable again once done.
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('on success: toast, the tools reported, the local copy, and My connections refreshed', async () => {
    startSignedIn();
    const state = serveRegistry();
    api.route('POST /api/v1/mcp-connections/', () => {
      state.connections = [connection({ connection_id: 'c-new', connected_at: minutesAgo(0) })];
      return jsonResponse(200, connectResponse(EVERYTHING, { connected_at: '2026-11-22T12:00:00Z' }));
    });
    renderApp('/registry');
    const mine = await screen.findByTestId('my-connections');
    expect(await within(mine).findByTestId('connections-empty')).toHaveTextContent('You have no connections yet.');
    await userEvent.click(within(await findCard('local-everything')).getByRole('button', { name: 'Connect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect to Everything (local reference server)' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));

    expect(await within(toasts()).findByText('Successfully connected to Everything (local reference server)!')).toBeInTheDocument();
    const success = await within(dialog).findByTestId('connect-success');
    expect(within(success).getByRole('heading', { name: /Connected to Everything/ })).toHaveFocus();
    expect(success).toHaveTextContent('mcp-servers/everything 2026.8.31 · protocol 2025-06-18');
    expect(within(success).getAllByTestId('tool').map((t) => t.getAttribute('data-tool-name'))).toEqual(TOOLS.map((t) => t.name));
    expect(within(success).getByText('Destructive')).toBeInTheDocument();

    // SPEC §3 body: default endpoint, no api_key.
    expect(api.callsTo('POST', '/api/v1/mcp-connections/')[0].body).toEqual({
      server_id: 'local-everything',
      server_name: 'Everything (local reference server)',
      endpoint_url: 'http://127.0.0.1:3001/mcp',
      model_type: 'reference',
    });
    expect(api.callsTo('POST', '/api/v1/mcp-connections/')[0].auth).toMatch(/^Bearer /);
    // SPEC §3 local copy.
    expect(JSON.parse(localStorage.getItem(localConnectionsKey(ADA.id)) ?? '[]')).toEqual([
      {
        connection_id: 'c-new',
        connected_at: '2026-11-22T12:00:00Z',
        status: 'connected',
        server_id: 'local-everything',
        server_name: 'Everything (local reference server)',
        endpoint_url: 'http://127.0.0.1:3001/mcp',
        user_id: ADA.id,
      },
    ]);
    // The list was revalidated: the new connection shows, and the card says Connected.
    const item = await within(mine).findByTestId('connection');
    expect(item).toHaveTextContent('Everything (local reference server)');
    expect(item).toHaveTextContent('13 tools');
    expect(within(card('local-everything')).getByTestId('connected-badge')).toHaveTextContent('Connected');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('on failure: the SPEC toast with the detail, the dialog stays with the inputs kept, and Connect again works', async () => {
    startSignedIn();
    serveRegistry();
    let fail = true;
    api.route('POST /api/v1/mcp-connections/', () =>
      fail
        ? jsonResponse(400, { detail: 'The endpoint 10.0.0.5 is a private or local address and cannot be used.', code: 'invalid' })
        : jsonResponse(200, connectResponse(EVERYTHING)),
    );
    renderApp('/registry');
    await userEvent.click(within(await findCard('local-everything')).getByRole('button', { name: 'Connect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect to Everything (local reference server)' });
    await userEvent.type(within(dialog).getByLabelText('Endpoint URL'), 'http://10.0.0.5/mcp');
    await userEvent.type(within(dialog).getByLabelText('API Key'), 'my-token');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));

    expect(
      await within(toasts()).findByText(
        'Failed to connect to Everything (local reference server): The endpoint 10.0.0.5 is a private or local address and cannot be used.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Connect to Everything (local reference server)' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Endpoint URL')).toHaveValue('http://10.0.0.5/mcp');
    expect(within(dialog).getByLabelText('API Key')).toHaveValue('my-token');
    expect(within(dialog).getByTestId('connect-failure')).toHaveTextContent('private or local address');
    expect(within(dialog).getByRole('button', { name: 'Connect' })).toBeEnabled();
    expect(api.callsTo('POST', '/api/v1/mcp-connections/')[0].body).toMatchObject({ endpoint_url: 'http://10.0.0.5/mcp', api_key: 'my-token' });
    expect(localStorage.getItem(localConnectionsKey(ADA.id))).toBeNull();

    fail = false;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    expect(await within(dialog).findByTestId('connect-success')).toBeInTheDocument();
  });

  it('an endpoint on another host: the toast and the heading name that host beside the server', async () => {
    startSignedIn();
    serveRegistry();
    api.route('POST /api/v1/mcp-connections/', () =>
      jsonResponse(200, connectResponse(EVERYTHING, { endpoint_url: 'http://127.0.0.1:18101/mcp', endpoint_host: '127.0.0.1:18101' })),
    );
    renderApp('/registry');
    await userEvent.click(within(await findCard('local-everything')).getByRole('button', { name: 'Connect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect to Everything (local reference server)' });
    await userEvent.type(within(dialog).getByLabelText('Endpoint URL'), 'http://127.0.0.1:18101/mcp');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));

    expect(await within(toasts()).findByText('Successfully connected to Everything (local reference server) · 127.0.0.1:18101!')).toBeInTheDocument();
    const success = await within(dialog).findByTestId('connect-success');
    expect(within(success).getByRole('heading', { name: 'Connected to Everything (local reference server) · 127.0.0.1:18101' })).toBeInTheDocument();
  });

  it('falls back to the message, then to Connection failed', async () => {
    startSignedIn();
    serveRegistry();
    api.route('POST /api/v1/mcp-connections/', () => new Response('<html>bad gateway</html>', { status: 502, statusText: '' }));
    renderApp('/registry');
    await userEvent.click(within(await findCard('local-everything')).getByRole('button', { name: 'Connect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect to Everything (local reference server)' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    expect(await within(toasts()).findByText('Failed to connect to Everything (local reference server): Request failed with status 502')).toBeInTheDocument();

    act(() => clearNotificationsForTests());
    api.route('POST /api/v1/mcp-connections/', () => jsonResponse(200, { ok: true }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    // An answer without a connection id is not a success.
    expect(await within(toasts()).findByText(/^Failed to connect to Everything \(local reference server\): /)).toBeInTheDocument();
    expect(within(dialog).queryByTestId('connect-success')).not.toBeInTheDocument();
  });
});

describe('RegistryPage: My connections', () => {
  it('lists connections with tools, time and key hint; Disconnect removes one and its local copy', async () => {
    startSignedIn();
    const state = serveRegistry({
      connections: [
        connection({ connection_id: 'c1', connected_at: minutesAgo(5) }),
        connection({ connection_id: 'c2', server_id: STRIPE.id, server_name: 'Stripe', model_type: 'payments', tools_count: 1, has_api_key: true, api_key_last4: 'abcd', connected_at: minutesAgo(120) }),
      ],
    });
    localStorage.setItem(
      localConnectionsKey(ADA.id),
      JSON.stringify([
        { connection_id: 'c1', connected_at: 'x', status: 'connected', server_id: 'local-everything', server_name: 'E', endpoint_url: 'u', user_id: ADA.id },
        { connection_id: 'gone', connected_at: 'x', status: 'connected', server_id: 's', server_name: 'S', endpoint_url: 'u', user_id: ADA.id },
      ]),
    );
    api.route('DELETE /api/v1/mcp-connections/c1', () => {
      state.connections = state.connections.filter((c) => c.connection_id !== 'c1');
      return new Response(null, { status: 204 });
    });
    api.route('DELETE /api/v1/mcp-connections/c2', () => jsonResponse(500, { detail: 'Internal error.' }));
    renderApp('/registry');
    const mine = await screen.findByTestId('my-connections');
    await waitFor(() => expect(within(mine).getAllByTestId('connection')).toHaveLength(2));
    expect(within(mine).getByRole('heading', { name: 'My connections (2)' })).toBeInTheDocument();
    const [first, second] = within(mine).getAllByTestId('connection');
    expect(first).toHaveTextContent('Everything (local reference server)');
    expect(first).toHaveTextContent('13 tools');
    expect(first).toHaveTextContent('Connected 5 minutes ago');
    expect(within(first).queryByTestId('key-hint')).not.toBeInTheDocument();
    expect(second).toHaveTextContent('1 tool');
    expect(second).toHaveTextContent('Connected 2 hours ago');
    expect(within(second).getByTestId('key-hint')).toHaveTextContent('key …abcd');
    // The local copy follows the server's list.
    await waitFor(() => expect(JSON.parse(localStorage.getItem(localConnectionsKey(ADA.id)) ?? '[]').map((c: { connection_id: string }) => c.connection_id)).toEqual(['c1']));

    await userEvent.click(within(second).getByRole('button', { name: 'Disconnect' }));
    expect(await within(toasts()).findByText('Failed to disconnect from Stripe: Internal error.')).toBeInTheDocument();
    expect(within(mine).getAllByTestId('connection')).toHaveLength(2);

    await userEvent.click(within(first).getByRole('button', { name: 'Disconnect' }));
    expect(await within(toasts()).findByText('Disconnected from Everything (local reference server)')).toBeInTheDocument();
    await waitFor(() => expect(within(mine).getAllByTestId('connection')).toHaveLength(1));
    expect(api.callsTo('DELETE', '/api/v1/mcp-connections/c1')[0].auth).toMatch(/^Bearer /);
    expect(JSON.parse(localStorage.getItem(localConnectionsKey(ADA.id)) ?? '[]')).toEqual([]);
  });

  it('a connection made with another endpoint shows its host beside the name, also in the Disconnect toast', async () => {
    startSignedIn();
    const state = serveRegistry({
      connections: [
        connection({ connection_id: 'c1', server_id: GITHUB.id, server_name: 'GitHub', endpoint_url: 'http://127.0.0.1:18101/mcp', endpoint_host: '127.0.0.1:18101' }),
        connection({ connection_id: 'c2', server_id: GITHUB.id, server_name: 'GitHub', endpoint_url: GITHUB.endpoint_url }),
      ],
    });
    api.route('DELETE /api/v1/mcp-connections/c1', () => {
      state.connections = state.connections.filter((c) => c.connection_id !== 'c1');
      return new Response(null, { status: 204 });
    });
    renderApp('/registry');
    const mine = await screen.findByTestId('my-connections');
    await waitFor(() => expect(within(mine).getAllByTestId('connection')).toHaveLength(2));
    const [overridden, own] = within(mine).getAllByTestId('connection');
    expect(within(overridden).getByRole('button', { name: 'Disconnect' })).toHaveAccessibleDescription('GitHub · 127.0.0.1:18101');
    expect(within(own).getByRole('button', { name: 'Disconnect' })).toHaveAccessibleDescription('GitHub');

    await userEvent.click(within(overridden).getByRole('button', { name: 'Disconnect' }));
    expect(await within(toasts()).findByText('Disconnected from GitHub · 127.0.0.1:18101')).toBeInTheDocument();
  });

  it('shows an error with Retry when the list fails', async () => {
    startSignedIn();
    const state = serveRegistry();
    let fail = true;
    api.route('GET /api/v1/mcp-connections/', () => (fail ? jsonResponse(500, { detail: 'Internal error.' }) : jsonResponse(200, state.connections)));
    renderApp('/registry');
    const mine = await screen.findByTestId('my-connections');
    expect(await within(mine).findByText('Internal error.')).toBeInTheDocument();
    fail = false;
    await userEvent.click(within(mine).getByRole('button', { name: 'Retry' }));
    expect(await within(mine).findByTestId('connections-empty')).toBeInTheDocument();
  });
});

describe('RegistryPage: sign-in with a server’s OAuth', () => {
  const AUTH_URL = 'https://auth.notion.example/authorize?client_id=abc&state=s&code_challenge=c';

  it('the card and the dialog say Sign in with {server}; the dialog names the sign-in host and scopes, then leaves for the page', async () => {
    startSignedIn();
    serveRegistry();
    api.route('POST /api/v1/mcp-oauth/start', () => jsonResponse(200, { authorization_url: AUTH_URL, scopes: ['mcp:tools', 'read'] }));
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    renderApp('/registry');
    const notion = await findCard('com.notion--mcp');
    expect(within(notion).queryByRole('button', { name: 'Connect' })).not.toBeInTheDocument();
    await userEvent.click(within(notion).getByRole('button', { name: 'Sign in with Notion' }));

    const dialog = await screen.findByRole('dialog', { name: 'Connect to Notion' });
    expect(within(dialog).queryByLabelText(/API Key/)).not.toBeInTheDocument();
    const explain = within(dialog).getByTestId('sign-in-explain');
    expect(explain).toHaveTextContent('You will be sent to Notion’s own sign-in page');
    expect(await within(dialog).findByTestId('sign-in-scopes')).toHaveTextContent('mcp:tools');
    expect(explain).toHaveTextContent('auth.notion.example');
    expect(api.callsTo('POST', '/api/v1/mcp-oauth/start')).toHaveLength(1);
    expect(api.callsTo('POST', '/api/v1/mcp-oauth/start')[0].body).toEqual({ server_id: 'com.notion--mcp' });

    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign in with Notion' }));
    expect(assign).toHaveBeenCalledWith(AUTH_URL);
    // The prepared sign-in is used: no second start.
    expect(api.callsTo('POST', '/api/v1/mcp-oauth/start')).toHaveLength(1);
    assign.mockRestore();
  });

  it('an endpoint typed in the dialog is prepared on click, with that endpoint', async () => {
    startSignedIn();
    serveRegistry();
    api.route('POST /api/v1/mcp-oauth/start', () => jsonResponse(200, { authorization_url: AUTH_URL, scopes: [] }));
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    renderApp('/registry');
    await userEvent.click(within(await findCard('com.notion--mcp')).getByRole('button', { name: 'Sign in with Notion' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect to Notion' });
    expect(await within(dialog).findByTestId('sign-in-scopes')).toHaveTextContent('Notion names no scopes');
    await userEvent.type(within(dialog).getByLabelText('Endpoint URL'), 'https://eu.notion.example/mcp');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign in with Notion' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(AUTH_URL));
    expect(api.callsTo('POST', '/api/v1/mcp-oauth/start').map((c) => c.body)).toEqual([
      { server_id: 'com.notion--mcp' },
      { server_id: 'com.notion--mcp', endpoint_url: 'https://eu.notion.example/mcp' },
    ]);
    assign.mockRestore();
  });

  it('a server that cannot be signed in to says why, in the dialog and the SPEC toast, with Try again', async () => {
    startSignedIn();
    serveRegistry();
    let answers = 0;
    api.route('POST /api/v1/mcp-oauth/start', () =>
      ++answers === 1
        ? jsonResponse(502, { detail: 'Notion does not let new apps register; ask its owner for a client id', code: 'upstream' })
        : jsonResponse(200, { authorization_url: AUTH_URL, scopes: ['mcp'] }),
    );
    renderApp('/registry');
    await userEvent.click(within(await findCard('com.notion--mcp')).getByRole('button', { name: 'Sign in with Notion' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect to Notion' });
    expect(await within(dialog).findByTestId('connect-failure')).toHaveTextContent('does not let new apps register');
    expect(within(toasts()).getByText('Failed to connect to Notion: Notion does not let new apps register; ask its owner for a client id')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Sign in with Notion' })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByTestId('sign-in-scopes')).toHaveTextContent('mcp');
    expect(within(dialog).getByRole('button', { name: 'Sign in with Notion' })).toBeEnabled();
  });

  it('back from the sign-in page connected: the SPEC toast, My connections refreshed, the parameters dropped', async () => {
    startSignedIn();
    const state = serveRegistry();
    state.connections = [connection({ connection_id: 'oauth-1', server_id: NOTION.id, server_name: 'Notion', oauth: true, tools_count: 4 })];
    renderApp('/registry?connected=com.notion--mcp');
    expect(await within(toasts()).findByText('Successfully connected to Notion!')).toBeInTheDocument();
    const item = await within(await screen.findByTestId('my-connections')).findByTestId('connection');
    expect(item).toHaveTextContent('Signed in with OAuth');
    expect(item).toHaveTextContent('4 tools');
    expect(within(toasts()).getAllByText('Successfully connected to Notion!')).toHaveLength(1);
  });

  it('back from the sign-in page with an error: the SPEC failure toast with the reason the API keeps for this user', async () => {
    startSignedIn();
    serveRegistry();
    fakeSignInFailures(api, {
      [DETAIL_ID]: { code: 'token_refused', server_id: NOTION.id, detail: 'The authorization server refused the sign-in: invalid_grant.' },
    });
    renderApp(`/registry?oauth_error=token_refused&server=com.notion--mcp&detail_id=${DETAIL_ID}`);
    expect(await within(toasts()).findByText('Failed to connect to Notion: The authorization server refused the sign-in: invalid_grant.')).toBeInTheDocument();
    expect(api.callsTo('GET', `/api/v1/mcp-oauth/errors/${DETAIL_ID}`)[0].auth).toMatch(/^Bearer /);
    await waitFor(() => expect(window.location.search).toBe(''));
  });

  it('back with a code alone: the code’s own message', async () => {
    startSignedIn();
    serveRegistry();
    renderApp('/registry?oauth_error=access_denied&server=com.notion--mcp');
    expect(await within(toasts()).findByText('Failed to connect to Notion: You cancelled the sign-in.')).toBeInTheDocument();
  });

  it('a detail id the API does not give this user (another’s, expired): the code’s own message', async () => {
    startSignedIn();
    serveRegistry();
    renderApp(`/registry?oauth_error=handshake_failed&server=com.notion--mcp&detail_id=${DETAIL_ID}`);
    expect(await within(toasts()).findByText('Failed to connect to Notion: You signed in, but the server did not accept the connection.')).toBeInTheDocument();
  });

  it('a crafted address shows only the product’s words: no detail, no unknown code, no server that is not in the registry', async () => {
    startSignedIn();
    serveRegistry();
    const spoof = 'Your account is locked. Call 555-0100 at once';
    renderApp(`/registry?${new URLSearchParams({ oauth_error: spoof, server: `${spoof} (server)`, detail: `${spoof} (detail)` })}`);
    expect(await within(toasts()).findByText('Failed to connect to the server: The sign-in failed. Start again from the registry.')).toBeInTheDocument();
    // The parameters are dropped; nothing of them is left on the page.
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/registry$/));
    expect(document.body).not.toHaveTextContent('555-0100');
    expect(api.calls.filter((c) => c.path.startsWith('/api/v1/mcp-oauth/errors/'))).toHaveLength(0);
  });

  it('a server id that is not in the registry is not shown: failure', async () => {
    startSignedIn();
    serveRegistry();
    renderApp('/registry?oauth_error=access_denied&server=Evil+Corp+Support');
    expect(await within(toasts()).findByText('Failed to connect to the server: You cancelled the sign-in.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/registry$/));
    expect(document.body).not.toHaveTextContent('Evil Corp');
  });

  it('a server id that is not in the registry is not shown: success', async () => {
    startSignedIn();
    serveRegistry();
    renderApp('/registry?connected=Evil+Corp+Support');
    expect(await within(toasts()).findByText('Successfully connected to the server!')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/registry$/));
    expect(document.body).not.toHaveTextContent('Evil Corp');
  });

  it('a connection whose sign-in lapsed offers Sign in again, keeping its endpoint', async () => {
    startSignedIn();
    const state = serveRegistry();
    state.connections = [
      connection({ connection_id: 'oauth-1', server_id: NOTION.id, server_name: 'Notion', oauth: true, needs_sign_in: true, endpoint_url: 'https://eu.notion.example/mcp' }),
    ];
    api.route('POST /api/v1/mcp-oauth/start', () => jsonResponse(200, { authorization_url: AUTH_URL, scopes: ['mcp'] }));
    renderApp('/registry');
    const item = await within(await screen.findByTestId('my-connections')).findByTestId('connection');
    expect(within(item).getByTestId('needs-sign-in')).toHaveTextContent('The server no longer accepts this sign-in.');
    await userEvent.click(within(item).getByRole('button', { name: 'Sign in again' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect to Notion' });
    expect(within(dialog).getByLabelText('Endpoint URL')).toHaveValue('https://eu.notion.example/mcp');
    await within(dialog).findByTestId('sign-in-scopes');
    expect(api.callsTo('POST', '/api/v1/mcp-oauth/start')[0].body).toEqual({ server_id: 'com.notion--mcp', endpoint_url: 'https://eu.notion.example/mcp' });
  });
});
