// Browser tests of a streaming reply while the reader looks elsewhere, and
// of following it, with a slow local demo model: switching chat
// tabs, or going to /dashboard and back, neither stops nor loses the reply;
// the view follows the stream at the bottom, and a reader who scrolled up
// gets 'New messages ↓' instead; no stream request fails (aborted) at all.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newUser, signInAs, startStack } from './stack.mjs';
import { lastReply, replyState, waitComplete, waitGrowth, waitStreaming } from './chat-page.mjs';

let stack;
before(async () => {
  // About 50 chunks per demo reply: some 10 s to look elsewhere while it streams.
  stack = await startStack({ DEMO_CHUNK_DELAY: '200ms' });
});
after(async () => {
  await stack?.stop();
});

async function openChat(viewport = { width: 1280, height: 800 }) {
  const page = await stack.newPage({ viewport });
  const failed = [];
  page.on('requestfailed', (r) => failed.push(`${r.method()} ${new URL(r.url()).pathname} ${r.failure()?.errorText}`));
  await signInAs(page, newUser('streams'));
  await page.goto('/llm-chat');
  await page.getByRole('tab').first().waitFor();
  return { page, failed };
}

/** Distance from the bottom of the conversation, in px. */
const gapBelow = (page) => page.getByTestId('messages').evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

async function send(page, text) {
  const input = page.getByLabel('Message', { exact: true });
  await input.fill(text);
  await input.press('Enter');
}

describe('replies keep streaming while you look elsewhere', () => {
  test('switching chat tabs and going to /dashboard and back mid-stream: the reply completes, nothing is aborted', async () => {
    const { page, failed } = await openChat();
    await send(page, 'Tell me something long');
    await waitStreaming(page);

    // Another chat tab while it streams.
    await page.getByRole('button', { name: 'New chat' }).click();
    await page.getByRole('tab', { name: 'Chat 2' }).waitFor();
    assert.equal(await page.getByTestId('messages').locator('[data-testid="message"]').count(), 0);
    await page.getByRole('tab', { name: 'Tell me something long' }).click();
    const back = await replyState(page);
    assert.ok(back, 'the reply is still there');

    // Another page of the app (in-app navigation: the chat page unmounts) and back.
    const before = await replyState(page);
    assert.equal(before.complete, false, 'still streaming when leaving (make DEMO_CHUNK_DELAY slower if this fails)');
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Dashboard' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByTestId('dashboard-greeting').waitFor();
    await page.getByRole('link', { name: 'LLM Chat' }).first().click();
    await page.waitForURL((url) => url.pathname === '/llm-chat');
    await page.getByRole('tab', { name: 'Tell me something long' }).click();
    // An aborted reply would never grow again: this wait would time out.
    await waitGrowth(page, before.length);

    await waitComplete(page);
    const text = await lastReply(page).innerText();
    assert.match(text, /Local demo model/);
    assert.match(text, /Set the provider's API key/, 'the whole reply arrived');
    await lastReply(page).getByTestId('message-usage').waitFor();
    assert.equal(await page.getByTestId('messages').locator('[data-testid="message"]').count(), 2, 'one question, one reply');

    // Kept as complete.
    await page.reload();
    await page.getByRole('tab', { name: 'Tell me something long' }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="message"][data-role="assistant"]')?.getAttribute('data-complete') === 'true');
    assert.deepEqual(failed.filter((f) => f.includes('/mcp-connections/')), [], 'no chat request failed or was aborted');
    await page.context().close();
  });
});

describe('following the conversation', () => {
  test('the view follows a reply at the bottom; scrolled up it stays and offers New messages ↓; sending follows again', async () => {
    const { page, failed } = await openChat();
    const messages = page.getByTestId('messages');
    const newMessages = page.getByRole('button', { name: 'New messages' });

    await send(page, 'First question');
    await waitStreaming(page);
    // Followed while streaming: always at the bottom.
    for (let i = 0; i < 3; i++) {
      await waitGrowth(page, (await replyState(page)).length);
      assert.ok((await gapBelow(page)) <= 64, `not following: ${await gapBelow(page)} px below`);
    }
    await waitComplete(page);
    assert.ok((await gapBelow(page)) <= 64);

    // Send while scrolled up: the new message and its reply are followed.
    await messages.hover();
    await page.mouse.wheel(0, -3000);
    await page.waitForFunction(() => document.querySelector('[data-testid="messages"]').scrollTop === 0);
    await send(page, 'Second question');
    await waitStreaming(page);
    await waitGrowth(page, (await replyState(page)).length);
    assert.ok((await gapBelow(page)) <= 64, 'sending brings the view to the new message');
    assert.equal(await newMessages.count(), 0);

    // Scroll up while it streams: the view stays put and the button appears.
    await messages.hover();
    await page.mouse.wheel(0, -3000);
    await page.waitForFunction(() => document.querySelector('[data-testid="messages"]').scrollTop === 0);
    await newMessages.waitFor();
    await waitGrowth(page, (await replyState(page)).length);
    assert.equal(await messages.evaluate((el) => el.scrollTop), 0, 'the reader was pulled down while reading');
    assert.equal((await replyState(page)).complete, false, 'still streaming (make DEMO_CHUNK_DELAY slower if this fails)');

    // The button goes to the bottom, and following resumes.
    await newMessages.click();
    assert.ok((await gapBelow(page)) <= 64);
    assert.equal(await newMessages.count(), 0);
    await waitComplete(page);
    assert.ok((await gapBelow(page)) <= 64, 'followed to the end after the button');
    assert.deepEqual(failed, []);
    await page.context().close();
  });
});
