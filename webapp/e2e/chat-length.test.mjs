// Browser test of a long conversation (500 messages, uploaded through the
// conversations API as a tab kept in the browser would be): it opens at its
// newest message with only the messages around the view in the page; the
// keyboard scrolls it to its first message and back; an old message's Copy
// works once scrolled to; a reply sent in it is followed to its end; on a
// phone it has no horizontal scroll and no serious axe finding.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newUser, signInAs, startStack } from './stack.mjs';
import { noHorizontalScroll, noSeriousViolations } from './chat-page.mjs';

const COUNT = 500;

let stack;
before(async () => {
  stack = await startStack({ DEMO_CHUNK_DELAY: '20ms' });
});
after(async () => {
  await stack?.stop();
});

/** Message i of the upload: a question, then a reply in markdown with a code block. */
const text = (i) => (i % 2 === 0 ? `Question ${i + 1}: how long is this chat?` : `Answer ${i + 1}: **long**.\n\n\`\`\`js\nconsole.log(${i + 1});\n\`\`\``);

async function openLong(viewport, options = {}) {
  const page = await stack.newPage({ viewport, ...options });
  const u = newUser('length');
  const { access_token: token } = await signInAs(page, u);
  const res = await page.request.post('/api/v1/chat/conversations', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      title: 'Long chat',
      provider: 'anthropic',
      model: 'claude-3-5-sonnet',
      upload_key: `length-${u.username}`,
      messages: Array.from({ length: COUNT }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: text(i) })),
    },
  });
  assert.equal(res.status(), 201, await res.text());
  await page.goto('/llm-chat');
  await page.getByRole('tab', { name: 'Long chat', selected: true }).waitFor();
  return page;
}

const log = (page) => page.getByRole('log', { name: 'Conversation' });
const rendered = (page) => log(page).locator('[data-testid="message"]').count();
/** Whether the message holding `needle` is in the page and inside the conversation's view. */
const inView = (page, needle) =>
  log(page).evaluate((el, n) => {
    const m = [...el.querySelectorAll('[data-testid="message"]')].find((x) => x.textContent.includes(n));
    if (!m) return false;
    const a = m.getBoundingClientRect();
    const b = el.getBoundingClientRect();
    return a.bottom > b.top && a.top < b.bottom;
  }, needle);

describe('a long conversation', () => {
  test('opens at its newest message with a window of messages in the page; Home and End scroll it; an old message copies; a reply is followed', async () => {
    const page = await openLong({ width: 1280, height: 800 });
    await stack.until('the newest message in view', () => inView(page, `Answer ${COUNT}:`));
    const count = await rendered(page);
    assert.ok(count > 0 && count < 60, `${count} of ${COUNT} messages in the page`);
    assert.equal(await inView(page, 'Question 1:'), false);

    // The keyboard: the conversation takes focus and scrolls to its start and end.
    await log(page).focus();
    await page.keyboard.press('Home');
    await stack.until('the first message in view', () => inView(page, 'Question 1:'));
    assert.ok((await rendered(page)) < 60);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const first = log(page).locator('[data-testid="message"]').filter({ hasText: 'Question 1:' });
    await first.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByText('Copied', { exact: true }).first().waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), text(0));
    await log(page).focus();
    await page.keyboard.press('End');
    await stack.until('the newest message in view again', () => inView(page, `Answer ${COUNT}:`));

    // A reply sent in it streams at the end, followed there.
    const input = page.getByLabel('Message', { exact: true });
    await input.fill('One more question');
    await input.press('Enter');
    await stack.until('the reply to end', () =>
      log(page).evaluate((el) => {
        const last = [...el.querySelectorAll('[data-testid="message"]')].pop();
        return last?.getAttribute('data-complete') === 'true' && last.textContent.includes('One more question'); // the demo model quotes it
      }),
    );
    const gap = await log(page).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    assert.ok(gap <= 64, `followed to the end: ${gap} px below it`);
    await page.context().close();
  });

  test('on a phone: no horizontal scroll and no serious axe finding', async () => {
    // bypassCSP: axe is injected as an inline script, which the app's CSP (rightly) refuses.
    const page = await openLong({ width: 390, height: 844 }, { bypassCSP: true, reducedMotion: 'reduce' });
    await stack.until('the newest message in view', () => inView(page, `Answer ${COUNT}:`));
    await noHorizontalScroll(page, 'with a long conversation');
    await noSeriousViolations(page, 'with a long conversation');
    await page.context().close();
  });
});
