// Browser tests of accounts you can trust: a new account confirms
// its address through the mailed link before it gets free prompts; a
// forgotten password is reset through the mailed link and the old one stops
// working; logout ends the session on the server; tokens in the address
// (the Google callback's, the mailed links') never travel in a request URL
// or a Referer. Mail comes from the devserver's local outbox (/dev/mail).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { latestMail, newUser, signInAs, startStack } from './stack.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.stop();
});

const CONFIRM_DETAIL = 'Please confirm your email address to use free prompts.';

async function registerThroughForm(page, u) {
  await page.goto('/register');
  await page.getByLabel('Email').fill(u.email);
  await page.getByLabel('Username').fill(u.username);
  await page.getByLabel('Full name').fill(u.fullName);
  await page.getByLabel('Password', { exact: true }).fill(u.password);
  await page.getByLabel('Confirm password').fill(u.password);
  await page.getByRole('button', { name: 'Create account' }).click();
}

async function registerThroughApi(page, u) {
  const res = await page.request.post('/api/v1/auth/register', {
    data: { email: u.email, username: u.username, full_name: u.fullName, password: u.password },
  });
  assert.equal(res.status(), 201, await res.text());
  return res.json();
}

async function login(page, email, password) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Every mail the local outbox holds for email, newest first. */
async function mails(page, email) {
  const res = await page.request.get(`/dev/mail?format=json&to=${encodeURIComponent(email)}`);
  assert.equal(res.status(), 200);
  return res.json();
}

/** The newest link to `page` (e.g. '/reset-password') mailed to email, waiting for it to arrive. */
async function mailedLink(page, email, path, { notIn = [] } = {}) {
  // latestMail waits for the first mail; the one wanted may follow it.
  await latestMail(page, email);
  const deadline = Date.now() + 30_000;
  for (;;) {
    for (const mail of await mails(page, email)) {
      const link = mail.links.find((l) => new URL(l).pathname === path && !notIn.includes(l));
      if (link) return new URL(link);
    }
    if (Date.now() > deadline) throw new Error(`no ${path} link mailed to ${email}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Records every request of page's context: its URL, its Referer, and
 * whether it is the navigation we asked for (whose URL holds the token by
 * design: that is the link).
 */
function recordRequests(page) {
  const seen = [];
  const onRequest = (req) => {
    const entry = (h) => ({ url: req.url(), referer: h.referer ?? '', method: req.method(), navigation: req.isNavigationRequest() });
    // allHeaders has what the browser sent (Referer included); a closed page falls back to the headers known.
    seen.push(req.allHeaders().then(entry, () => entry(req.headers())));
  };
  page.context().on('request', onRequest);
  return {
    async assertNoneCarries(secret, { opened }) {
      page.context().off('request', onRequest);
      const all = await Promise.all(seen);
      assert.ok(all.length > 3, 'requests were recorded');
      for (const r of all) {
        assert.ok(!r.referer.includes(secret), `Referer of ${r.method} ${r.url} carries the token: ${r.referer}`);
        if (r.navigation && r.url === opened) continue;
        assert.ok(!r.url.includes(secret), `${r.method} ${r.url} carries the token in its URL`);
      }
      assert.ok(!page.url().includes(secret), `the address still holds the token: ${page.url()}`);
    },
  };
}

const card = (page, id) => page.locator(`[data-testid="prompt-card"][data-prompt-id="${id}"]`);

async function firstPrompt(page) {
  const res = await page.request.get('/api/v1/prompts/');
  assert.equal(res.status(), 200);
  return (await res.json()).items[0];
}

describe('email confirmation', () => {
  test('register → dashboard asks to confirm → the mailed link confirms → a free prompt opens', async () => {
    const page = await stack.newPage();
    const u = newUser('confirm');
    await registerThroughForm(page, u);
    await page.waitForURL('**/dashboard');
    const notice = page.getByTestId('confirm-email-notice');
    await notice.getByText('Confirm your email address').waitFor();
    await notice.getByText(u.email).waitFor();
    await notice.getByRole('button', { name: 'Resend email' }).waitFor();

    const link = await mailedLink(page, u.email, '/verify-email');
    const token = link.searchParams.get('token');
    const requests = recordRequests(page);
    const opened = new URL(link.pathname + link.search, stack.baseURL).href;
    await page.goto(link.pathname + link.search);
    await page.getByTestId('verify-result').getByText('Your email address is confirmed.').waitFor();
    await requests.assertNoneCarries(token, { opened });

    await page.getByRole('link', { name: 'Go to your dashboard' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByTestId('dashboard-greeting').waitFor();
    assert.equal(await page.getByTestId('confirm-email-notice').count(), 0, 'the notice is gone once confirmed');

    // A second open of the same link: spent, and the page says so.
    await page.goto(link.pathname + link.search);
    await page.getByTestId('verify-result').getByText('This confirmation link has already been used.', { exact: false }).waitFor();

    const prompt = await firstPrompt(page);
    await page.goto('/marketplace');
    await card(page, prompt.id).getByRole('button', { name: 'Use Free' }).click();
    await page.getByText('Prompt accessed successfully for free!').waitFor();
    await card(page, prompt.id).getByText('Used Free').first().waitFor();
    await page.context().close();
  });

  test("an unverified user's Use Free shows the server's detail and Resend email, which mails a new link", async () => {
    const page = await stack.newPage();
    const u = newUser('unverified');
    await signInAs(page, u, { verified: false });
    const prompt = await firstPrompt(page);
    await page.goto('/marketplace');
    await card(page, prompt.id).getByRole('button', { name: 'Use Free' }).click();
    const toast = page.getByTestId('toasts').getByRole('alert').filter({ hasText: CONFIRM_DETAIL });
    await toast.waitFor();
    const before = await mails(page, u.email);
    await toast.getByRole('button', { name: 'Resend email' }).click();
    await page.getByTestId('toasts').getByText(`We sent a new confirmation link to ${u.email}`, { exact: false }).waitFor();
    const after = await mails(page, u.email);
    assert.equal(after.length, before.length + 1, 'Resend mailed one more confirmation');
    // Nothing was unlocked.
    await card(page, prompt.id).getByRole('button', { name: 'Use Free' }).waitFor();
    assert.equal(await page.getByText('Prompt accessed successfully for free!').count(), 0);

    // The new link works; then the same button opens the prompt.
    const link = await mailedLink(page, u.email, '/verify-email', { notIn: before.flatMap((m) => m.links) });
    await page.goto(link.pathname + link.search);
    await page.getByTestId('verify-result').getByText('Your email address is confirmed.').waitFor();
    await page.goto('/marketplace');
    await card(page, prompt.id).getByRole('button', { name: 'Use Free' }).click();
    await page.getByText('Prompt accessed successfully for free!').waitFor();
    await page.context().close();
  });
});

describe('forgotten password', () => {
  test('forgot → mailed link → new password → signed in → logout ends the session → only the new password works', async () => {
    const page = await stack.newPage();
    const u = newUser('forgot');
    await registerThroughApi(page, u);
    const newPassword = `${u.password}-new`;

    await page.goto('/login');
    await page.getByLabel('Email').fill(u.email);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL((url) => url.pathname === '/forgot-password');
    // The email typed on the sign-in page came along (not through the address).
    assert.equal(await page.getByLabel('Email').inputValue(), u.email);
    assert.equal(new URL(page.url()).search, '');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByTestId('forgot-sent').getByText('If an account exists for that email', { exact: false }).waitFor();

    // The same answer for an address nobody registered.
    const stranger = await stack.newPage();
    await stranger.goto('/forgot-password');
    await stranger.getByLabel('Email').fill(newUser('nobody').email);
    await stranger.getByRole('button', { name: 'Send reset link' }).click();
    const shown = await stranger.getByTestId('forgot-sent').innerText();
    assert.equal(shown, await page.getByTestId('forgot-sent').innerText());
    await stranger.context().close();

    const link = await mailedLink(page, u.email, '/reset-password');
    const token = link.searchParams.get('token');
    const requests = recordRequests(page);
    const opened = new URL(link.pathname + link.search, stack.baseURL).href;
    await page.goto(link.pathname + link.search);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await Promise.all([
      page.getByText('Your password has been changed. You are signed in.').waitFor(),
      page.getByRole('button', { name: 'Set new password' }).click(),
    ]);
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByTestId('dashboard-greeting').getByText(`Welcome back, ${u.fullName}!`).waitFor();
    await requests.assertNoneCarries(token, { opened });
    // The link proved the address: no confirmation notice.
    assert.equal(await page.getByTestId('confirm-email-notice').count(), 0);

    // Logout ends this session on the server: its token is refused afterwards.
    const session = await page.evaluate(() => JSON.parse(localStorage.getItem('auth-storage')).token);
    assert.equal((await page.request.get('/api/v1/auth/me', { headers: { Authorization: `Bearer ${session}` } })).status(), 200);
    const logoutCall = page.waitForRequest((r) => r.url().endsWith('/api/v1/auth/logout') && r.method() === 'POST');
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    assert.equal((await logoutCall).headers().authorization, `Bearer ${session}`);
    let status = 0;
    for (let i = 0; i < 300 && status !== 401; i++) {
      status = (await page.request.get('/api/v1/auth/me', { headers: { Authorization: `Bearer ${session}` } })).status();
      if (status !== 401) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, 401, 'the logged-out token is refused');

    await page.goto('/login');
    await login(page, u.email, u.password);
    await page.getByText('Incorrect email or password').waitFor();
    assert.equal(new URL(page.url()).pathname, '/login');
    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await Promise.all([page.getByText('Login successful!').waitFor(), page.waitForURL('**/dashboard')]);

    // The reset link was single-use.
    await page.goto(link.pathname + link.search);
    await page.getByLabel('New password', { exact: true }).fill('another-one');
    await page.getByLabel('Confirm new password').fill('another-one');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByTestId('reset-refused').getByText('This reset link has already been used.', { exact: false }).waitFor();
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL((url) => url.pathname === '/forgot-password');
    await page.context().close();
  });
});

describe('tokens in the address', () => {
  test('/auth/callback?token=…: no request URL or Referer carries the token, and the sign-in completes', async () => {
    const page = await stack.newPage();
    const u = newUser('callback');
    const { access_token: token } = await registerThroughApi(page, u);
    const requests = recordRequests(page);
    const path = `/auth/callback?token=${encodeURIComponent(token)}&type=google`;
    await Promise.all([page.getByText('Google login successful!').waitFor(), page.goto(path)]);
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByTestId('dashboard-greeting').getByText(`Welcome back, ${u.fullName}!`).waitFor();
    await requests.assertNoneCarries(token, { opened: new URL(path, stack.baseURL).href });
    await page.context().close();
  });
});
