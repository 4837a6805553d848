// Accessibility: axe-core (npm, pinned) runs inside the browser on
// every page of the app (webapp/src/app/routes.ts) and on the dialogs pages
// open, as a visitor, signed in, and as an admin (every section of the admin
// area and its forms), in the light and the dark theme. Any
// violation of impact serious or critical fails, named by auth, theme, page,
// rule id and the offending nodes' targets; so does a wrong heading order
// (axe's heading-order, which Lighthouse counts).
//
// The sweep of each audience is its own test file (a11y-visitor, a11y-user,
// a11y-admin.test.mjs), with its own stack, so they run side by side.
//
// Quick by design: one browser, one page per (auth, theme) combination, each
// page waited for by its own heading or test id (never a fixed sleep),
// reduced motion so no fade-in is caught half-way.
//
// Not visited on their own: /auth/callback only forwards (to /login or the
// dashboard, both checked), /prompts is a redirect to /marketplace (checked).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { newUser, signInAdmin, signInAs, startStack } from './stack.mjs';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const FAILING_IMPACTS = new Set(['serious', 'critical']);
// Rules that fail whatever axe's impact: heading-order is "moderate" to axe,
// but Lighthouse's accessibility score counts it (an h3 card title with no
// h2 above it, as /marketplace could have).
const ALWAYS_FAILING = new Set(['heading-order']);

const h1 = (page, name) => page.getByRole('heading', { level: 1, name, exact: true }).waitFor();

/**
 * Every page, with what shows it is loaded. `as` limits an entry to one
 * audience (a visitor is sent to /login from protected pages; a user is sent
 * away from /login and /register). `open` opens a dialog or raises a toast
 * on the loaded page, so what it shows is checked too.
 */
export const PAGES = [
  {
    name: 'home: tour',
    path: '/',
    as: 'visitor',
    ready: async (p) => {
      // Paused, so the step under test stays put; then no tour for the rest of the run.
      await p.getByTestId('tour').getByRole('button', { name: 'Pause' }).click();
      await p.getByTestId('tour').getByRole('button', { name: 'Resume' }).waitFor();
      await p.evaluate(() => localStorage.setItem('tour-completed', JSON.stringify({ at: Date.now() })));
    },
  },
  { name: 'home', path: '/', ready: (p) => h1(p, 'Your AI workbench, all in one place') },
  { name: 'login', path: '/login', as: 'visitor', ready: (p) => h1(p, 'Sign in') },
  { name: 'register', path: '/register', as: 'visitor', ready: (p) => h1(p, 'Create your account') },
  { name: 'forgot-password', path: '/forgot-password', ready: (p) => h1(p, 'Forgot your password?') },
  { name: 'reset-password (no link)', path: '/reset-password', ready: (p) => p.getByTestId('reset-refused').waitFor() },
  { name: 'verify-email (no link)', path: '/verify-email', ready: (p) => p.getByRole('heading', { level: 1 }).waitFor() },
  { name: 'user guide', path: '/user-guide', ready: (p) => h1(p, 'User Guide') },
  { name: 'privacy policy', path: '/privacy-policy', ready: (p) => h1(p, 'Privacy Policy') },
  { name: 'marketplace', path: '/marketplace', ready: (p) => p.getByTestId('prompt-count').waitFor() },
  {
    name: 'marketplace: prompt detail',
    path: '/marketplace',
    ready: (p) => p.getByTestId('prompt-count').waitFor(),
    open: async (p) => {
      await p.getByTestId('prompt-card').first().getByRole('button', { name: /^View/ }).click();
      await p.getByTestId('prompt-detail').waitFor();
    },
  },
  { name: '/prompts (→ marketplace)', path: '/prompts', ready: (p) => p.getByTestId('prompt-count').waitFor() },
  { name: 'agents', path: '/agents', ready: (p) => h1(p, 'Agent Marketplace') },
  { name: 'registry', path: '/registry', ready: (p) => p.getByTestId('server-count').waitFor() },
  {
    name: 'registry: server details',
    path: '/registry',
    ready: (p) => p.getByTestId('server-count').waitFor(),
    open: async (p) => {
      await p.getByTestId('server-card').first().getByRole('button', { name: 'Details' }).click();
      const dialog = p.getByTestId('server-details');
      await dialog.waitFor();
      await dialog.getByRole('status', { name: 'Loading server details' }).waitFor({ state: 'detached' });
    },
  },
  {
    name: 'registry: connect (visitor toast)',
    path: '/registry',
    as: 'visitor',
    ready: (p) => p.getByTestId('server-count').waitFor(),
    open: async (p) => {
      await p.getByTestId('server-card').getByRole('button', { name: 'Connect', disabled: false }).first().click();
      await p.getByTestId('toasts').getByText('Please log in to connect to MCP servers').waitFor();
    },
  },
  {
    name: 'registry: connect dialog',
    path: '/registry',
    as: 'user',
    ready: (p) => p.getByTestId('server-count').waitFor(),
    open: async (p) => {
      await p.getByTestId('server-card').getByRole('button', { name: 'Connect', disabled: false }).first().click();
      await p.getByTestId('connect-dialog').waitFor();
    },
  },
  { name: 'llm-chat', path: '/llm-chat', as: 'user', ready: (p) => p.getByRole('tab').first().waitFor() },
  {
    name: 'llm-chat: tools dialog',
    path: '/llm-chat',
    as: 'user',
    ready: (p) => p.getByRole('tab').first().waitFor(),
    open: async (p) => {
      await p.getByTestId('tools-button').click();
      await p.getByTestId('tools-dialog').getByTestId('tools-empty').waitFor();
    },
  },
  { name: 'chat', path: '/chat', ready: (p) => h1(p, 'Chat') },
  {
    name: 'dashboard',
    path: '/dashboard',
    as: 'user',
    ready: async (p) => {
      await p.getByTestId('dashboard-greeting').waitFor();
      await p.getByRole('status', { name: 'Loading recent activity' }).waitFor({ state: 'detached' });
    },
  },
  { name: 'creator studio', path: '/creator', as: 'user', ready: (p) => p.getByLabel('Display name').waitFor() },
  { name: 'creator page (unknown creator)', path: '/creators/nobody-here', ready: (p) => p.getByText('Creator not found.').waitFor() },
  { name: 'payment success (no session)', path: '/payment/success', as: 'user', ready: (p) => p.getByRole('heading', { level: 1 }).waitFor() },
  { name: 'payment cancel', path: '/payment/cancel', ready: (p) => h1(p, 'Payment cancelled') },
  { name: 'not found', path: '/no-such-page', as: 'user', ready: (p) => h1(p, 'Page not found') },
  // The admin area: its 403 page for a user, every section and its forms for an admin.
  { name: 'admin (403 for a user)', path: '/admin', as: 'user', ready: (p) => p.getByTestId('admin-forbidden').waitFor() },
  ...[
    ['prompts', 'prompts-table'],
    ['mcp-servers', 'servers-table'],
    ['orders', 'orders-table'],
    ['users', 'users-table'],
    ['audit', 'audit-table'],
    ['creators', 'creators-table'],
    ['agents', 'agents-table'],
  ].map(([section, table]) => ({
    name: `admin: ${section}`,
    path: `/admin/${section}`,
    as: 'admin',
    ready: (p) => p.getByTestId(`${table}-count`).waitFor(),
  })),
  { name: 'admin: categories', path: '/admin/categories', as: 'admin', ready: (p) => p.getByTestId('category-row').first().waitFor() },
  { name: 'admin: reviews', path: '/admin/reviews', as: 'admin', ready: (p) => p.getByTestId('empty-state').or(p.getByTestId('reviews-list')).first().waitFor() },
  {
    name: 'admin: reviews of agents',
    path: '/admin/reviews?kind=agent',
    as: 'admin',
    ready: (p) => p.getByTestId('empty-state').or(p.getByTestId('reviews-list')).first().waitFor(),
  },
  {
    name: 'admin: new prompt form',
    path: '/admin/prompts',
    as: 'admin',
    ready: (p) => p.getByTestId('prompts-table-count').waitFor(),
    open: async (p) => {
      await p.getByRole('button', { name: 'New prompt' }).click();
      await p.getByTestId('prompt-editor').waitFor();
    },
  },
  {
    name: 'admin: add server form',
    path: '/admin/mcp-servers',
    as: 'admin',
    ready: (p) => p.getByTestId('servers-table-count').waitFor(),
    open: async (p) => {
      await p.getByRole('button', { name: 'Add server' }).first().click();
      await p.getByTestId('server-editor').waitFor();
    },
  },
];

/** The admins of this run (ADMIN_EMAILS), one per theme. */
export const adminFor = (theme) => ({ ...newUser(`a11yadmin${theme}`), email: `a11y-admin-${theme}@example.com` });

/** Waits until every finite animation (fade-ins, step changes) has finished; spinners run on. */
function animationsSettled(page) {
  return page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
}

/** axe on the current document; the serious and critical violations and those of ALWAYS_FAILING, one line each. */
async function seriousViolations(page) {
  await animationsSettled(page);
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), impact: n.impact, summary: n.failureSummary })),
    }));
  });
  return violations.filter((v) => FAILING_IMPACTS.has(v.impact) || ALWAYS_FAILING.has(v.id));
}

/**
 * The sweep of one audience (visitor, user or admin) in both themes, on a
 * stack of its own: the three audiences are three test files, so they run
 * side by side (each is over a minute on two cores).
 */
export function sweep(auth) {
  let stack;
  before(async () => {
    stack = await startStack(auth === 'admin' ? { ADMIN_EMAILS: ['light', 'dark'].map((t) => adminFor(t).email).join(',') } : {});
  });
  after(async () => {
    await stack?.stop();
  });

  describe(`accessibility as a ${auth} (axe-core, serious and critical)`, () => {
    for (const theme of ['light', 'dark']) {
      test(`${auth}, ${theme} theme: every page`, async () => {
        // bypassCSP: axe is injected as an inline script, which the app's CSP (rightly) refuses.
        const page = await stack.newPage({ colorScheme: theme, reducedMotion: 'reduce', bypassCSP: true }, { tour: auth === 'visitor' });
        if (auth === 'user') await signInAs(page, newUser(`a11y${theme}`));
        if (auth === 'admin') await signInAdmin(page, adminFor(theme));
        const found = [];
        for (const spec of PAGES.filter((s) => !s.as || s.as === auth)) {
          await page.goto(spec.path);
          try {
            await spec.ready(page);
            if (spec.open) await spec.open(page);
          } catch (err) {
            // One page that does not load is reported with the rest, not instead of them.
            found.push(`[${auth}, ${theme}] ${spec.name} (${spec.path}): did not load (now at ${page.url()}): ${err.message.split('\n')[0]}`);
            continue;
          }
          const shown = await page.evaluate(() => document.documentElement.dataset.theme);
          assert.equal(shown, theme, `${spec.name}: the page is in the ${shown} theme, not ${theme}`);
          for (const v of await seriousViolations(page)) {
            const nodes = v.nodes.map((n) => `    ${n.target}${n.summary ? `\n      ${n.summary.replace(/\n/g, '\n      ')}` : ''}`).join('\n');
            found.push(`[${auth}, ${theme}] ${spec.name} (${spec.path}): ${v.id} (${v.impact}) ${v.help}\n${nodes}`);
          }
        }
        await page.context().close();
        assert.equal(found.length, 0, `axe found serious or critical violations:\n${found.join('\n')}`);
      });
    }
  });
}
