// Journey (d), chat streaming, through the function binaries (make
// run-lambda, LAMBDA_DIR): a reply of the chat function, relayed by the
// local API Gateway's streaming integration, shows its first words in the
// page while its HTTP response is still open, and grows before it ends;
// a gateway or runtime that buffered the stream would show the reply only
// once the response had finished. (../chat.test.mjs, re-run in chat.test.mjs
// here, sees partial text too, but not against the response's end.)
import { servedByFunctions } from './through-lambdas.mjs';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newUser, signInAs, startStack } from '../stack.mjs';

const STREAM_PATH = '/api/v1/mcp-connections/message';

let stack;
before(async () => {
  // About 50 chunks of the local demo model, 150 ms apart: some 7 s of stream.
  stack = await startStack({ DEMO_CHUNK_DELAY: '150ms' });
});
after(async () => {
  await stack?.stop();
});

/** The last assistant message: complete flag and text. */
const lastReply = (page) =>
  page.evaluate(() => {
    const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop();
    return m ? { complete: m.getAttribute('data-complete') === 'true', text: m.textContent } : null;
  });

describe('chat through the function binaries', () => {
  test('partial text of a streamed reply is visible before its response ends, and grows', async () => {
    const page = await stack.newPage();
    await signInAs(page, newUser('lambdachat'));
    await page.goto('/llm-chat');
    await page.getByRole('tab').first().waitFor();

    // The stream's response: when it arrives (head) and when its body ends.
    let ended = false;
    const streamEnded = new Promise((resolve, reject) => {
      page.on('requestfinished', (req) => {
        if (req.method() === 'POST' && new URL(req.url()).pathname === STREAM_PATH) {
          ended = true;
          resolve(req);
        }
      });
      page.on('requestfailed', (req) => {
        if (new URL(req.url()).pathname === STREAM_PATH) reject(new Error(`the chat stream failed: ${req.failure()?.errorText}`));
      });
    });
    const head = page.waitForResponse((res) => res.request().method() === 'POST' && new URL(res.url()).pathname === STREAM_PATH);

    const input = page.getByLabel('Message', { exact: true });
    await input.fill('Stream me a long answer');
    await input.press('Enter');

    const res = await head;
    assert.equal(res.status(), 200, `the chat function answered ${res.status()}`);
    assert.match(res.headers()['content-type'] ?? '', /text\/event-stream/);

    // The first words, while the reply is still streaming.
    const reply = page.getByTestId('messages').locator('[data-testid="message"][data-role="assistant"]').last();
    await reply.getByText('Local demo model').first().waitFor();
    const first = await lastReply(page);
    assert.equal(first.complete, false, 'the reply is still streaming when its first words show');
    assert.equal(ended, false, 'partial text is visible while the HTTP response is still open');

    // It grows in the page while the response stays open.
    await page.waitForFunction((n) => {
      const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop();
      return m && m.textContent.length > n;
    }, first.text.length);
    const later = await lastReply(page);
    assert.equal(ended, false, 'the reply grew while the response was still open');
    assert.ok(later.text.startsWith(first.text.slice(0, 20)), 'the same reply grew');

    // Then the stream ends and the whole reply is there.
    await streamEnded;
    await page.waitForFunction(
      () => [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop()?.getAttribute('data-complete') === 'true',
      null,
      { timeout: 60_000 },
    );
    const done = await lastReply(page);
    assert.match(done.text, /Set the provider's API key/, 'the whole reply arrived');
    assert.ok(done.text.length > later.text.length);
    await page.context().close();
  });
});

servedByFunctions(['auth', 'chat']);
