// Browser test of a sign-in a tool asks for in the middle of a reply, against
// the devserver, its local demo model and the sign-in-on-call example that
// `make run` starts (`local-signin-on-call`): connected with no key, its
// get-public-note runs at once, while get-private-note is answered 401 until
// the user signs in. The reply pauses with the sign-in card in the tool block;
// Sign in goes to the example's authorization page (it approves at once) and
// comes back to the chat, where the same reply goes on by itself and the call
// runs: the connection is now a signed-in one (the same one, not a second).
// On a 390 px phone the card fits without horizontal scroll.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { completed, noHorizontalScroll, send } from './chat-page.mjs';
import { connectByApi, signIn } from './local-everything.mjs';
import { startStack } from './stack.mjs';

const SERVER_ID = 'local-signin-on-call';
const SERVER_NAME = 'Sign-in on call example (local)';
const TOOL = 'get-private-note';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.stop();
});

describe('a tool that asks for sign-in mid-reply', () => {
  test('the card, Sign in at the server, back on the chat the same reply runs the call; one connection, signed in', async () => {
    const page = await stack.newPage({ viewport: { width: 390, height: 844 } });
    const auth = await signIn(page, 'signinoncall');
    const conn = await connectByApi(stack, page, auth, SERVER_ID);
    assert.equal(conn.oauth ?? false, false, 'connected with no sign-in');

    await page.goto('/llm-chat');
    await page.locator('[data-testid="tools-button"][data-count="1"]').waitFor();
    const reply = await send(stack, page, `use ${TOOL}`);
    const card = reply.locator('[data-testid="tool-signin"][data-state="pending"]');
    try {
      await card.waitFor({ timeout: 60_000 });
    } catch (err) {
      throw new Error(`${err.message}\n--- the reply ---\n${await reply.innerText()}\n--- devserver output ---\n${stack.logs().slice(-3000)}`);
    }
    await card.getByText(`${SERVER_NAME} needs you to sign in`, { exact: true }).waitFor();
    await card.getByText(`${SERVER_NAME} needs you to sign in before ${TOOL} can run.`).waitFor();
    assert.equal(await reply.getAttribute('data-complete'), 'false', 'the reply waits');
    await noHorizontalScroll(page, 'with the sign-in card');

    // Off to the example's authorization server (another origin), which
    // approves at once and sends the browser back through our callback.
    const visited = [];
    page.on('request', (req) => {
      if (req.isNavigationRequest() && req.frame() === page.mainFrame()) visited.push(req.url());
    });
    await card.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/llm-chat' && visited.some((v) => new URL(v).pathname === '/authorize'), { timeout: 60_000 });

    const done = await completed(page);
    const result = done.locator(`[data-testid="tool-call"][data-tool="${TOOL}"]`);
    await result.getByText('Your private note (signed in as client', { exact: false }).waitFor({ timeout: 60_000 });
    assert.equal(await done.locator('[data-testid="tool-signin"][data-state="pending"]').count(), 0, 'no card waits any more');
    assert.match(await done.innerText(), /Local demo model/, 'the model answered after the call');

    const rows = await (await page.request.get('/api/v1/mcp-connections/', { headers: auth })).json();
    assert.equal(rows.length, 1, `one connection: ${JSON.stringify(rows.map((r) => r.connection_id))}`);
    assert.equal(rows[0].connection_id, conn.connection_id, 'the same connection');
    assert.equal(rows[0].oauth, true, 'now signed in');
    await page.context().close();
  });
});
