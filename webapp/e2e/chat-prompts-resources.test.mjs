// Browser tests of a server's prompts and resources in the LLM chat's
// composer against the devserver, its local demo model and the local
// reference server (@modelcontextprotocol/server-everything,
// `local-everything`): typing "/" lists its prompts; one with arguments
// opens the fill-in dialog (the server's completions as suggestions) and
// its text lands in the composer; the paperclip attaches a resource, the
// demo model quotes what it received, and the chip stays on the message
// after a reload; a 390 px wide phone has no horizontal scroll.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lastReply, noHorizontalScroll, waitComplete } from './chat-page.mjs';
import { connectByApi, signIn } from './local-everything.mjs';
import { startStack } from './stack.mjs';

const DOC = 'demo://resource/static/document/architecture.md';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.stop();
});

/** Registers a confirmed user and connects the reference server through the API. */
async function signInConnected(page, tag) {
  await connectByApi(stack, page, await signIn(page, tag));
}

/** Opens the chat once the Tools control counts the connected server. */
async function openChat(page) {
  await page.goto('/llm-chat');
  await page.getByRole('tab', { name: 'Chat 1' }).waitFor();
  await page.locator('[data-testid="tools-button"][data-count="1"]').waitFor();
}

describe('server prompts and resources in the composer', () => {
  test('/ lists the prompts; one with arguments is filled in, with completions, and its text is inserted', async () => {
    const page = await stack.newPage({ viewport: { width: 390, height: 844 } });
    await signInConnected(page, 'prompts');
    await openChat(page);

    const input = page.getByLabel('Message', { exact: true });
    await input.fill('/');
    const menu = page.getByRole('listbox', { name: 'Prompts' });
    await menu.getByRole('option', { name: /args-prompt/ }).waitFor({ timeout: 30_000 });
    await noHorizontalScroll(page, 'with the prompts menu open');
    await input.pressSequentially('comp');
    await menu.getByRole('option', { name: /completable-prompt/ }).waitFor();
    assert.equal(await menu.getByRole('option').count(), 1);
    await input.press('Enter');

    const dialog = page.getByRole('dialog', { name: 'Team Management' });
    await dialog.waitFor();
    const department = dialog.getByRole('combobox', { name: /department/ });
    await department.pressSequentially('Sa');
    // The server's completions are the field's suggestions.
    await stack.until('the department suggestions', async () =>
      (await dialog.getByTestId('suggestions-department').locator('option').evaluateAll((os) => os.map((o) => o.value))).includes('Sales'),
    );
    await department.fill('Sales');
    const name = dialog.getByRole('combobox', { name: 'name' });
    await stack.until('the name suggestions for Sales', async () => {
      await name.fill('');
      await name.pressSequentially('E');
      return (await dialog.getByTestId('suggestions-name').locator('option').evaluateAll((os) => os.map((o) => o.value))).includes('Eve');
    });
    await name.fill('Eve');
    await dialog.getByRole('button', { name: 'Insert' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await input.inputValue(), 'Please promote Eve to the head of the Sales team.');
    await page.context().close();
  });

  test('a resource attached with the paperclip reaches the model, and its chip stays on the message after a reload', async () => {
    const page = await stack.newPage();
    await signInConnected(page, 'resources');
    await openChat(page);

    await page.getByRole('button', { name: 'Attach a resource' }).click();
    const dialog = page.getByRole('dialog', { name: 'Attach a resource' });
    await dialog.getByRole('button', { name: /architecture\.md/ }).click({ timeout: 30_000 });
    await dialog.waitFor({ state: 'detached' });
    const chips = page.getByRole('list', { name: 'Attached to the next message' });
    await chips.getByText('architecture.md').waitFor();

    const posts = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/v1/mcp-connections/message') posts.push(req.postDataJSON());
    });
    const input = page.getByLabel('Message', { exact: true });
    await input.fill('What does the attached document say?');
    await input.press('Enter');
    const reply = lastReply(page);
    // The quote streams in: wait until it reaches the document's words, not
    // only its first chunk.
    const QUOTE = /I received the resource demo:\/\/resource\/static\/document\/architecture\.md: .*Architecture/;
    await stack.until('the demo model to quote the attached document', async () => QUOTE.test(await reply.innerText()));
    assert.deepEqual(posts[0].attachments.map((a) => a.uri), [DOC]);
    assert.equal(await chips.count(), 0);
    const sent = () => page.getByTestId('messages').locator('[data-testid="message"][data-role="user"]').last();
    await sent().getByRole('list', { name: 'Attached resources' }).getByText('architecture.md').waitFor();

    await waitComplete(page);
    await page.reload();
    await sent().getByRole('list', { name: 'Attached resources' }).getByText('architecture.md').waitFor({ timeout: 30_000 });
    await page.context().close();
  });
});
