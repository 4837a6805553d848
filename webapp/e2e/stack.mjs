// Starts the product the way `make run` does (the devserver binary with its
// own dynalite) on a free port with a throw-away data directory, and a
// headless Debian Chromium driven by playwright-core.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const repoRoot = resolve(import.meta.dirname, '..', '..');

/** Whether 127.0.0.1:port can be listened on now. */
function canListen(port) {
  return new Promise((res) => {
    const srv = createServer();
    srv.once('error', () => res(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => res(true)));
  });
}

/**
 * A loopback port free a moment ago, below the kernel's ephemeral range, as
 * shared/testbed/localproc.FreePort picks them: a port from that range is handed
 * out again at once, so with files side by side a devserver and another
 * stack's dynalite were once given one port.
 */
async function freePort() {
  let [lo, hi] = [20000, 30000];
  try {
    const [start] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (start >= 12000) [lo, hi] = [10000, start];
  } catch {
    /* not Linux: the fallback range */
  }
  for (let i = 0; i < 50; i++) {
    const port = lo + Math.floor(Math.random() * (hi - lo));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${lo}–${hi}`);
}

async function waitHealthy(url, child, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`devserver exited with ${child.exitCode}`);
    try {
      // The devserver's own answer: another process on the port answers otherwise.
      const res = await fetch(url);
      if (res.ok && (await res.json().catch(() => null))?.status === 'ok') return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`devserver not healthy at ${url} within ${ms} ms`);
}

/** Starts devserver + browser; returns { baseURL, browser, newPage, stop }. */
export async function startStack(extraEnv = {}) {
  const bin = process.env.DEVSERVER_BIN ?? join(repoRoot, '.bin', 'devserver');
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-data-'));
  let logs = '';
  const child = spawn(bin, [], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      STATIC_DIR: join(repoRoot, 'webapp', 'dist'),
      AWS_ENDPOINT_URL_DYNAMODB: '',
      // Every test user registers from 127.0.0.1: the per-address limit is
      // proven by the Go tests, not something the browser suite should trip.
      REGISTER_LIMIT_PER_IP: '0',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => (logs += d));
  child.stderr.on('data', (d) => (logs += d));
  const baseURL = `http://localhost:${port}`;
  try {
    await waitHealthy(`${baseURL}/api/v1/auth/health`, child);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${err.message}\n--- devserver output ---\n${logs}`);
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const contexts = [];
  return {
    baseURL,
    browser,
    logs: () => logs,
    /** Polls fn until it returns a truthy value (a condition wait, not a sleep); the devserver's output on a timeout. */
    async until(what, fn, { timeout = 60_000, every = 250 } = {}) {
      const deadline = Date.now() + timeout;
      while (Date.now() < deadline) {
        const got = await fn();
        if (got) return got;
        await new Promise((r) => setTimeout(r, every));
      }
      throw new Error(`timed out after ${timeout} ms waiting for ${what}\n--- devserver output ---\n${logs.slice(-4000)}`);
    },
    /** A fresh browser context (own storage) and page; options as Playwright's newContext. */
    async newPage(options = {}, { tour = false } = {}) {
      const context = await browser.newContext({ baseURL, ...options });
      contexts.push(context);
      // The home tour covers the page for visitors; tests not about it skip it.
      if (!tour) {
        await context.addInitScript(() => {
          if (!localStorage.getItem('tour-completed')) localStorage.setItem('tour-completed', JSON.stringify({ at: Date.now() }));
        });
      }
      const page = await context.newPage();
      // Generous: a busy two-core machine can take seconds for what is instant when idle.
      page.setDefaultTimeout(30_000);
      return page;
    },
    async stop() {
      await browser.close().catch(() => {});
      await new Promise((res) => {
        if (child.exitCode !== null) return res();
        child.once('exit', res);
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 8000).unref();
      });
      rmSync(dataDir, { recursive: true, force: true });
      keepLogs(port, logs);
    },
  };
}

/**
 * Keeps a stopped stack's devserver output as E2E_LOG_DIR/<test file>-<port>.log
 * (make test prints its warnings and errors when the suite fails).
 */
function keepLogs(port, logs) {
  const dir = process.env.E2E_LOG_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${basename(process.argv[1] ?? 'stack', '.test.mjs')}-${port}.log`), logs);
}

/** A unique user for one test. */
export function newUser(tag = 'user') {
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return {
    email: `${tag}.${id}@example.com`,
    username: `${tag}_${id}`.slice(0, 30),
    fullName: `Test ${tag[0].toUpperCase()}${tag.slice(1)}`,
    password: `pw-${id}`,
  };
}

/** The newest mail the local outbox holds for email (waits for it to arrive). */
export async function latestMail(page, email, { timeoutMs = 30_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await page.request.get(`/dev/mail?format=json&to=${encodeURIComponent(email)}`);
    if (res.ok()) {
      const mails = await res.json();
      if (mails.length > 0) return mails[0];
    }
    if (Date.now() > deadline) throw new Error(`no mail for ${email} in the local outbox`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Confirms u's address through the link of the confirmation mail in the local outbox. */
export async function verifyEmail(page, u) {
  const mail = await latestMail(page, u.email);
  const link = mail.links.find((l) => l.includes('/verify-email?token='));
  if (!link) throw new Error(`no confirmation link in ${JSON.stringify(mail)}`);
  const token = new URL(link).searchParams.get('token');
  const res = await page.request.post('/api/v1/auth/verify-email', { data: { token } });
  if (!res.ok()) throw new Error(`verify ${u.email}: ${res.status()} ${await res.text()}`);
  return (await res.json()).user;
}

/**
 * Registers u through the API (its address confirmed through the local
 * outbox unless verified is false) and stores the session in page's
 * browser storage.
 */
export async function signInAs(page, u, { verified = true } = {}) {
  const res = await page.request.post('/api/v1/auth/register', {
    data: { email: u.email, username: u.username, full_name: u.fullName, password: u.password },
  });
  if (res.status() !== 201) throw new Error(`register ${u.email}: ${res.status()} ${await res.text()}`);
  const body = await res.json();
  if (verified) body.user = (await verifyEmail(page, u)) ?? { ...body.user, is_verified: true };
  await page.context().addInitScript(
    ([user, token]) => {
      if (!localStorage.getItem('auth-storage')) {
        localStorage.setItem('auth-storage', JSON.stringify({ user, token, isAuthenticated: true }));
      }
    },
    [body.user, body.access_token],
  );
  return body;
}

/**
 * Registers an admin u (an address in the stack's ADMIN_EMAILS: confirming
 * it grants the right) unless it exists, and signs in on the login page.
 */
export async function signInAdmin(page, u) {
  const res = await page.request.post('/api/v1/auth/register', {
    data: { email: u.email, username: u.username, full_name: u.fullName, password: u.password },
  });
  if (res.status() !== 201 && res.status() !== 409) throw new Error(`register ${u.email}: ${res.status()} ${await res.text()}`);
  if (res.status() === 201) await verifyEmail(page, u);
  await page.goto('/login');
  await page.getByLabel('Email').fill(u.email);
  await page.getByLabel('Password', { exact: true }).fill(u.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard');
}
