// Browser tests of MCP Apps in the chat, against the devserver, its local
// demo model and the MCP App example that `make run` starts
// (`local-mcp-app`, the MCP project's @modelcontextprotocol/server-basic-react):
// "use get-time" shows the call and, under it, the server's view in a
// sandboxed frame; the view's Get Server Time asks for approval in the same
// tool block, runs and updates the view; its Send Message fills the message
// box (never sent); its Open Link asks first; a reload shows the view again.
// A hostile view (e2e/fixtures/hostile-app-server.mjs) tries what a view must
// never manage; each try is blocked, and a view asking for any domain is
// refused with its text result shown. On a 390 px phone the view fits the
// width, and axe finds nothing serious with a view on the page.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { completed, lastReplyPosition, noHorizontalScroll, noSeriousViolations, send } from './chat-page.mjs';
import { LOCAL_ID, connectByApi, localServer, signIn } from './local-everything.mjs';
import { startStack } from './stack.mjs';

const APP_ID = 'local-mcp-app';
const APP_TOOL = 'get-time';

let stack;
let hostile;
before(async () => {
  [stack, hostile] = await Promise.all([startStack(), startHostileServer()]);
});
after(async () => {
  hostile?.stop();
  await stack?.stop();
});

/** The hostile fixture server on a free loopback port; its MCP endpoint. */
function startHostileServer() {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'hostile-app-server.mjs');
  const child = spawn(process.execPath, [script, '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`the hostile fixture server exited (${code}) before listening`)));
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening (\d+)/);
      if (m) resolve({ endpoint: `http://127.0.0.1:${m[1]}/mcp`, stop: () => child.kill('SIGTERM') });
    });
  });
}

/** Opens the chat in a new tab of its own once the Tools control counts the connected servers. */
async function openChat(page, servers = 1) {
  await page.goto('/llm-chat');
  await page.locator(`[data-testid="tools-button"][data-count="${servers}"]`).waitFor();
  const tabs = page.getByRole('tab');
  const before = await tabs.count();
  await page.getByRole('button', { name: 'New chat', exact: true }).click();
  await stack.until('a new chat tab', async () => (await tabs.count()) > before, { every: 50 });
}

const toolBlock = (reply, tool) => reply.locator(`[data-testid="tool-call"][data-tool="${tool}"]`);
/** The view's own document: the frame inside the sandbox page. */
const viewOf = (block) => block.frameLocator('[data-testid="mcp-app-frame"]').frameLocator('iframe');

/** Sends "use <tool>" (with args written out), allows the model's call when it asks, and waits for the reply's end. */
async function useTool(page, tool, args) {
  const reply = await send(stack, page, args ? `use ${tool} ${JSON.stringify(args)}` : `use ${tool}`);
  const approval = page.locator(`[data-testid="tool-approval"][data-tool="${tool}"][data-state="waiting"]`);
  const block = toolBlock(reply, tool);
  await Promise.race([approval.waitFor({ timeout: 60_000 }), block.getByTestId('tool-result').waitFor({ timeout: 60_000 })]);
  if (await approval.count()) await approval.getByRole('button', { name: 'Approve', exact: true }).click();
  try {
    return { reply: await completed(page), block };
  } catch (err) {
    throw new Error(`${err.message}\n--- the reply ---\n${await reply.innerText()}\n--- devserver output ---\n${stack.logs().slice(-3000)}`);
  }
}

describe('MCP Apps in chat', () => {
  test('the example view renders; its tool call asks, runs and updates it; Send Message fills the box; Open Link asks; a reload shows it again', async () => {
    const page = await stack.newPage({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    const auth = await signIn(page, 'mcpapp');
    await connectByApi(stack, page, auth, APP_ID);
    await openChat(page);
    const { block } = await useTool(page, APP_TOOL);

    const view = block.getByTestId('mcp-app-view');
    await block.locator('[data-testid="mcp-app-view"][data-state="ready"]').waitFor({ timeout: 60_000 });
    const frame = block.getByTestId('mcp-app-frame');
    assert.equal(await frame.getAttribute('sandbox'), 'allow-scripts', 'the frame may run scripts, nothing more');
    assert.ok((await frame.getAttribute('title'))?.includes(APP_TOOL), 'the frame has a title naming the tool');
    const inner = viewOf(block);
    await inner.getByRole('button', { name: 'Get Server Time' }).waitFor({ timeout: 60_000 });
    await noHorizontalScroll(page, 'with a view');
    await noSeriousViolations(page, 'with a view');

    // The view's own tool call: get-time is not read-only, so the host asks.
    const shown = await inner.locator('code').first().innerText();
    await inner.getByRole('button', { name: 'Get Server Time' }).click();
    const ask = block.locator(`[data-testid="mcp-app-approval"][data-tool="${APP_TOOL}"]`);
    await ask.waitFor({ timeout: 30_000 });
    await ask.getByRole('button', { name: 'Allow', exact: true }).click();
    await stack.until('the view to show the new server time', async () => {
      const now = await inner.locator('code').first().innerText();
      return now !== shown && /\d{4}-\d\d-\d\dT/.test(now);
    });
    assert.equal(await ask.count(), 0, 'the approval card is gone once decided');

    // A follow-up message goes to the message box, never sent by itself.
    const replies = await lastReplyPosition(page);
    await inner.getByRole('button', { name: 'Send Message' }).click();
    const box = page.getByLabel('Message', { exact: true });
    await stack.until('the view\'s message in the box', async () => (await box.inputValue()).trim() !== '');
    assert.equal(await lastReplyPosition(page), replies, 'nothing was sent');

    // A link opens only on a click, in a new tab.
    await inner.getByRole('button', { name: 'Open Link' }).click();
    const link = block.getByTestId('mcp-app-link');
    await link.waitFor({ timeout: 30_000 });
    const host = await link.getAttribute('aria-label');
    assert.match(host, /^The view wants to open \S+/);
    const [popup] = await Promise.all([page.waitForEvent('popup'), link.getByRole('button', { name: 'Open', exact: true }).click()]);
    await popup.close();

    // A reload reads the reply back: the same view, with the same result.
    await page.reload();
    await page.locator('[data-testid="mcp-app-view"][data-state="ready"]').last().waitFor({ timeout: 60_000 });
    const again = viewOf(page.getByTestId('messages').locator(`[data-testid="tool-call"][data-tool="${APP_TOOL}"]`).last());
    await again.getByRole('button', { name: 'Get Server Time' }).waitFor({ timeout: 60_000 });
    await noHorizontalScroll(page, 'after the reload');
    assert.ok(await view.count(), 'the view is still in the reply');
    await page.context().close();
  });

  test('a hostile view is held in its sandbox: no DOM, cookies, storage, API, form, popup, navigation; its height is bounded; its flood is dropped', async () => {
    const page = await stack.newPage();
    const auth = await signIn(page, 'mcpapphostile');
    await localServer(stack, page, LOCAL_ID);
    const res = await page.request.post('/api/v1/mcp-connections/', {
      headers: auth,
      data: { server_id: LOCAL_ID, endpoint_url: hostile.endpoint },
    });
    assert.equal(res.status(), 200, await res.text());
    await openChat(page);
    const { block } = await useTool(page, 'show-hostile', { api: `${new URL(page.url()).origin}/` });
    await block.locator('[data-testid="mcp-app-view"][data-state="ready"]').waitFor({ timeout: 60_000 });
    const inner = viewOf(block);
    const want = ['top_dom', 'cookie', 'local_storage', 'popup', 'top_navigation', 'fetch_api', 'form_post', 'flood_sent', 'host_context'];
    const results = await stack.until('the hostile view to report every try', async () => {
      const text = await inner.locator('#results').innerText();
      const r = JSON.parse(text || '{}');
      return want.every((k) => k in r) ? r : null;
    });
    // The host told the view its theme and its style variables (the extension's names).
    const ctx = JSON.parse(results.host_context.detail);
    assert.ok(['light', 'dark'].includes(ctx.theme), `theme ${ctx.theme}`);
    assert.ok(ctx.variables > 0, 'the host passes its CSS variables');
    for (const k of want.filter((k) => k !== 'flood_sent' && k !== 'host_context')) {
      assert.equal(results[k].blocked, true, `${k} must be blocked: ${JSON.stringify(results[k])}`);
    }
    // The network tries were stopped by the view's policy, not by chance.
    assert.match(results.fetch_api.detail, /^csp connect-src/);
    assert.doesNotMatch(stack.logs(), /path=\/api\/v1\/auth\/logout/, 'the form post never reached the API');
    assert.equal(page.url().includes('/llm-chat'), true, 'the chat page stayed where it was');
    assert.equal(page.context().pages().length, 1, 'no popup opened');
    const height = await block.getByTestId('mcp-app-frame').evaluate((f) => f.getBoundingClientRect().height);
    assert.ok(height <= 640, `the frame's height is bounded (${height} px)`);
    await stack.until('the flood to be dropped and counted', async () => Number(await block.getByTestId('mcp-app-view').getAttribute('data-dropped')) > 0);
    assert.equal(await block.getByTestId('mcp-app-approval').count() <= 1, true, 'the flood of calls did not pile up approvals');
    await page.context().close();
  });

  test('a view that asks for any domain is refused: the text result shows with a note why', async () => {
    const page = await stack.newPage();
    const auth = await signIn(page, 'mcpappwild');
    await localServer(stack, page, LOCAL_ID);
    const res = await page.request.post('/api/v1/mcp-connections/', { headers: auth, data: { server_id: LOCAL_ID, endpoint_url: hostile.endpoint } });
    assert.equal(res.status(), 200, await res.text());
    await openChat(page);
    const { block } = await useTool(page, 'show-wildcard');
    await block.locator('[data-testid="mcp-app-view"][data-state="unavailable"]').waitFor({ timeout: 60_000 });
    assert.match(await block.getByTestId('mcp-app-unavailable').innerText(), /any domain|wildcard|\*/i);
    assert.match(await block.getByTestId('tool-result').innerText(), /wildcard text result/);
    assert.equal(await block.getByTestId('mcp-app-frame').count(), 0, 'no frame for a refused view');
    await page.context().close();
  });
});
