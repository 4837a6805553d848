// What the chat's browser tests read of the page: the last reply and its
// state, and waits on its streaming (conditions, never fixed times); and
// what they check of its layout (no horizontal scroll, axe).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const lastReply = (page) => page.getByTestId('messages').locator('[data-testid="message"][data-role="assistant"]').last();
/**
 * The newest reply's place in the conversation (0 before any): only a window
 * of a long conversation is in the page, so counting the replies rendered
 * stops growing once earlier ones leave it.
 */
export const lastReplyPosition = (page) =>
  page.evaluate(() => {
    const m = [...document.querySelectorAll('[data-testid="messages"] [data-testid="message"][data-role="assistant"]')].pop();
    return m ? Number(m.getAttribute('aria-posinset')) : 0;
  });

/** Sends text from the composer and waits for its reply to appear; returns it. */
export async function send(stack, page, text) {
  const before = await lastReplyPosition(page);
  const input = page.getByLabel('Message', { exact: true });
  await input.fill(text);
  await input.press('Enter');
  await stack.until(`the reply to "${text}" to start`, async () => (await lastReplyPosition(page)) > before, { every: 50 });
  return lastReply(page);
}

/** The last reply's state: complete flag and text length. */
export const replyState = (page) =>
  page.evaluate(() => {
    const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop();
    return m ? { complete: m.getAttribute('data-complete') === 'true', length: m.textContent.length } : null;
  });

/** Waits until the last reply streams the demo model's text and is not complete. */
export const waitStreaming = (page) =>
  page.waitForFunction(() => {
    const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop();
    return m && m.getAttribute('data-complete') === 'false' && m.textContent.includes('Local demo model');
  });

/** Waits until the last reply is complete. */
export const waitComplete = (page) =>
  page.waitForFunction(
    () => [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop()?.getAttribute('data-complete') === 'true',
    null,
    { timeout: 60_000 },
  );

/** Waits until the last reply has more than `than` characters or is complete: the stream moved on. */
export const waitGrowth = (page, than) =>
  page.waitForFunction((n) => {
    const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop();
    return m && (m.getAttribute('data-complete') === 'true' || m.textContent.length > n);
  }, than);

/** Waits for the last reply to end ([DONE]); returns it. */
export async function completed(page) {
  await waitComplete(page);
  return lastReply(page);
}

export async function noHorizontalScroll(page, when) {
  const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  assert.ok(scroll <= client, `no horizontal scroll ${when} (scrollWidth ${scroll} > ${client})`);
}

let axeSource;

/**
 * axe-core's serious and critical violations on the whole page, as
 * e2e/a11y.mjs counts them. The page needs bypassCSP: axe is injected as an
 * inline script, which the app's CSP (rightly) refuses.
 */
export async function noSeriousViolations(page, when) {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} (${n.failureSummary})`).join(', ')}`);
  });
  assert.deepEqual(violations, [], `axe ${when}`);
}
