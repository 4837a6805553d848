// Every route of SPEC §2, each page in its own lazily loaded chunk. SPEC §2
// links to /privacy-policy and /prompts without defining them; both are
// defined here, so the links lead somewhere.

import { createElement, lazy, useState, type ComponentType } from 'react';

import HomePage from '../features/home/components/home-page';
import { prefetchMcpServers } from '../features/registry/api/use-mcp-servers';
import { prefetchPrompts } from '../lib/api/use-prompts';

type PageModule = { default: ComponentType };

export interface AppRoute {
  path: string;
  /** Downloads the page's chunk (once); the promise is shared. */
  load: () => Promise<PageModule>;
  Component: ComponentType;
  /** Starts the requests the page's first paint needs, when it is the first page of a visit. */
  prefetch?: () => void;
}

/**
 * A page in its own chunk, like React.lazy, except that a chunk already
 * downloaded renders at once: the first page of a visit, whose chunk start
 * loads before the first render, never shows the loading fallback (React
 * holds content back for 300 ms after a fallback appeared, which made the
 * home page's largest paint wait for nothing; DESIGN §10 LCP).
 */
function route(path: string, importPage: () => Promise<PageModule>, prefetch?: () => void): AppRoute {
  let pending: TrackedPromise<PageModule> | null = null;
  const load = (): Promise<PageModule> => {
    if (!pending) {
      const p: TrackedPromise<PageModule> = importPage().then(
        (m) => {
          // Read by Page: a downloaded page renders without suspending.
          p.status = 'fulfilled';
          p.value = m;
          return m;
        },
        (err: unknown) => {
          pending = null; // a failed download may be retried
          throw err;
        },
      );
      pending = p;
    }
    return pending;
  };
  const Lazy = lazy(load);
  // Decided once per mount, so a page never switches component (and state).
  function Page() {
    const [ready] = useState(() => (pending?.status === 'fulfilled' ? pending.value : undefined));
    return ready ? createElement(ready.default) : createElement(Lazy);
  }
  Page.displayName = `Page(${path})`;
  return { path, load, Component: Page, prefetch };
}

/**
 * The home page, in the main chunk: most visits start there, and its
 * largest paint should need no second download (DESIGN §10 LCP).
 */
function eagerRoute(path: string, page: ComponentType): AppRoute {
  const module: PageModule = { default: page };
  const loaded: TrackedPromise<PageModule> = Promise.resolve(module);
  loaded.status = 'fulfilled';
  loaded.value = module;
  return { path, load: () => loaded, Component: page };
}

/** A promise that records its outcome. */
type TrackedPromise<T> = Promise<T> & { status?: 'fulfilled'; value?: T };

export const ROUTES: readonly AppRoute[] = [
  eagerRoute('/', HomePage),
  route('/login', () => import('../features/auth/components/login-page')),
  route('/register', () => import('../features/auth/components/register-page')),
  route('/auth/callback', () => import('../features/auth/components/auth-callback-page')),
  route('/verify-email', () => import('../features/auth/components/verify-email-page')),
  route('/forgot-password', () => import('../features/auth/components/forgot-password-page')),
  route('/reset-password', () => import('../features/auth/components/reset-password-page')),
  route('/payment/success', () => import('../features/payment/components/payment-success-page')),
  route('/payment/cancel', () => import('../features/payment/components/payment-cancel-page')),
  route('/user-guide', () => import('../features/user-guide/components/user-guide-page')),
  route('/privacy-policy', () => import('../features/privacy-policy/components/privacy-policy-page')),
  route('/marketplace', () => import('../features/marketplace/components/marketplace-page'), prefetchPrompts),
  route('/prompts', () => import('../features/marketplace/components/prompts-redirect')),
  // '/*': the page reads the creator's username from the rest of the path.
  route('/creators/*', () => import('../features/marketplace/components/creator-page')),
  route('/agents', () => import('../features/agents/components/agents-page')),
  // '/*': the page reads the agent's id from the rest of the path.
  route('/agents/*', () => import('../features/agents/components/agent-page')),
  route('/registry', () => import('../features/registry/components/registry-page'), prefetchMcpServers),
  route('/llm-chat', () => import('../features/llm-chat/components/llm-chat-page')),
  route('/chat', () => import('../features/llm-chat/components/chat-placeholder-page')),
  route('/dashboard', () => import('../features/dashboard/components/dashboard-page')),
  route('/creator', () => import('./creator-route')),
  // '/*': the admin sections are its own sub-routes (/admin/prompts, …).
  route('/admin/*', () => import('./admin-route')),
];

export const NOT_FOUND: AppRoute = route('*', () => import('../components/not-found-page'));

/** '/admin/*' matches '/admin' and everything under it; other paths match exactly. */
function matches(routePath: string, path: string): boolean {
  if (!routePath.endsWith('/*')) return routePath === path;
  const base = routePath.slice(0, -2);
  return path === base || path.startsWith(base + '/');
}

/**
 * Start downloading the current page's chunk, and the data its first paint
 * needs, in parallel with start-up; settles (never rejects) once the chunk
 * is there or failed.
 */
export function preloadRoute(pathname: string): Promise<void> {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const match = ROUTES.find((r) => matches(r.path, path)) ?? NOT_FOUND;
  match.prefetch?.();
  return match.load().then(
    () => undefined,
    () => undefined,
  );
}
