// Browser tests of a server's questions in the LLM chat (MCP elicitation)
// and a long call's progress, against the devserver, its local demo model
// and the local reference server (@modelcontextprotocol/server-everything,
// `local-everything`), which asks through trigger-elicitation-request (a
// form) and trigger-url-elicitation (a page to open): the form answered with
// its defaults and a required field, declined, and answered after a reload
// (the question then comes back from the kept reply, answered by its id);
// the URL card opened and Done; trigger-long-running-operation's progress
// bar while it runs; on a 390 px phone no horizontal scroll, and axe finds
// nothing serious on the chat page (two tabs open, a card waiting). Each test
// has its own account, connected as a user connects: the asking tools are
// offered from the connect on.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { completed, noHorizontalScroll, noSeriousViolations, send } from './chat-page.mjs';
import { connectByApi, signIn, toolsOf } from './local-everything.mjs';
import { startStack } from './stack.mjs';

const FORM_TOOL = 'trigger-elicitation-request';
const URL_TOOL = 'trigger-url-elicitation';
const LONG_TOOL = 'trigger-long-running-operation';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.stop();
});

/**
 * A new account with the reference server connected, as a user connects it:
 * the connect's handshake declares what the chat's sessions do (elicitation),
 * so the asking tools, which the reference server lists only to a client that
 * can answer, are offered from the connect on.
 */
async function connectedAccount(page, tag) {
  const auth = await signIn(page, tag);
  await connectByApi(stack, page, auth);
  const [server] = (await toolsOf(page, auth)).servers;
  for (const name of [FORM_TOOL, URL_TOOL]) {
    assert.ok(
      server.tools.some((t) => t.name === name),
      `${name} is not offered right after connecting: ${server.tools.map((t) => t.name).join(', ')}`,
    );
  }
  return auth;
}

/** Opens the chat in a new tab of its own once the Tools control counts the connected server. */
async function openChat(page) {
  await page.goto('/llm-chat');
  await page.locator('[data-testid="tools-button"][data-count="1"]').waitFor();
  const tabs = page.getByRole('tab');
  const before = await tabs.count();
  await page.getByRole('button', { name: 'New chat', exact: true }).click();
  await stack.until('a new chat tab', async () => (await tabs.count()) > before, { every: 50 });
}

const toolBlock = (reply, name) => reply.locator(`[data-testid="tool-call"][data-tool="${name}"]`);
const questionCard = (page, name) => page.locator(`[data-testid="tool-elicitation"][data-tool="${name}"][data-state="pending"]`);

/**
 * Sends "use <tool> …" and brings its question up: a tool without
 * readOnlyHint asks for approval first (Always allow, so the question comes
 * in the message's own reply from then on), then its server asks.
 */
async function askedBy(page, tool, text = `use ${tool}`) {
  const reply = await send(stack, page, text);
  const card = questionCard(page, tool);
  const approval = page.locator(`[data-testid="tool-approval"][data-tool="${tool}"][data-state="waiting"]`);
  await Promise.race([card.waitFor({ timeout: 60_000 }), approval.waitFor({ timeout: 60_000 })]);
  if (await approval.count()) await approval.getByRole('button', { name: 'Always allow this tool' }).click();
  try {
    await card.waitFor({ timeout: 60_000 });
  } catch (err) {
    throw new Error(`${err.message}\n--- the reply ---\n${await reply.innerText()}\n--- devserver output ---\n${stack.logs().slice(-3000)}`);
  }
  return { reply, card };
}

/** The text of the last reply's block for `tool` once its call is done. */
async function doneResult(reply, tool) {
  const block = toolBlock(reply, tool);
  await block.getByTestId('tool-state').getByText(/^Done in/).waitFor({ timeout: 60_000 });
  return block.getByTestId('tool-result').innerText();
}

describe('a server asks in chat', () => {
  test('the form: defaults filled in, a required field checked, Submit reaches the server; Decline too', async () => {
    const page = await stack.newPage();
    await connectedAccount(page, 'elicit');
    await openChat(page);

    const posts = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/v1/mcp-connections/message') posts.push(req.postDataJSON());
    });
    let { reply, card } = await askedBy(page, FORM_TOOL);
    assert.equal(await card.getByTestId('tool-state').innerText(), 'Waiting for your answer');
    assert.match(await card.getByTestId('elicitation-message').innerText(), /\S/);
    assert.match(await card.getByTestId('elicitation-time').innerText(), /^Answer within \d+ (min|s)$/);
    // SEP-1034: the schema's defaults are what the card starts with.
    assert.equal(await card.getByLabel('String with default', { exact: true }).inputValue(), 'It was a dark and stormy night.');
    assert.equal(await card.getByLabel('Integer', { exact: true }).inputValue(), '42');
    assert.equal(await card.getByRole('checkbox', { name: 'Guitar' }).isChecked(), true);

    // The required field is checked before anything goes.
    await card.getByRole('button', { name: 'Submit' }).click();
    assert.equal(await card.getByTestId('field-error').innerText(), 'String is required.');
    assert.equal(await card.getByRole('textbox', { name: 'String', exact: true }).getAttribute('aria-invalid'), 'true');
    await card.getByRole('textbox', { name: 'String', exact: true }).fill('Ada Lovelace');
    const before = posts.length;
    await card.getByRole('button', { name: 'Submit' }).click();
    await completed(page);
    const answer = posts.slice(before).find((p) => p.elicitation);
    assert.equal(answer?.elicitation.action, 'accept');
    assert.equal(answer.elicitation.content.name, 'Ada Lovelace');
    assert.equal(answer.elicitation.content.integer, 42);
    // The server received it: its result quotes what was sent.
    assert.match(await doneResult(reply, FORM_TOOL), /Ada Lovelace/);
    assert.equal(await page.getByTestId('tool-elicitation').count(), 0);

    // Decline: the server hears it, and the reply goes on.
    ({ reply, card } = await askedBy(page, FORM_TOOL));
    await card.getByRole('button', { name: 'Decline' }).click();
    await completed(page);
    assert.match(await toolBlock(reply, FORM_TOOL).innerText(), /declin/i);
    await page.context().close();
  });

  test('on a 390 px phone: a reload while the form waits brings it back, and its answer resumes the reply', async () => {
    // bypassCSP: axe is injected as an inline script, which the app's CSP (rightly) refuses.
    const page = await stack.newPage({ viewport: { width: 390, height: 844 }, reducedMotion: 'reduce', bypassCSP: true });
    await connectedAccount(page, 'elicit');
    await openChat(page);
    await askedBy(page, FORM_TOOL);
    await noHorizontalScroll(page, 'with a question card');
    await noSeriousViolations(page, 'with a question card');

    await page.reload();
    const card = questionCard(page, FORM_TOOL);
    await card.waitFor({ timeout: 30_000 });
    await noHorizontalScroll(page, 'after the reload');
    assert.equal(await card.getByLabel('String with default', { exact: true }).inputValue(), 'It was a dark and stormy night.');
    await card.getByRole('textbox', { name: 'String', exact: true }).fill('Grace Hopper');
    await card.getByRole('button', { name: 'Submit' }).click();
    const reply = await completed(page);
    assert.match(await doneResult(reply, FORM_TOOL), /Grace Hopper/);
    await page.context().close();
  });

  test('the URL card names the host, opens it in a new tab, and Done lets the call finish', async () => {
    const page = await stack.newPage();
    await connectedAccount(page, 'elicit');
    await openChat(page);
    const target = 'https://example.com/checkout?order=42';
    const { reply, card } = await askedBy(page, URL_TOOL, `use ${URL_TOOL} ${JSON.stringify({ url: target, message: 'Pay for the report.' })}`);
    assert.equal(await card.getAttribute('data-mode'), 'url');
    assert.match(await card.getByTestId('elicitation-message').innerText(), /Pay for the report\./);
    assert.equal(await card.getByTestId('elicitation-host').innerText(), 'Opens example.com');
    const open = card.getByRole('link', { name: /^Open/ });
    assert.equal(await open.getAttribute('href'), target);
    assert.equal(await open.getAttribute('target'), '_blank');
    assert.match(await open.getAttribute('rel'), /noopener/);
    // Opening it: a new tab (not followed here: no network to example.com), and the card waits.
    const popup = page.waitForEvent('popup');
    await page.route('https://example.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Paid</title>Paid.' }));
    await open.click();
    await (await popup).close();
    await card.getByRole('status').getByText(/Finish on example\.com/).waitFor();
    await card.getByRole('button', { name: 'Done' }).click();
    await completed(page);
    await toolBlock(reply, URL_TOOL).getByTestId('tool-state').getByText(/^(Done|Failed)/).waitFor({ timeout: 60_000 });
    assert.equal(await page.getByTestId('tool-elicitation').count(), 0);
    await page.context().close();
  });

  test('a long call shows its progress bar while it runs', async () => {
    const page = await stack.newPage();
    const auth = await signIn(page, 'progress');
    await connectByApi(stack, page, auth);
    await page.goto('/llm-chat');
    await page.locator('[data-testid="tools-button"][data-count="1"]').waitFor();
    const reply = await send(stack, page, `use ${LONG_TOOL} with 4 and 4`);
    const bar = toolBlock(reply, LONG_TOOL).getByRole('progressbar', { name: `Progress of ${LONG_TOOL}` });
    await bar.waitFor({ timeout: 30_000 });
    assert.equal(await bar.getAttribute('aria-valuemax'), '4');
    await stack.until('the bar to move', async () => Number(await bar.getAttribute('aria-valuenow')) >= 2, { every: 100 });
    assert.match(await toolBlock(reply, LONG_TOOL).getByTestId('tool-progress-text').innerText(), /^\d of 4/);
    await completed(page);
    assert.match(await doneResult(reply, LONG_TOOL), /Long running operation completed/);
    assert.equal(await toolBlock(reply, LONG_TOOL).getByRole('progressbar').count(), 0);
    await page.context().close();
  });
});
