// Privacy between accounts on one browser: what one account wrote
// in the chat never reaches the next person who signs in on the same browser.
//
// Decision: chat tabs, conversations, the chat hand-off and the MCP
// connection copies are stored per user id (`<base>:<uid>`) AND removed when
// the session ends (logout, or a 401 that clears it): nothing of A's stays
// in the browser for the next person. Conversations are kept with the
// account on the server, so when A signs in again, A's own
// conversation comes back from there.
//
// Every sign-in goes through the login form in the same browser context
// (stack.mjs signInAs is not used: its init script would restore A's session
// on every navigation). Pages change by in-app links after sign-in, so
// anything the app kept in memory between accounts would show too.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newUser, startStack } from './stack.mjs';

const SECRET = 'My private note: salary negotiation';
/** Any part of it that could be left behind (the tab title keeps 30 characters). */
const TRACES = ['salary negotiation', 'My private note', 'salary negoti'];

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.stop();
});

async function register(page, u) {
  const res = await page.request.post('/api/v1/auth/register', {
    data: { email: u.email, username: u.username, full_name: u.fullName, password: u.password },
  });
  assert.equal(res.status(), 201, await res.text());
  return (await res.json()).user;
}

async function loginThroughForm(page, u) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(u.email);
  await page.getByLabel('Password', { exact: true }).fill(u.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard');
  await page.getByTestId('dashboard-greeting').getByText(`Welcome back, ${u.fullName}!`).waitFor();
}

async function logoutThroughMenu(page) {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByRole('link', { name: 'Login' }).first().waitFor();
}

/** To the chat by the top bar's link (no reload: in-memory state would show). */
async function openChatByLink(page) {
  await page.getByRole('link', { name: 'LLM Chat' }).first().click();
  await page.waitForURL((url) => url.pathname === '/llm-chat');
  await page.getByRole('tab').first().waitFor();
}

/** Both storage areas, as {local: {key: value}, session: {key: value}}. */
function storage(page) {
  return page.evaluate(() => ({
    local: Object.fromEntries(Object.keys(localStorage).map((k) => [k, localStorage.getItem(k)])),
    session: Object.fromEntries(Object.keys(sessionStorage).map((k) => [k, sessionStorage.getItem(k)])),
  }));
}

/** Fails naming every place (page text, markup, attribute, storage key) that still holds A's text. */
async function assertNoTrace(page, when) {
  const { local, session } = await storage(page);
  const html = await page.evaluate(() => document.documentElement.outerHTML);
  const text = await page.evaluate(() => document.body.innerText);
  const found = [];
  for (const t of TRACES) {
    if (text.includes(t)) found.push(`page text holds "${t}"`);
    if (html.includes(t)) found.push(`page markup holds "${t}"`);
    for (const [k, v] of Object.entries(local)) if (`${k}${v}`.includes(t)) found.push(`localStorage ${k} holds "${t}"`);
    for (const [k, v] of Object.entries(session)) if (`${k}${v}`.includes(t)) found.push(`sessionStorage ${k} holds "${t}"`);
  }
  assert.deepEqual(found, [], `${when}: A's text is still in the browser`);
}

/** The chat shows exactly one tab, 'Chat 1', and no message. */
async function assertFreshChat(page, when) {
  await page.getByRole('tab', { name: 'Chat 1' }).waitFor();
  const tabs = await page.getByRole('tab').allInnerTexts();
  assert.deepEqual(
    tabs.map((t) => t.trim()),
    ['Chat 1'],
    `${when}: expected a fresh 'Chat 1', got ${JSON.stringify(tabs)}`,
  );
  assert.equal(await page.getByTestId('messages').locator('[data-testid="message"]').count(), 0, `${when}: messages shown`);
  await page.getByText('Start chatting with').first().waitFor();
}

const perUserKeys = (local) => Object.keys(local).filter((k) => /^(chat-tabs|chat-active-tab|chat-conversations|mcp-connections)(:|$)/.test(k));

describe('privacy between accounts on one browser', () => {
  test('A chats and logs out; B signs in on the same browser and sees none of it; A signs in again and gets her conversation back from the server', async () => {
    const page = await stack.newPage();
    const A = newUser('alice');
    const B = newUser('bob');
    const userA = await register(page, A);
    const userB = await register(page, B);

    // --- A chats with the demo model.
    await loginThroughForm(page, A);
    await openChatByLink(page);
    // The demo model stands in for every provider on the devserver.
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByTestId('connection-status').getByText('Connected').waitFor();
    const input = page.getByLabel('Message', { exact: true });
    await input.fill(SECRET);
    await input.press('Enter');
    await page.waitForFunction(
      () => {
        const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop();
        return m && m.getAttribute('data-complete') === 'true';
      },
      null,
      { timeout: 30_000 },
    );
    await page.getByTestId('messages').getByText(SECRET).first().waitFor();
    // A 'Use in Chat' hand-off left pending in this browser tab.
    await page.evaluate((text) => sessionStorage.setItem('chat-prefill', text), SECRET);

    // Stored for A only, under A's id; nothing under the bare keys.
    const during = await storage(page);
    const aKeys = Object.keys(during.local).filter((k) => k.endsWith(`:${userA.id}`));
    assert.ok(aKeys.includes(`chat-conversations:${userA.id}`), `A's conversation not stored per user: ${JSON.stringify(Object.keys(during.local))}`);
    assert.ok(during.local[`chat-conversations:${userA.id}`].includes(SECRET));
    for (const bare of ['chat-tabs', 'chat-active-tab', 'chat-conversations', 'mcp-connections']) {
      assert.equal(during.local[bare], undefined, `${bare} stored without a user id`);
    }

    // --- A logs out: the session takes A's data with it.
    await logoutThroughMenu(page);
    await assertNoTrace(page, 'after A logged out');
    assert.deepEqual(perUserKeys((await storage(page)).local), [], 'per-user keys left after logout');

    // --- B signs in through the form in the same context.
    await loginThroughForm(page, B);
    await openChatByLink(page);
    await assertFreshChat(page, 'B');
    await assertNoTrace(page, 'B in the chat');
    // Whatever B's chat stores is B's own.
    for (const k of perUserKeys((await storage(page)).local)) assert.ok(k.endsWith(`:${userB.id}`), `B's browser holds ${k}`);
    // A full reload (state rebuilt from storage only) is just as clean.
    await page.reload();
    await assertFreshChat(page, 'B after a reload');
    await assertNoTrace(page, 'B after a reload');

    // --- B logs out, leaving nothing either; A signs in again: her
    // conversation comes back from the server (see the decision above).
    await logoutThroughMenu(page);
    assert.deepEqual(perUserKeys((await storage(page)).local), [], 'per-user keys left after B logged out');
    await loginThroughForm(page, A);
    await openChatByLink(page);
    await page.getByRole('tab', { name: SECRET.slice(0, 30) }).waitFor();
    await page.getByTestId('messages').getByText(SECRET).first().waitFor();
    for (const k of perUserKeys((await storage(page)).local)) assert.ok(k.endsWith(`:${userA.id}`), `A's browser holds ${k}`);
    await page.context().close();
  });
});
