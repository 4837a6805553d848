// Browser tests of the chat's usage line and layout, measured in
// a real browser at 1280×800 and 390×844 against the local demo model:
// tokens and cost under each reply and a running total per tab; the
// conversation takes the window's height; a long hand-off caps the message
// box at 320 px with Send and the hint on screen; a long code line does not
// widen the page; three model changes leave one connection toast, which
// covers neither the status nor Reconnect; no stream request fails.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newUser, signInAs, startStack } from './stack.mjs';

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

let stack;
before(async () => {
  stack = await startStack({ DEMO_CHUNK_DELAY: '20ms' });
});
after(async () => {
  await stack?.stop();
});

/** A signed-in page on /llm-chat, recording every failed request. */
async function openChat(viewport) {
  const page = await stack.newPage({ viewport });
  const failed = [];
  page.on('requestfailed', (r) => failed.push(`${r.method()} ${new URL(r.url()).pathname} ${r.failure()?.errorText}`));
  await signInAs(page, newUser('usage'));
  await page.goto('/llm-chat');
  await page.getByRole('tab').first().waitFor();
  return { page, failed };
}

async function sendAndWait(page, text) {
  const before = await page.locator('[data-testid="message"][data-role="assistant"][data-complete="true"]').count();
  const input = page.getByLabel('Message', { exact: true });
  await input.fill(text);
  await input.press('Enter');
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid="message"][data-role="assistant"][data-complete="true"]').length > n,
    before,
    { timeout: 30_000 },
  );
}

/** A rectangle of the element matched by `selector` (viewport coordinates). */
const rect = (page, selector) =>
  page.locator(selector).first().evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, height: r.height, width: r.width };
  });
const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** '1,093' → 1093 */
const num = (s) => Number(s.replace(/,/g, ''));
const USAGE = /^(\d[\d,]*) → (\d[\d,]*) tokens · (demo|\$\d+\.\d{4})$/;

describe('chat usage', () => {
  test('each finished reply shows tokens in → out and "demo"; the tab shows the running total; both survive a reload', async () => {
    const { page, failed } = await openChat(VIEWPORTS[0]);
    await sendAndWait(page, 'How many tokens was that?');
    const lines = page.getByTestId('messages').getByTestId('message-usage');
    const first = (await lines.first().innerText()).trim();
    const m1 = first.match(USAGE);
    assert.ok(m1, `usage line "${first}"`);
    assert.equal(m1[3], 'demo', 'the local demo model shows demo, not a cost');
    assert.ok(num(m1[1]) > 0 && num(m1[2]) > 0, first);
    assert.equal((await page.getByTestId('tab-usage').innerText()).trim(), `This chat: ${first}`);

    await sendAndWait(page, 'And this one, with a little more text to count?');
    assert.equal(await lines.count(), 2);
    const second = (await lines.nth(1).innerText()).trim().match(USAGE);
    const total = (await page.getByTestId('tab-usage').innerText()).trim().replace(/^This chat: /, '').match(USAGE);
    assert.ok(second && total);
    assert.equal(num(total[1]), num(m1[1]) + num(second[1]), 'input tokens add up');
    assert.equal(num(total[2]), num(m1[2]) + num(second[2]), 'output tokens add up');

    // Per tab: a new tab has no total; after a reload the first tab still has its lines and total.
    await page.getByRole('button', { name: 'New chat' }).click();
    assert.equal(await page.getByTestId('tab-usage').count(), 0);
    await page.reload();
    await page.getByRole('tab', { name: 'How many tokens was that?' }).click();
    assert.equal(await lines.count(), 2);
    assert.equal((await lines.first().innerText()).trim(), first);
    assert.match((await page.getByTestId('tab-usage').innerText()).trim(), /^This chat: /);

    assert.deepEqual(failed.filter((f) => f.includes('/mcp-connections/message')), [], 'a finished stream is not an aborted request');
    await page.context().close();
  });
});

describe('chat layout', () => {
  for (const viewport of VIEWPORTS) {
    const size = `${viewport.width}×${viewport.height}`;

    test(`${size}: the conversation fills the window; a long hand-off caps the box at 320 px with Send and the hint visible`, async () => {
      const { page } = await openChat(viewport);
      const chat = await rect(page, '.chat');
      assert.ok(viewport.height - chat.bottom <= 16, `empty band of ${viewport.height - chat.bottom} px below the chat`);
      assert.ok(chat.bottom <= viewport.height, 'the chat ends inside the window');
      assert.equal(await page.evaluate(() => document.documentElement.scrollHeight), viewport.height, 'the page itself does not scroll');

      // A normal (menu-less) prompt of 80 lines handed over by 'Use in Chat'.
      const prompt = Array.from({ length: 80 }, (_, i) => `Step ${i + 1}: a line of the handed-over prompt.`).join('\n');
      await page.evaluate((text) => {
        sessionStorage.setItem('chat-prefill', text);
        sessionStorage.setItem('chat-force-new-tab', 'true');
      }, prompt);
      await page.goto('/llm-chat');
      await page.getByRole('tab', { name: 'Chat 2' }).waitFor();
      const input = page.getByLabel('Message', { exact: true });
      assert.equal(await input.inputValue(), prompt);

      const box = await rect(page, '.chat-input__box');
      assert.ok(box.height <= 320.5 && box.height >= 200, `message box ${box.height} px`);
      const inner = await input.evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight, overflow: getComputedStyle(el).overflowY }));
      assert.ok(inner.scroll > inner.client && inner.overflow === 'auto', 'the box scrolls inside');
      const frame = await rect(page, '.chat');
      for (const [name, selector] of [
        ['Send', '.chat-input__send'],
        ['the hint', '.chat-input__hint'],
      ]) {
        const r = await rect(page, selector);
        assert.ok(r.top >= frame.top && r.bottom <= frame.bottom, `${name} is clipped by the chat panel (${r.bottom} > ${frame.bottom})`);
        assert.ok(r.bottom <= viewport.height, `${name} is below the window (${r.bottom})`);
      }
      assert.ok(await page.getByRole('button', { name: 'Send' }).isEnabled());
      assert.equal(await page.evaluate(() => document.documentElement.scrollHeight), viewport.height);

      // Send by the button works, and the conversation still has room.
      await page.getByRole('button', { name: 'Send' }).click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="message"][data-role="user"]').length === 1);
      assert.ok((await rect(page, '.chat-messages')).height >= 72);
      await page.context().close();
    });

    test(`${size}: a long code line scrolls inside its block and does not widen the page`, async () => {
      const { page } = await openChat(viewport);
      // The demo reply quotes the first words of the message in a Go code block.
      await sendAndWait(page, `${'Supercalifragilistic'.repeat(20)} in one long line`);
      const code = page.getByTestId('messages').getByTestId('code-block').last();
      await code.waitFor();
      const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: window.innerWidth }));
      assert.ok(widths.page <= widths.window, `the page is ${widths.page} px wide in a ${widths.window} px window`);
      const bubble = await rect(page, '[data-testid="message"][data-role="assistant"]');
      const messages = await rect(page, '.chat-messages');
      assert.ok(bubble.right <= messages.right + 0.5, 'the reply bubble stays inside the conversation');
      const codeBox = await code.evaluate((el) => {
        const pre = el.querySelector('pre');
        return { right: el.getBoundingClientRect().right, preScroll: pre.scrollWidth, preClient: pre.clientWidth };
      });
      assert.ok(codeBox.right <= bubble.right + 0.5, 'the code block stays inside the bubble');
      assert.ok(codeBox.preScroll > codeBox.preClient, 'the long line scrolls inside the code block');
      await page.context().close();
    });

    test(`${size}: three model changes leave one connection toast, clear of the status and Reconnect`, async () => {
      const { page } = await openChat(viewport);
      for (const model of ['gpt-4o', 'gpt-4-turbo', 'gpt-3.5-turbo']) {
        await page.getByLabel('Model').selectOption(model);
        // Each change connects on its own (a new model has no connection yet: Idle, Connecting..., Connected).
        await page.locator('[data-testid="connection-status"][data-status="connected"]').waitFor();
        await page.getByTestId('toasts').getByText('Connected to').first().waitFor();
      }
      const toasts = page.getByTestId('toasts').locator('.toast');
      await toasts.first().waitFor();
      const texts = await toasts.allInnerTexts();
      assert.equal(texts.filter((t) => t.includes('Connected to')).length, 1, `toasts: ${JSON.stringify(texts)}`);
      const toast = await rect(page, '[data-testid="toasts"] .toast');
      const status = await rect(page, '[data-testid="connection-status"]');
      const reconnect = await page.getByRole('button', { name: 'Reconnect' }).boundingBox();
      assert.ok(!overlaps(toast, status), 'the toast covers the status');
      assert.ok(!overlaps(toast, { left: reconnect.x, top: reconnect.y, right: reconnect.x + reconnect.width, bottom: reconnect.y + reconnect.height }), 'the toast covers Reconnect');
      await page.context().close();
    });
  }
});
