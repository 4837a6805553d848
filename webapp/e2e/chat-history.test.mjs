// Browser tests of conversations kept with the account against
// the devserver and its slow local demo model: a reload mid-reply
// re-attaches to the reply, which completes on screen; a second browser of
// the same user sees the same tabs and messages; Stop ends a reply; a
// closed tab is in History, found by search, reopened, and deleted for
// good; History works by keyboard and fits a 390 px phone; chats an
// earlier version kept in the browser are uploaded once (Chat Sessions
// on the dashboard counts them); logout leaves
// nothing of the conversation in the browser's storage, and signing in
// again brings it back from the server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newUser, signInAs, startStack } from './stack.mjs';
import { lastReply, replyState, waitComplete, waitGrowth, waitStreaming } from './chat-page.mjs';

let stack;
before(async () => {
  // About 50 chunks per demo reply at 150 ms: some 7 s to reload or press Stop while it streams.
  stack = await startStack({ DEMO_CHUNK_DELAY: '150ms' });
});
after(async () => {
  await stack?.stop();
});

const messages = (page) => page.getByTestId('messages').locator('[data-testid="message"]');
const tabTitles = async (page) => (await page.getByRole('tab').allInnerTexts()).map((t) => t.trim());

async function send(page, text) {
  const input = page.getByLabel('Message', { exact: true });
  await input.fill(text);
  await input.press('Enter');
}

/** A signed-in page on /llm-chat; `session` signs in as that user (another browser of it) instead of a new one. */
async function openChat({ session, viewport = { width: 1280, height: 800 }, tag = 'history' } = {}) {
  const page = await stack.newPage({ viewport });
  if (session) {
    await page.context().addInitScript(
      ([user, token]) => {
        if (!localStorage.getItem('auth-storage')) localStorage.setItem('auth-storage', JSON.stringify({ user, token, isAuthenticated: true }));
      },
      [session.user, session.access_token],
    );
  } else {
    session = await signInAs(page, newUser(tag));
  }
  await page.goto('/llm-chat');
  await page.getByRole('tab').first().waitFor();
  return { page, session, auth: { Authorization: `Bearer ${session.access_token}` } };
}

/** The user's conversations as the API lists them. */
async function listed(page, auth, archived = false) {
  const res = await page.request.get(`/api/v1/chat/conversations?archived=${archived}`, { headers: auth });
  assert.equal(res.status(), 200, await res.text());
  return (await res.json()).conversations;
}

describe('conversations kept with the account', () => {
  test('a reload mid-reply re-attaches: the reply keeps streaming on screen and completes; another browser of the same user sees the same tabs', async () => {
    const { page, session, auth } = await openChat({ tag: 'reload' });
    await send(page, 'Tell me a long story');
    await waitStreaming(page);
    await page.getByRole('tab', { name: 'Tell me a long story' }).waitFor();
    const before = await replyState(page);
    assert.equal(before.complete, false, 'still streaming before the reload (make DEMO_CHUNK_DELAY slower if this fails)');

    await page.reload();
    await page.getByRole('tab', { name: 'Tell me a long story' }).waitFor();
    await lastReply(page).waitFor();
    const after = await replyState(page);
    assert.equal(after.complete, false, `the reply is still being generated after the reload: ${JSON.stringify(await lastReply(page).innerText())}`);
    // It grows on screen: the server goes on, and the page is attached to it again.
    await waitGrowth(page, after.length);
    // Stop is offered while it streams (on a busy machine the reply may end first).
    const stop = page.getByRole('button', { name: 'Stop', exact: true });
    await stack.until('Stop while the reply streams, or its end', async () => (await stop.isVisible()) || (await replyState(page)).complete);
    await waitComplete(page);
    const text = await lastReply(page).innerText();
    assert.match(text, /Local demo model/);
    assert.match(text, /Set the provider's API key/, 'the whole reply arrived');
    await lastReply(page).getByTestId('message-usage').waitFor();
    assert.equal(await messages(page).count(), 2, 'one question, one reply');
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor();

    // A second tab, made on the server too.
    await page.getByRole('button', { name: 'New chat' }).click();
    await page.getByRole('tab', { name: 'Chat 2' }).waitFor();
    await stack.until('the new tab to be a conversation', async () => (await listed(page, auth)).length === 2);

    // Another browser (own storage) of the same user: the same tabs, newest first, and the same messages.
    const other = await openChat({ session });
    await other.page.getByRole('tab', { name: 'Chat 2' }).waitFor();
    assert.deepEqual(await tabTitles(other.page), ['Chat 2', 'Tell me a long story']);
    // This browser opened Chat 2 after the other tab (next to '+'); reloaded, it shows the server's order too.
    assert.deepEqual(await tabTitles(page), ['Tell me a long story', 'Chat 2']);
    await page.reload();
    await page.getByRole('tab', { name: 'Chat 2' }).waitFor();
    await stack.until('the tabs in the server order', async () => JSON.stringify(await tabTitles(page)) === JSON.stringify(['Chat 2', 'Tell me a long story']));
    await other.page.getByRole('tab', { name: 'Tell me a long story' }).click();
    await other.page.waitForFunction(() => document.querySelectorAll('[data-testid="message"]').length === 2);
    assert.equal(await lastReply(other.page).innerText(), text);
    await other.page.context().close();
    await page.context().close();
  });

  test('Stop ends a reply: it stays as far as it got, marked Stopped, also after a reload', async () => {
    const { page } = await openChat({ tag: 'stop' });
    await send(page, 'Go on and on');
    await waitStreaming(page);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await waitComplete(page);
    await lastReply(page).getByTestId('message-stopped').getByText('Stopped').waitFor();
    const text = await lastReply(page).innerText();
    assert.doesNotMatch(text, /Set the provider's API key/, 'stopped before its end');
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor();

    await page.reload();
    await page.getByRole('tab', { name: 'Go on and on' }).waitFor();
    await lastReply(page).getByTestId('message-stopped').waitFor();
    assert.equal(await lastReply(page).getAttribute('data-complete'), 'true');
    await page.context().close();
  });

  test('a closed tab is in History: search finds it, Reopen brings it back, Delete removes it for good', async () => {
    const { page, auth } = await openChat({ tag: 'archive' });
    await send(page, 'Plan the garden party');
    await waitComplete(page);
    await page.getByRole('button', { name: 'New chat' }).click();
    await send(page, 'Budget for the third quarter');
    await waitComplete(page);

    // Closing archives it.
    await page.getByRole('button', { name: 'Close Plan the garden party' }).click();
    assert.deepEqual(await tabTitles(page), ['Budget for the third quarter']);
    await stack.until('the conversation to be archived', async () => (await listed(page, auth, true)).length === 1);

    await page.getByRole('button', { name: 'History' }).click();
    const dialog = page.getByRole('dialog', { name: 'History' });
    const items = dialog.getByTestId('history-item');
    await items.first().waitFor();
    assert.equal(await items.count(), 1);
    assert.match(await items.first().innerText(), /Plan the garden party/);
    assert.match(await items.first().innerText(), /2 messages/);

    // Search by its text and by title; a miss says so.
    const search = dialog.getByRole('searchbox', { name: 'Search conversations' });
    await search.fill('zebra crossing');
    await dialog.getByTestId('history-empty').getByText('No archived conversation matches “zebra crossing”.').waitFor();
    await search.fill('garden');
    await items.first().waitFor();
    assert.equal(await items.count(), 1);

    // Reopen: a tab again (next to '+'), active, with its messages.
    await dialog.getByRole('button', { name: 'Reopen Plan the garden party' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.deepEqual(await tabTitles(page), ['Budget for the third quarter', 'Plan the garden party']);
    assert.equal(await page.getByRole('tab', { name: 'Plan the garden party' }).getAttribute('aria-selected'), 'true');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="message"]').length === 2);
    assert.match(await lastReply(page).innerText(), /Local demo model/);
    assert.equal((await listed(page, auth, true)).length, 0);

    // Closed again, then deleted for good (after a confirm).
    await page.getByRole('button', { name: 'Close Plan the garden party' }).click();
    await stack.until('the conversation to be archived again', async () => (await listed(page, auth, true)).length === 1);
    await page.getByRole('button', { name: 'History' }).click();
    await dialog.getByRole('button', { name: 'Delete Plan the garden party' }).click();
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    await dialog.getByTestId('history-empty').waitFor();
    assert.equal((await listed(page, auth, true)).length, 0);
    assert.deepEqual((await listed(page, auth)).map((c) => c.title), ['Budget for the third quarter']);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await page.reload();
    await page.getByRole('tab', { name: 'Budget for the third quarter' }).waitFor();
    assert.deepEqual(await tabTitles(page), ['Budget for the third quarter']);
    await page.context().close();
  });

  test('History on a 390 px phone, by keyboard: it fits, Reopen and Delete work without a mouse', async () => {
    const { page, auth } = await openChat({ tag: 'phone', viewport: { width: 390, height: 844 } });
    await send(page, 'Phone note');
    await waitComplete(page);
    await page.getByRole('button', { name: 'New chat' }).click();
    await page.getByRole('tab', { name: 'Chat 2' }).waitFor();
    await page.getByRole('button', { name: 'Close Phone note' }).click();
    await stack.until('the conversation to be archived', async () => (await listed(page, auth, true)).length === 1);

    const history = page.getByRole('button', { name: 'History' });
    await history.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'History' });
    await dialog.getByTestId('history-item').first().waitFor();
    const box = await dialog.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `History fits the screen: ${JSON.stringify(box)}`);
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    assert.ok(widths[0] <= widths[1], `no horizontal scroll: ${widths}`);
    // The search box has focus; Tab reaches Reopen.
    assert.equal(await dialog.getByRole('searchbox').evaluate((el) => el === document.activeElement), true);
    const reopen = dialog.getByRole('button', { name: 'Reopen Phone note' });
    for (let i = 0; i < 5 && !(await reopen.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    assert.equal(await reopen.evaluate((el) => el === document.activeElement), true, 'Reopen is reached by Tab');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('tab', { name: 'Phone note' }).getAttribute('aria-selected'), 'true');

    // Delete by keyboard: Delete, then the confirm (Cancel has focus; Shift+Tab reaches Delete for good).
    await page.getByRole('button', { name: 'Close Phone note' }).click();
    await stack.until('the conversation to be archived', async () => (await listed(page, auth, true)).length === 1);
    await history.focus();
    await page.keyboard.press('Enter');
    const remove = dialog.getByRole('button', { name: 'Delete Phone note' });
    await remove.waitFor();
    await remove.focus();
    await page.keyboard.press('Enter');
    const cancel = dialog.getByRole('button', { name: 'Cancel' });
    await cancel.waitFor();
    assert.equal(await cancel.evaluate((el) => el === document.activeElement), true, 'the confirm takes focus');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await dialog.getByTestId('history-empty').waitFor();
    assert.equal((await listed(page, auth, true)).length, 0);
    await page.context().close();
  });

  test('chats an earlier version kept only in the browser are uploaded once, with their messages; another browser of the user has them; Chat Sessions counts them', async () => {
    const page = await stack.newPage();
    const session = await signInAs(page, newUser('legacy'));
    const uid = session.user.id;
    const at = '2026-01-02T03:04:05.000Z';
    const tabs = [
      { id: 'old-a', title: 'Garden plans', provider: 'openai', model: 'gpt-4o-mini', createdAt: at },
      { id: 'old-b', title: 'Trip notes', provider: 'openai', model: 'gpt-4o-mini', createdAt: at },
    ];
    const conversations = {
      'old-a': [
        { id: 'a1', role: 'user', content: 'Which roses climb?', timestamp: at, complete: true },
        { id: 'a2', role: 'assistant', content: 'Rambling roses do.', timestamp: at, complete: true, usage: { input_tokens: 4, output_tokens: 4, cost_usd: 0 } },
      ],
      'old-b': [{ id: 'b1', role: 'user', content: 'Trains to Turin', timestamp: at, complete: true }],
    };
    // What the version before conversations were kept with the account left in storage (once, before the app starts).
    await page.context().addInitScript(
      ([uid, tabs, conversations]) => {
        if (sessionStorage.getItem('legacy-seeded')) return;
        sessionStorage.setItem('legacy-seeded', '1');
        localStorage.setItem(`chat-tabs:${uid}`, JSON.stringify(tabs));
        localStorage.setItem(`chat-active-tab:${uid}`, 'old-a');
        localStorage.setItem(`chat-conversations:${uid}`, JSON.stringify(conversations));
      },
      [uid, tabs, conversations],
    );
    await page.goto('/llm-chat');
    await page.getByRole('tab', { name: 'Garden plans' }).waitFor();
    await page.getByRole('tab', { name: 'Trip notes' }).waitFor();
    assert.match(await page.getByTestId('messages').innerText(), /Rambling roses do\./);
    const auth = { Authorization: `Bearer ${session.access_token}` };
    let stored = [];
    await stack.until('both old tabs uploaded', async () => (stored = await listed(page, auth)).length === 2);
    assert.deepEqual(stored.map((c) => [c.title, c.message_count]), [['Garden plans', 2], ['Trip notes', 1]], 'the first tab ends newest');

    // A reload uploads nothing again; the messages come from the server.
    await page.reload();
    await page.getByRole('tab', { name: 'Garden plans' }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="message"]').length === 2);
    assert.equal((await listed(page, auth)).length, 2, 'uploaded once');
    assert.equal(await page.getByTestId('legacy-note').count(), 0);

    // Another browser of the same user: the same tabs and messages, and the dashboard counts them.
    const other = await openChat({ session });
    await other.page.getByRole('tab', { name: 'Trip notes' }).click();
    await other.page.getByText('Trains to Turin').waitFor();
    await other.page.goto('/dashboard');
    await other.page.getByRole('link', { name: 'Chat Sessions: 2' }).waitFor();
    await other.page.context().close();
    await page.context().close();
  });

  test('logout leaves nothing of the conversation in the browser; signing in again brings it back from the server', async () => {
    const SECRET = 'Keep this between us: the surprise party';
    const u = newUser('logout');
    const page = await stack.newPage();
    const res = await page.request.post('/api/v1/auth/register', {
      data: { email: u.email, username: u.username, full_name: u.fullName, password: u.password },
    });
    assert.equal(res.status(), 201, await res.text());
    const login = async () => {
      await page.goto('/login');
      await page.getByLabel('Email').fill(u.email);
      await page.getByLabel('Password', { exact: true }).fill(u.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/dashboard');
      await page.getByRole('link', { name: 'LLM Chat' }).first().click();
      await page.waitForURL((url) => url.pathname === '/llm-chat');
      await page.getByRole('tab').first().waitFor();
    };
    const storedText = () => page.evaluate(() => Object.keys(localStorage).map((k) => `${k}=${localStorage.getItem(k)}`).join('\n'));

    await login();
    await send(page, SECRET);
    await waitComplete(page);
    assert.match(await storedText(), /surprise party/, 'the browser keeps a copy while signed in');

    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const left = await storedText();
    assert.doesNotMatch(left, /surprise party|Keep this between us/, `the conversation is still in localStorage:\n${left}`);
    assert.doesNotMatch(left, /^chat-(tabs|active-tab|conversations)/m, 'chat keys left after logout');

    await login();
    await page.getByRole('tab', { name: 'Keep this between us: the sur' }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="message"]').length === 2);
    assert.match(await page.getByTestId('messages').innerText(), /surprise party/);
    await page.context().close();
  });
});
