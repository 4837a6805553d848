import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { setUpPageTests } from '../../../test/page-tests';
import { renderApp } from '../../../test/render-app';
import { ADA, startSignedIn } from '../../../test/session';
import { fakeAdminApi, server, type AdminSeed } from '../test-fixtures';

const api = setUpPageTests();

beforeAll(async () => {
  await import('../components/admin-page');
}, 60_000);

const EVERYTHING = server({
  id: 'everything',
  name: 'Everything',
  registry_name: 'local/everything',
  endpoint_url: 'https://everything.example.com/mcp',
  model_type: 'reference',
  features: ['tools', 'prompts'],
  health: { status: 'up', checked_at: '2026-03-07T10:00:00Z', latency_ms: 12, tools_count: 13, error: '' },
});
const NOTION = server({
  id: 'notion',
  name: 'Notion',
  auth: 'oauth',
  source: 'admin',
  enabled: false,
  health: { status: 'down', checked_at: '2026-03-07T09:00:00Z', latency_ms: 0, tools_count: 0, error: 'connection refused' },
});

function open(seed: AdminSeed = { servers: [EVERYTHING, NOTION], probes: { everything: [{ status: 'up', checked_at: '2026-03-06T08:00:00Z', latency_ms: 20, tools_count: 13, error: '' }] } }) {
  startSignedIn({ ...ADA, is_admin: true });
  const state = fakeAdminApi(api, seed);
  renderApp('/admin/mcp-servers');
  return state;
}

const row = (id: string) => {
  const el = document.querySelector<HTMLElement>(`[data-testid="server-row"][data-server-id="${id}"]`);
  if (!el) throw new Error(`no row ${id}`);
  return el;
};
const findRow = async (id: string) => {
  await waitFor(() => row(id));
  return row(id);
};
const rowIds = () => screen.queryAllByTestId('server-row').map((r) => r.getAttribute('data-server-id'));

describe('MCP servers: the table', () => {
  it('shows each server with its health and whether it is enabled', async () => {
    open();
    const e = await findRow('everything');
    const cells = within(e).getAllByRole('cell');
    expect(cells[0]).toHaveTextContent('EverythingFrom the registry · local/everything');
    expect(cells[1]).toHaveTextContent('https://everything.example.com/mcp');
    expect(cells[2]).toHaveTextContent('reference');
    expect(cells[3]).toHaveTextContent('None');
    expect(within(e).getByTestId('server-health')).toHaveTextContent('UpMar 7, 2026, 10:00 AM UTC · 12 ms · 13 tools');
    expect(within(e).getByTestId('server-enabled')).toHaveTextContent('Enabled');
    const n = row('notion');
    expect(within(n).getAllByRole('cell')[0]).toHaveTextContent('Added by an admin');
    expect(within(n).getAllByRole('cell')[3]).toHaveTextContent('OAuth');
    expect(within(n).getByTestId('server-health')).toHaveTextContent('Down');
    expect(within(n).getByTestId('server-health')).toHaveTextContent('connection refused');
    expect(within(n).getByTestId('server-enabled')).toHaveTextContent('Disabled');
  });

  it('filters by text and by state', async () => {
    open();
    await findRow('everything');
    const filters = screen.getByRole('search', { name: 'Filter MCP servers' });
    await userEvent.selectOptions(within(filters).getByLabelText('State'), 'Disabled');
    await waitFor(() => expect(rowIds()).toEqual(['notion']));
    expect(api.callsTo('GET', '/api/v1/admin/mcp-servers').at(-1)!.search).toBe('?state=disabled&limit=25');
    await userEvent.selectOptions(within(filters).getByLabelText('State'), 'All');
    await userEvent.type(within(filters).getByLabelText('Search servers'), 'every');
    await waitFor(() => expect(rowIds()).toEqual(['everything']));
    expect(api.callsTo('GET', '/api/v1/admin/mcp-servers').at(-1)!.search).toBe('?q=every&state=all&limit=25');
  });
});

describe('MCP servers: add and edit', () => {
  it('checks the fields as the API does, takes features as a list, and posts the contract fields', async () => {
    const state = open();
    await findRow('everything');
    await userEvent.click(screen.getByRole('button', { name: 'Add server' }));
    const dialog = screen.getByRole('dialog', { name: 'Add an MCP server' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add server' }));
    expect(within(dialog).getByText('Name is required.')).toBeInTheDocument();
    expect(within(dialog).getByText('Endpoint URL is required.')).toBeInTheDocument();
    expect(within(dialog).getByText('Model type is required.')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Model type'), 'Productivity');
    expect(within(dialog).getByText('One short lower-case word: letters, digits and -, starting with a letter (code, search…).')).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText('Model type'));
    await userEvent.type(within(dialog).getByLabelText('Name'), 'n'.repeat(101));
    expect(within(dialog).getByText('Name must be at most 100 characters (now 101).')).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText('Name'));
    await userEvent.type(within(dialog).getByLabelText('Endpoint URL'), 'ftp://files.example.com');
    expect(within(dialog).getByText('Enter a full http:// or https:// address.')).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText('Endpoint URL'));
    await userEvent.type(within(dialog).getByLabelText('Endpoint URL'), 'https://mcp.linear.app/sse');
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Linear');
    await userEvent.type(within(dialog).getByLabelText('Description'), 'Issues');
    await userEvent.type(within(dialog).getByLabelText('Model type'), 'productivity');
    await userEvent.selectOptions(within(dialog).getByLabelText('Authentication'), 'API key');

    // Features: Enter adds (it does not submit the form), Remove takes one out; at most 40 characters each.
    await userEvent.type(within(dialog).getByLabelText('Add a feature'), `${'f'.repeat(41)}{Enter}`);
    expect(within(dialog).getByText('A feature must be at most 40 characters.')).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText('Add a feature'));
    await userEvent.type(within(dialog).getByLabelText('Add a feature'), 'tools{Enter}');
    await userEvent.type(within(dialog).getByLabelText('Add a feature'), 'resources');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await userEvent.type(within(dialog).getByLabelText('Add a feature'), 'prompts{Enter}');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove resources' }));
    expect(within(within(dialog).getByRole('list', { name: 'Features' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['tools×', 'prompts×']);
    expect(api.callsTo('POST', '/api/v1/admin/mcp-servers')).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Add server' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST', '/api/v1/admin/mcp-servers')[0].body).toEqual({
      name: 'Linear',
      description: 'Issues',
      endpoint_url: 'https://mcp.linear.app/sse',
      model_type: 'productivity',
      auth: 'api_key',
      features: ['tools', 'prompts'],
    });
    expect(screen.getByTestId('toasts')).toHaveTextContent('Added “Linear”.');
    await waitFor(() => expect(rowIds()).toEqual([state.servers[0].id, 'everything', 'notion']));
    expect(screen.queryByTestId('server-warning')).toBeNull();
  });

  it("shows the API's warning when it saved the server disabled", async () => {
    open();
    await findRow('everything');
    await userEvent.click(screen.getByRole('button', { name: 'Add server' }));
    const dialog = screen.getByRole('dialog', { name: 'Add an MCP server' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Local');
    await userEvent.type(within(dialog).getByLabelText('Endpoint URL'), 'http://localhost:3001/mcp');
    await userEvent.type(within(dialog).getByLabelText('Model type'), 'reference');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add server' }));
    const warning = await screen.findByTestId('server-warning');
    expect(warning).toHaveTextContent('“Local” was saved, disabled');
    expect(warning).toHaveTextContent('Saved, but disabled: the outbound rules refuse this endpoint. It is a private address.');
    const added = screen.getAllByTestId('server-row')[0];
    expect(within(added).getByTestId('server-enabled')).toHaveTextContent('Disabled');
  });

  it('edits with the version read; a 409 shows the current server and loads it', async () => {
    const state = open();
    await userEvent.click(within(await findRow('everything')).getByRole('button', { name: 'Edit Everything' }));
    Object.assign(state.servers[0], { name: 'Everything v2', features: ['tools'], version: 4 });
    const dialog = screen.getByRole('dialog', { name: 'Edit “Everything”' });
    expect(within(dialog).getByLabelText('Endpoint URL')).toHaveValue('https://everything.example.com/mcp');
    await userEvent.clear(within(dialog).getByLabelText('Model type'));
    await userEvent.type(within(dialog).getByLabelText('Model type'), 'demo');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    const conflict = await within(dialog).findByTestId('conflict');
    expect(within(conflict).getByTestId('conflict-current')).toHaveTextContent('NameEverything v2');
    await userEvent.click(within(conflict).getByRole('button', { name: 'Load the current values' }));
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Everything v2');
    await userEvent.clear(within(dialog).getByLabelText('Model type'));
    await userEvent.type(within(dialog).getByLabelText('Model type'), 'demo');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('PATCH', '/api/v1/admin/mcp-servers/everything').map((c) => c.body)).toEqual([
      { version: 1, model_type: 'demo' },
      { version: 4, model_type: 'demo' },
    ]);
  });
});

describe('MCP servers: actions', () => {
  it('disables and enables with the version read', async () => {
    open();
    await userEvent.click(within(await findRow('everything')).getByRole('button', { name: 'Disable Everything' }));
    await waitFor(() => expect(within(row('everything')).getByTestId('server-enabled')).toHaveTextContent('Disabled'));
    expect(api.callsTo('PATCH', '/api/v1/admin/mcp-servers/everything')[0].body).toEqual({ version: 1, enabled: false });
    await userEvent.click(within(row('everything')).getByRole('button', { name: 'Enable Everything' }));
    await waitFor(() => expect(within(row('everything')).getByTestId('server-enabled')).toHaveTextContent('Enabled'));
    expect(api.callsTo('PATCH', '/api/v1/admin/mcp-servers/everything')[1].body).toEqual({ version: 2, enabled: true });
  });

  it('Probe now shows the health the probe found', async () => {
    const state = open();
    state.probeResult = { status: 'auth_required', checked_at: '2026-03-08T09:00:00Z', latency_ms: 42, tools_count: 0, error: 'The server asks for credentials.' };
    await userEvent.click(within(await findRow('notion')).getByRole('button', { name: 'Probe Notion now' }));
    await waitFor(() => expect(within(row('notion')).getByTestId('server-health')).toHaveAttribute('data-status', 'auth_required'));
    expect(within(row('notion')).getByTestId('server-health')).toHaveTextContent('Needs sign-inMar 8, 2026, 9:00 AM UTC · 42 ms · 0 tools');
    expect(screen.getByTestId('toasts')).toHaveTextContent('Probe of “Notion”: Needs sign-in, 42 ms · 0 tools (The server asks for credentials.).');
    expect(api.callsTo('POST', '/api/v1/admin/mcp-servers/notion/probe')).toHaveLength(1);
  });

  it('shows the probe history in a dialog that Escape closes', async () => {
    open();
    await userEvent.click(within(await findRow('everything')).getByRole('button', { name: 'Probe history of Everything' }));
    const dialog = screen.getByRole('dialog', { name: 'Probe history: Everything' });
    const rows = await within(dialog).findAllByTestId('probe-row');
    expect(rows.map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([['Mar 6, 2026, 8:00 AM UTC', 'Up', '20 ms', '13', '—']]);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();

    await userEvent.click(within(row('notion')).getByRole('button', { name: 'Probe history of Notion' }));
    expect(await within(screen.getByRole('dialog', { name: 'Probe history: Notion' })).findByTestId('empty-state')).toHaveTextContent('No probe has run on this server yet.');
  });

  it('Sync from registry now says what it wrote, deactivated and skipped', async () => {
    const state = open();
    await findRow('everything');
    await userEvent.click(screen.getByRole('button', { name: 'Sync from registry now' }));
    const result = screen.getByTestId('sync-result');
    await waitFor(() => expect(result).toHaveTextContent('7 servers written, 1 deactivated, 2 skipped (3 registry pages).'));
    expect(api.callsTo('POST', '/api/v1/admin/mcp-sync')).toHaveLength(1);

    state.sync = { upserted: 1, deactivated: 0, skipped: 0, pages: 0, registry: false };
    await userEvent.click(screen.getByRole('button', { name: 'Sync from registry now' }));
    await waitFor(() => expect(result).toHaveTextContent('1 server written, 0 deactivated, 0 skipped. No registry is set up (MCP_REGISTRY_URL)'));
  });

  it("shows the API's detail when the registry sync fails", async () => {
    open();
    await findRow('everything');
    api.route('POST /api/v1/admin/mcp-sync', () => jsonResponse(502, { detail: 'The registry sync failed: registry answered 500', code: 'upstream' }));
    await userEvent.click(screen.getByRole('button', { name: 'Sync from registry now' }));
    await waitFor(() => expect(screen.getByTestId('toasts')).toHaveTextContent('The registry sync failed: registry answered 500'));
    expect(screen.getByTestId('sync-result')).toBeEmptyDOMElement();
  });

  it("enabling an endpoint the outbound rules refuse keeps it disabled, with the API's warning", async () => {
    open({ servers: [server({ id: 'lan', name: 'LAN box', endpoint_url: 'http://10.0.0.5/mcp', enabled: false })] });
    await userEvent.click(within(await findRow('lan')).getByRole('button', { name: 'Enable LAN box' }));
    await waitFor(() => expect(screen.getByTestId('toasts')).toHaveTextContent('The outbound rules refuse this endpoint: it is a private address.'));
    expect(screen.getByTestId('toasts')).not.toHaveTextContent('Enabled “LAN box”.');
    expect(within(row('lan')).getByTestId('server-enabled')).toHaveTextContent('Disabled');
  });
});
