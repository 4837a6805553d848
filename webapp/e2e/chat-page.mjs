// What the chat's browser tests read of the page: the last reply and its
// state, and waits on its streaming (conditions, never fixed times).

export const lastReply = (page) => page.getByTestId('messages').locator('[data-testid="message"][data-role="assistant"]').last();

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
