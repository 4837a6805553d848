// Browser tests of the MCP registry against the devserver and the local
// reference server (@modelcontextprotocol/server-everything, listed as
// `local-everything`): filter, the details with tools before connecting, a
// real Connect with its tools, the dashboard count, Disconnect; a server
// that needs a key keeps Connect disabled until one is typed; a visitor is
// told to log in; the page fits a 390 px wide phone.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newUser, signInAs, startStack } from './stack.mjs';

const LOCAL_ID = 'local-everything';
const LOCAL_NAME = 'Everything (local reference server)';
const OAUTH_ID = 'local-oauth-example';
const OAUTH_NAME = 'OAuth example (local)';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.stop();
});

const card = (page, id) => page.locator(`[data-testid="server-card"][data-server-id="${id}"]`);
const toast = (page, text) => page.getByTestId('toasts').getByText(text, { exact: true });

async function catalogue(page) {
  // The whole list: a page of 60 holds the seed's servers.
  const res = await page.request.get('/api/v1/mcp-servers/?limit=60');
  assert.equal(res.status(), 200);
  return (await res.json()).items;
}

/** The reference server's entry once the prober has seen its tools. */
async function probedLocalServer(page) {
  return stack.until(`the prober to list the tools of ${LOCAL_ID}`, async () => {
    const res = await page.request.get(`/api/v1/mcp-servers/${LOCAL_ID}`);
    if (res.status() === 404) return null;
    assert.equal(res.status(), 200);
    const s = await res.json();
    return s.health?.status === 'up' && Array.isArray(s.tools) && s.tools.length > 0 ? s : null;
  });
}

function trackConnectPosts(page) {
  const posts = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/v1/mcp-connections/') posts.push(req);
  });
  return posts;
}

describe('registry', () => {
  test('filter, details with tools, connect to the reference server, dashboard count, disconnect', async () => {
    const page = await stack.newPage();
    const session = await signInAs(page, newUser('mcp'));
    const auth = { Authorization: `Bearer ${session.access_token}` };
    const local = await probedLocalServer(page);
    assert.equal(local.name, LOCAL_NAME);
    assert.equal(local.api_key_required, false);
    const servers = await catalogue(page);

    await page.goto('/registry');
    await page.getByRole('heading', { level: 1, name: 'MCP Server Registry' }).waitFor();
    await page.getByTestId('server-count').getByText(`${servers.length} servers found`).waitFor();
    await page.getByTestId('my-connections').getByTestId('connections-empty').waitFor();

    // Filter: only the reference type.
    const references = servers.filter((s) => s.model_type === 'reference').length;
    await page.getByLabel('Model type').selectOption('reference');
    await page.getByTestId('server-count').getByText(`${references} servers found`).waitFor();
    await page.waitForFunction(
      (n) => {
        const cards = [...document.querySelectorAll('[data-testid="server-card"]')];
        return cards.length === n && cards.every((c) => c.querySelector('[data-model-type="reference"]'));
      },
      references,
    );
    const localCard = card(page, LOCAL_ID);
    await localCard.getByTestId('server-status').getByText('Active').waitFor();

    // Details: server info and the tools with their hints, before connecting.
    await localCard.getByRole('button', { name: 'Details' }).click();
    const details = page.getByRole('dialog', { name: LOCAL_NAME, exact: true });
    await details.getByTestId('server-info').waitFor();
    await details.getByRole('heading', { name: `Tools (${local.tools.length})` }).waitFor();
    assert.equal(await details.getByTestId('tool').count(), local.tools.length);
    await details.locator('[data-testid="tool"][data-tool-name="echo"]').waitFor();
    assert.equal(await details.getByText('Read-only', { exact: true }).count(), local.tools.filter((t) => t.read_only).length);
    assert.equal(await details.getByText('Destructive', { exact: true }).count(), local.tools.filter((t) => t.destructive).length);
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });

    // Connect: a real handshake with the reference server.
    const posts = trackConnectPosts(page);
    await localCard.getByRole('button', { name: 'Connect', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Connect to ${LOCAL_NAME}`, exact: true });
    await dialog.getByText('Leave empty to use default endpoint').waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'Connect', exact: true }).isEnabled(), true);
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    await toast(page, `Successfully connected to ${LOCAL_NAME}!`).waitFor({ timeout: 30_000 });
    const success = dialog.getByTestId('connect-success');
    await success.locator('[data-testid="tool"][data-tool-name="echo"]').waitFor();
    assert.ok((await success.getByTestId('tool').count()) >= 1, 'the dialog shows the tools the server reported');
    assert.equal(posts.length, 1);
    assert.deepEqual(posts[0].postDataJSON(), {
      server_id: LOCAL_ID,
      server_name: LOCAL_NAME,
      endpoint_url: local.endpoint_url,
      model_type: 'reference',
    });
    // SPEC §3: the local copy in browser storage, kept per user (mcp-connections:<uid>).
    const copiesKey = `mcp-connections:${session.user.id}`;
    const copies = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '[]'), copiesKey);
    assert.equal(copies.length, 1);
    assert.equal(copies[0].status, 'connected');
    assert.equal(copies[0].server_id, LOCAL_ID);
    assert.ok(copies[0].connection_id && copies[0].connected_at);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    const item = page.getByTestId('my-connections').locator(`[data-testid="connection"][data-connection-id="${copies[0].connection_id}"]`);
    await item.getByText(LOCAL_NAME).waitFor();
    await localCard.getByTestId('connected-badge').waitFor();

    // The dashboard counts it.
    await page.goto('/dashboard');
    await page.getByRole('link', { name: 'Active Connections: 1' }).waitFor();

    // Back to the registry: Disconnect.
    await page.goto('/registry');
    await item.getByRole('button', { name: 'Disconnect' }).click();
    await toast(page, `Disconnected from ${LOCAL_NAME}`).waitFor();
    await page.getByTestId('my-connections').getByTestId('connections-empty').waitFor();
    assert.deepEqual(await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '[]'), copiesKey), []);
    const left = await page.request.get('/api/v1/mcp-connections/', { headers: auth });
    assert.equal(left.status(), 200);
    assert.deepEqual(await left.json(), []);
    await page.context().close();
  });

  test('sign in with the OAuth example: its authorization page, back connected with tools, dashboard count, disconnect', async () => {
    const page = await stack.newPage();
    const session = await signInAs(page, newUser('mcpoauth'));
    const auth = { Authorization: `Bearer ${session.access_token}` };
    const entry = (await catalogue(page)).find((s) => s.id === OAUTH_ID);
    assert.ok(entry, 'make run lists the OAuth example');
    assert.equal(entry.oauth_required, true);
    const asOrigin = new URL(entry.endpoint_url).origin; // the MCP server; its authorization server is on another port

    await page.goto('/registry');
    const c = card(page, OAUTH_ID);
    await c.getByRole('button', { name: `Sign in with ${OAUTH_NAME}`, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Connect to ${OAUTH_NAME}`, exact: true });
    await dialog.getByText(`You will be sent to ${OAUTH_NAME}’s own sign-in page`).waitFor();
    assert.equal(await dialog.getByRole('textbox', { name: 'API Key' }).count(), 0, 'no key field');
    // The scopes the server asks for (its 401 challenge names mcp:tools).
    await dialog.getByTestId('sign-in-scopes').getByText('mcp:tools').waitFor({ timeout: 30_000 });

    // Leave for the server's authorization page; it approves at once and
    // sends the browser back through our callback to the registry.
    const visited = [];
    page.on('request', (req) => {
      if (req.isNavigationRequest() && req.frame() === page.mainFrame()) visited.push(req.url());
    });
    await dialog.getByRole('button', { name: `Sign in with ${OAUTH_NAME}`, exact: true }).click();
    await toast(page, `Successfully connected to ${OAUTH_NAME}!`).waitFor({ timeout: 30_000 });
    assert.ok(
      visited.some((u) => new URL(u).pathname === '/authorize' && new URL(u).origin !== asOrigin),
      `the browser went through the authorization server's page: ${visited.join(' → ')}`,
    );
    assert.equal(new URL(page.url()).search, '', 'the return parameters are dropped');

    const item = page.getByTestId('my-connections').locator(`[data-testid="connection"][data-server-id="${OAUTH_ID}"]`);
    await item.getByText('Signed in with OAuth').waitFor();
    const rows = await (await page.request.get('/api/v1/mcp-connections/', { headers: auth })).json();
    assert.equal(rows.length, 1);
    assert.equal(rows[0].oauth, true);
    assert.ok(rows[0].tools_count > 0, 'the handshake with the token listed its tools');
    assert.ok(!JSON.stringify(rows).includes('access_token'), 'no token in the answer');
    await item.getByText(`${rows[0].tools_count} tool`).first().waitFor();
    await c.getByTestId('connected-badge').waitFor();

    await page.goto('/dashboard');
    await page.getByRole('link', { name: 'Active Connections: 1' }).waitFor();

    await page.goto('/registry');
    await item.getByRole('button', { name: 'Disconnect' }).click();
    await toast(page, `Disconnected from ${OAUTH_NAME}`).waitFor();
    await page.getByTestId('my-connections').getByTestId('connections-empty').waitFor();
    await page.context().close();
  });

  test('a cancelled or forged sign-in comes back saying why', async () => {
    const page = await stack.newPage();
    await signInAs(page, newUser('mcpoauthbad'));
    await page.goto('/api/v1/mcp-oauth/callback?state=dXNlcg.abc&code=x');
    await toast(page, 'Failed to connect to the server: This sign-in was already used or never started here. Start again from the registry.').waitFor();
    await page.getByRole('heading', { level: 1, name: 'MCP Server Registry' }).waitFor();
    assert.equal(new URL(page.url()).search, '');
    await page.context().close();
  });

  test('a server that needs a key keeps Connect disabled until a key is typed', async () => {
    const page = await stack.newPage();
    await signInAs(page, newUser('mcpkey'));
    const keyed = (await catalogue(page)).find((s) => s.api_key_required && s.is_active);
    assert.ok(keyed, 'the seeded catalogue lists an active server that requires an API key');
    const posts = trackConnectPosts(page);

    await page.goto('/registry');
    const c = card(page, keyed.id);
    await c.getByRole('img', { name: 'API key required' }).waitFor();
    await c.getByRole('button', { name: 'Connect', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Connect to ${keyed.name}`, exact: true });
    const submit = dialog.getByRole('button', { name: 'Connect', exact: true });
    const key = dialog.getByRole('textbox', { name: 'API Key', exact: true });
    const required = dialog.getByText('API key is required for this server', { exact: true });
    await required.waitFor();
    assert.equal(await key.getAttribute('type'), 'password');
    assert.equal(await submit.isDisabled(), true);

    await key.fill('   ');
    await required.waitFor();
    assert.equal(await submit.isDisabled(), true);

    await key.fill('sk_test_e2e_not_a_real_key');
    await required.waitFor({ state: 'detached' });
    assert.equal(await submit.isEnabled(), true);

    // Not submitted: close without connecting.
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(posts.length, 0);
    await page.context().close();
  });

  test("a visitor's Connect says to log in", async () => {
    const page = await stack.newPage();
    const posts = trackConnectPosts(page);
    await page.goto('/registry');
    await page.getByTestId('registry-visitor-notice').waitFor();
    await card(page, LOCAL_ID).getByRole('button', { name: 'Connect', exact: true }).click();
    await toast(page, 'Please log in to connect to MCP servers').waitFor();
    assert.equal(await page.getByRole('dialog').count(), 0);
    assert.equal(posts.length, 0);
    await page.context().close();
  });

  test('fits a 390 px wide phone: one column, no horizontal scroll, full-width dialog', async () => {
    const page = await stack.newPage({ viewport: { width: 390, height: 844 } });
    await signInAs(page, newUser('mcpphone'));
    await page.goto('/registry');
    await page.getByTestId('server-count').waitFor();
    const widths = () => page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    let [scroll, client] = await widths();
    assert.ok(scroll <= client, `no horizontal scroll (scrollWidth ${scroll} > ${client})`);
    const columns = await page.evaluate(() => new Set([...document.querySelectorAll('[data-testid="server-card"]')].map((c) => c.getBoundingClientRect().left)).size);
    assert.equal(columns, 1);
    await card(page, LOCAL_ID).getByRole('button', { name: 'Connect', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Connect to ${LOCAL_NAME}`, exact: true });
    await dialog.waitFor();
    const box = await dialog.boundingBox();
    assert.ok(box && box.width >= 390 - 32 && box.x >= 0 && box.x + box.width <= 390, `dialog fits the screen: ${JSON.stringify(box)}`);
    [scroll, client] = await widths();
    assert.ok(scroll <= client, `no horizontal scroll with the dialog open (scrollWidth ${scroll} > ${client})`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.context().close();
  });
});
