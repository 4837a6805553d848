// Browser tests of MCP tools in the LLM chat against the
// devserver, its local demo model and the local reference server
// (@modelcontextprotocol/server-everything, `local-everything`): connect it
// on /registry, the Tools control lists it, "use get-sum with 2 and 3" shows
// a tool block with its arguments and result and the demo answer after it;
// a tool without readOnlyHint asks first: Deny, Approve, Always allow (then
// no card) and Revoke in Tools (the card comes back); a reload while a card
// waits keeps it working; a 390 px wide phone has no horizontal scroll, and
// axe finds nothing serious in the blocks and the card (light and dark).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { completed, lastReply, noHorizontalScroll, noSeriousViolations, send } from './chat-page.mjs';
import { LOCAL_ID, LOCAL_NAME, connectByApi, localServer, signIn, toolsOf } from './local-everything.mjs';
import { startStack } from './stack.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.stop();
});

/** Connects the reference server through the registry page, as a user does. */
async function connectOnRegistry(page) {
  await localServer(stack, page);
  await page.goto('/registry');
  const card = page.locator(`[data-testid="server-card"][data-server-id="${LOCAL_ID}"]`);
  await card.getByRole('button', { name: 'Connect', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Connect to ${LOCAL_NAME}`, exact: true });
  await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
  await page.getByTestId('toasts').getByText(`Successfully connected to ${LOCAL_NAME}!`, { exact: true }).waitFor({ timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Done' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/**
 * A tool of the reference server that asks first (no readOnlyHint) and needs
 * no arguments: the toggles are harmless and take none.
 */
function askingTool(server) {
  const asking = server.tools.filter((t) => !t.read_only);
  const noArgs = (t) => !(t.input_schema?.required?.length > 0);
  const pick =
    asking.find((t) => t.name === 'toggle-subscriber-updates') ??
    asking.find((t) => t.name === 'toggle-simulated-logging') ??
    asking.find(noArgs);
  assert.ok(pick, `the reference server lists a tool without readOnlyHint: ${JSON.stringify(server.tools.map((t) => [t.name, t.read_only]))}`);
  return pick;
}

/** Opens the chat once the Tools control counts the connected server. */
async function openChat(page) {
  await page.goto('/llm-chat');
  await page.getByRole('tab', { name: 'Chat 1' }).waitFor();
  await page.locator('[data-testid="tools-button"][data-count="1"]').waitFor();
}

const toolBlock = (reply, name) => reply.locator(`[data-testid="tool-call"][data-tool="${name}"]`);
const approvalCard = (page, name) => page.locator(`[data-testid="tool-approval"][data-tool="${name}"][data-state="waiting"]`);

describe('MCP tools in chat', () => {
  test('the Tools control lists the connected server; get-sum runs and the answer streams after it', async () => {
    const page = await stack.newPage();
    const auth = await signIn(page, 'tools');
    await connectOnRegistry(page);
    const [server] = (await toolsOf(page, auth)).servers;
    assert.equal(server.server_name, LOCAL_NAME);
    assert.ok(server.tools.some((t) => t.name === 'get-sum'), 'the reference server offers get-sum');

    await openChat(page);
    // The empty state names the tools the model may use.
    await page.getByTestId('chat-empty-tools').getByText(LOCAL_NAME, { exact: false }).waitFor();
    assert.match(await page.getByTestId('chat-empty-tools').innerText(), /^Tools: .+ from Everything \(local reference server\)$/);

    // The control: the server with its tool count and its switch, on; Escape closes it.
    await page.getByRole('button', { name: /^Tools/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Tools' });
    const item = dialog.getByTestId('tool-server');
    await item.getByText(LOCAL_NAME).waitFor();
    assert.equal(await item.getByTestId('tool-count').innerText(), `${server.tools.length} tools`);
    assert.equal(await item.getByRole('switch', { name: LOCAL_NAME }).isChecked(), true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    const posts = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/v1/mcp-connections/message') posts.push(req.postDataJSON());
    });
    const reply = await send(stack, page, 'use get-sum with 2 and 3');
    const block = toolBlock(reply, 'get-sum');
    await block.waitFor();
    await block.getByTestId('tool-state').getByText(/^Done in \d[\d,]* ms$/).waitFor({ timeout: 60_000 });
    await completed(page);
    assert.equal(await block.getByTestId('tool-name').innerText(), 'get-sum');
    assert.match(await block.getByTestId('tool-server').innerText(), /Everything \(local reference server\)/);
    const args = JSON.parse(await block.getByTestId('tool-arguments').innerText());
    assert.deepEqual(Object.values(args).sort(), [2, 3], `arguments ${JSON.stringify(args)}`);
    assert.match(await block.getByTestId('tool-result').innerText(), /\b5\b/);
    // The demo model's answer streams after the block, quoting the result.
    const text = await reply.innerText();
    const blockAt = text.indexOf('get-sum');
    const answerAt = text.indexOf('answering from the tool results');
    assert.ok(blockAt >= 0 && answerAt > blockAt, `the answer comes after the tool block:\n${text}`);
    assert.match(text.slice(answerAt), /\b5\b/);
    // The message offered the connected server's tools.
    assert.deepEqual(posts[0].mcp_connection_ids, [server.connection_id]);
    assert.equal(posts[0].confirm_read_only, false);
    await page.context().close();
  });

  test('a tool without readOnlyHint asks: Deny, Approve, Always allow, then Revoke brings the card back', async () => {
    const page = await stack.newPage();
    const auth = await signIn(page, 'approve');
    await connectByApi(stack, page, auth);
    const [server] = (await toolsOf(page, auth)).servers;
    const tool = askingTool(server);
    await openChat(page);

    // Deny: the block says Denied; the model answers without it.
    let reply = await send(stack, page, `use ${tool.name}`);
    let card = approvalCard(page, tool.name);
    await card.waitFor();
    assert.equal(await reply.getAttribute('data-complete'), 'false');
    assert.equal(await card.getByTestId('tool-state').innerText(), 'Waiting for approval');
    assert.equal(await card.getByTestId('destructive-mark').count(), tool.destructive ? 1 : 0);
    if (tool.description) await card.getByTestId('tool-description').getByText(tool.description, { exact: true }).waitFor();
    await page.getByTestId('input-blocked').getByText('Answer the tool approval first').waitFor();
    await card.getByRole('button', { name: 'Deny' }).click();
    await completed(page);
    await toolBlock(reply, tool.name).getByTestId('tool-state').getByText('Denied', { exact: true }).waitFor();
    assert.match(await reply.innerText(), /did not give a result/);
    assert.equal(await page.getByTestId('input-blocked').count(), 0);

    // Approve: it runs and the same reply goes on.
    reply = await send(stack, page, `use ${tool.name}`);
    card = approvalCard(page, tool.name);
    await card.getByRole('button', { name: 'Approve' }).click();
    await completed(page);
    await toolBlock(reply, tool.name).getByTestId('tool-state').getByText(/^Done in/).waitFor();
    assert.match(await reply.innerText(), /answering from the tool results/);

    // Always allow: it runs now, and next time without asking.
    reply = await send(stack, page, `use ${tool.name}`);
    card = approvalCard(page, tool.name);
    await card.getByRole('button', { name: 'Always allow this tool' }).click();
    await completed(page);
    await toolBlock(reply, tool.name).getByTestId('tool-state').getByText(/^Done in/).waitFor();
    const allowed = (await toolsOf(page, auth)).always_allowed;
    assert.deepEqual(allowed.map((a) => [a.server_id, a.tool]), [[server.server_id, tool.name]]);

    reply = await send(stack, page, `use ${tool.name}`);
    await completed(page);
    await toolBlock(reply, tool.name).getByTestId('tool-state').getByText(/^Done in/).waitFor();
    assert.equal(await reply.getByTestId('tool-approval').count(), 0, 'an always-allowed tool runs without a card');

    // Revoke in Tools: the card comes back.
    await page.getByRole('button', { name: /^Tools/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Tools' });
    const item = dialog.locator(`[data-testid="always-allowed"][data-tool="${tool.name}"]`);
    await item.getByRole('button', { name: `Revoke ${tool.name} on ${LOCAL_NAME}` }).click();
    await dialog.getByTestId('always-empty').waitFor();
    assert.deepEqual((await toolsOf(page, auth)).always_allowed, []);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    reply = await send(stack, page, `use ${tool.name}`);
    card = approvalCard(page, tool.name);
    await card.waitFor();
    await card.getByRole('button', { name: 'Deny' }).click();
    await completed(page);
    await page.context().close();
  });

  test('on a 390 px phone: a reload while a card waits keeps it, and Approve works; no horizontal scroll', async () => {
    // bypassCSP: axe is injected as an inline script, which the app's CSP (rightly) refuses.
    const page = await stack.newPage({ viewport: { width: 390, height: 844 }, reducedMotion: 'reduce', bypassCSP: true });
    const auth = await signIn(page, 'reload');
    await connectByApi(stack, page, auth);
    const [server] = (await toolsOf(page, auth)).servers;
    const tool = askingTool(server);
    await openChat(page);
    await noHorizontalScroll(page, 'on the empty chat');

    // A finished tool block and a waiting card in the conversation.
    await send(stack, page, 'use get-sum with 2 and 3');
    await completed(page);
    let reply = await send(stack, page, `use ${tool.name}`);
    await approvalCard(page, tool.name).waitFor();
    await noHorizontalScroll(page, 'with a tool block and an approval card');
    await noSeriousViolations(page, 'with a tool block and an approval card (light theme)');

    // The reload also switches to the dark theme, checked by axe too.
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload();
    const card = approvalCard(page, tool.name);
    await card.waitFor();
    reply = lastReply(page);
    assert.equal(await reply.getAttribute('data-complete'), 'false');
    await page.getByTestId('input-blocked').getByText('Answer the tool approval first').waitFor();
    await noHorizontalScroll(page, 'after the reload');
    await noSeriousViolations(page, 'with a tool block and an approval card (dark theme)');
    await card.getByRole('button', { name: 'Approve' }).click();
    await completed(page);
    await toolBlock(reply, tool.name).getByTestId('tool-state').getByText(/^Done in/).waitFor();
    assert.equal(await page.getByTestId('tool-approval').count(), 0);

    // The Tools dialog fits the screen.
    await page.getByRole('button', { name: /^Tools/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Tools' });
    await dialog.getByTestId('tool-server').waitFor();
    const box = await dialog.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `the Tools dialog fits the screen: ${JSON.stringify(box)}`);
    await noHorizontalScroll(page, 'with the Tools dialog open');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.context().close();
  });
});
