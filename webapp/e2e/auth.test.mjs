// Browser tests of the foundation: sign-up, sign-in, sign-out, the route
// guard with its redirect, theme persistence, the admin menu entry.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newUser, startStack, verifyEmail } from './stack.mjs';

const ADMIN = newUser('admin');
let stack;

before(async () => {
  stack = await startStack({ ADMIN_EMAILS: ADMIN.email });
});
after(async () => {
  await stack?.stop();
});

async function register(page, u) {
  await page.goto('/register');
  await page.getByLabel('Email').fill(u.email);
  await page.getByLabel('Username').fill(u.username);
  await page.getByLabel('Full name').fill(u.fullName);
  await page.getByLabel('Password', { exact: true }).fill(u.password);
  await page.getByLabel('Confirm password').fill(u.password);
  await page.getByRole('button', { name: 'Create account' }).click();
}

async function login(page, email, password) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function logout(page) {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
}

const pathOf = (page) => new URL(page.url()).pathname + new URL(page.url()).search;

describe('accounts', () => {
  test('register → dashboard → logout → wrong password error → login', async () => {
    const page = await stack.newPage();
    const u = newUser('alice');
    await register(page, u);
    // A toast lives 4 s: watch for it alongside the navigation, not after it.
    await Promise.all([page.getByText('Registration successful!').waitFor(), page.waitForURL('**/dashboard')]);
    await page.getByTestId('dashboard-greeting').getByText(`Welcome back, ${u.fullName}!`).waitFor();
    // Initials avatar: first letters of the full name.
    assert.equal((await page.getByTestId('user-menu').innerText()).trim(), 'TA');
    // The activity list shows the account creation recorded by the server.
    await page.getByText('Account created').waitFor();

    await logout(page);
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('link', { name: 'Login' }).first().waitFor();

    await page.goto('/login');
    await login(page, u.email, 'wrong-password');
    await page.getByText('Incorrect email or password').waitFor();
    assert.equal(new URL(page.url()).pathname, '/login');
    // Nothing typed is lost on a failed attempt.
    assert.equal(await page.getByLabel('Email').inputValue(), u.email);

    await page.getByLabel('Password', { exact: true }).fill(u.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await Promise.all([page.getByText('Login successful!').waitFor(), page.waitForURL('**/dashboard')]);
    await page.context().close();
  });

  test('register shows the form messages and keeps input', async () => {
    const page = await stack.newPage();
    await page.goto('/register');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Username').fill('ab');
    await page.getByLabel('Password', { exact: true }).fill('secret-1');
    await page.getByLabel('Confirm password').fill('secret-2');
    // The fields left show their errors a moment after (as a person sees them before reaching the button);
    // clicking while they appear would aim at a button they push down.
    for (const text of ['Invalid email address', 'Username must be at least 3 characters']) {
      await page.getByText(text).first().waitFor();
    }
    await page.getByRole('button', { name: 'Create account' }).click();
    for (const text of ['Full name is required', 'Passwords do not match']) {
      await page.getByText(text).first().waitFor();
    }
    assert.equal(new URL(page.url()).pathname, '/register');
    assert.equal(await page.getByLabel('Username').inputValue(), 'ab');
    await page.context().close();
  });

  test('a duplicate email in another case is refused with the server detail', async () => {
    const page = await stack.newPage();
    const u = newUser('dup');
    await register(page, u);
    await page.waitForURL('**/dashboard');
    await logout(page);
    await page.waitForURL((url) => url.pathname === '/');
    await register(page, { ...u, email: u.email.toUpperCase(), username: `${u.username}x` });
    await page.getByText('Email already registered').waitFor();
    assert.equal(new URL(page.url()).pathname, '/register');
    await page.context().close();
  });
});

describe('route guard and redirects', () => {
  test('signed out /llm-chat goes to /login?redirect=/llm-chat and lands there after sign-in', async () => {
    const page = await stack.newPage();
    const u = newUser('bob');
    const res = await page.request.post('/api/v1/auth/register', {
      data: { email: u.email, username: u.username, full_name: u.fullName, password: u.password },
    });
    assert.equal(res.status(), 201);
    await page.goto('/llm-chat');
    await page.waitForURL('**/login?redirect=%2Fllm-chat');
    assert.equal(pathOf(page), '/login?redirect=%2Fllm-chat');
    await login(page, u.email, u.password);
    await page.waitForURL((url) => url.pathname === '/llm-chat');
    // Signed in, /login and /register go home.
    await page.goto('/login');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/register');
    await page.waitForURL((url) => url.pathname === '/');
    await page.context().close();
  });

  for (const evil of ['//evil.example', '/\\evil.example', 'https://evil.example/x']) {
    test(`/login?redirect=${evil} lands on /dashboard`, async () => {
      const page = await stack.newPage();
      const u = newUser('carol');
      await page.request.post('/api/v1/auth/register', {
        data: { email: u.email, username: u.username, full_name: u.fullName, password: u.password },
      });
      await page.goto(`/login?redirect=${encodeURIComponent(evil)}`);
      await login(page, u.email, u.password);
      await page.waitForURL((url) => url.pathname === '/dashboard');
      assert.equal(new URL(page.url()).host, new URL(stack.baseURL).host);
      await page.context().close();
    });
  }

  test('an expired stored session is cleared at start-up', async () => {
    const page = await stack.newPage();
    await page.goto('/');
    // A token whose exp is in the past (signature irrelevant: the client reads exp only).
    const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const expired = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: 'x', exp: 1 })}.sig`;
    await page.evaluate((token) => {
      for (const key of Object.keys(localStorage)) localStorage.removeItem(key);
      localStorage.setItem('auth-storage', JSON.stringify({ user: { id: 'x', email: 'x@example.com', username: 'x', full_name: 'X' }, token, isAuthenticated: true }));
    }, expired);
    await page.goto('/dashboard');
    await page.waitForURL((url) => url.pathname === '/login');
    await page.context().close();
  });

  test('the OAuth callback without a token goes to the login error', async () => {
    const page = await stack.newPage();
    await page.goto('/auth/callback?type=google');
    await page.waitForURL('**/login?error=no_token');
    await page.goto('/auth/callback?error=access_denied');
    await page.waitForURL('**/login?error=oauth_failed');
    await page.goto('/auth/callback?token=abc&type=google');
    await page.waitForURL('**/login?error=token_processing_failed');
    await page.context().close();
  });
});

describe('shell', () => {
  test('theme toggle survives a reload', async () => {
    const page = await stack.newPage({ colorScheme: 'light' });
    await page.goto('/user-guide');
    const toggle = page.getByTestId('theme-toggle');
    assert.equal(await toggle.getAttribute('data-theme-current'), 'light');
    await toggle.click();
    assert.equal(await toggle.getAttribute('data-theme-current'), 'dark');
    await page.reload();
    assert.equal(await page.getByTestId('theme-toggle').getAttribute('data-theme-current'), 'dark');
    await page.context().close();
  });

  test('the system preference decides the first theme', async () => {
    const page = await stack.newPage({ colorScheme: 'dark' });
    await page.goto('/');
    assert.equal(await page.getByTestId('theme-toggle').getAttribute('data-theme-current'), 'dark');
    await page.context().close();
  });

  test('Admin appears in the side menu only for admins', async () => {
    const page = await stack.newPage();
    const plain = newUser('dave');
    await register(page, plain);
    await page.waitForURL('**/dashboard');
    await page.getByTestId('side-menu-button').click();
    const menu = page.getByRole('dialog', { name: 'Side menu' });
    await menu.getByRole('link', { name: 'Dashboard' }).waitFor();
    assert.equal(await menu.getByRole('link', { name: 'Admin' }).count(), 0);
    await page.context().close();

    // ADMIN_EMAILS grants admin only once the address is proven: confirm it
    // through the local outbox, then sign in again to get the new rights.
    const adminPage = await stack.newPage();
    await register(adminPage, ADMIN);
    await adminPage.waitForURL('**/dashboard');
    await verifyEmail(adminPage, ADMIN);
    await logout(adminPage);
    await adminPage.waitForURL((url) => url.pathname === '/');
    await adminPage.goto('/login');
    await login(adminPage, ADMIN.email, ADMIN.password);
    await adminPage.waitForURL('**/dashboard');
    await adminPage.getByTestId('side-menu-button').click();
    await adminPage.getByRole('dialog', { name: 'Side menu' }).getByRole('link', { name: 'Admin' }).click();
    await adminPage.waitForURL((url) => url.pathname === '/admin/prompts');
    await adminPage.getByRole('heading', { level: 1, name: 'Admin' }).waitFor();
    await adminPage.context().close();
  });

  test('every route of the spec answers with the app, and placeholders say what SPEC says', async () => {
    const page = await stack.newPage();
    // /admin is guarded, not a placeholder: a visitor is sent to log in (e2e/admin.test.mjs).
    await page.goto('/chat');
    await page.getByText('Chat interface coming soon...').first().waitFor();
    for (const path of ['/', '/user-guide', '/marketplace', '/agents', '/registry', '/payment/cancel', '/login', '/register']) {
      const res = await page.goto(path);
      assert.equal(res.status(), 200, path);
      await page.getByTestId('theme-toggle').waitFor();
    }
    await page.context().close();
  });

  test('works at phone width without horizontal scrolling', async () => {
    const page = await stack.newPage({ viewport: { width: 375, height: 740 } });
    for (const path of ['/', '/login', '/register', '/user-guide']) {
      await page.goto(path);
      await page.getByTestId('side-menu-button').waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${path} scrolls sideways by ${overflow}px`);
    }
    await page.context().close();
  });
});
