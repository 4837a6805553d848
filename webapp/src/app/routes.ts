// Every route of SPEC §2, each page in its own lazily loaded chunk; SPEC §2's
// linked-but-undefined /privacy-policy and /prompts are defined (issue 13).

import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type PageModule = { default: ComponentType };

export interface AppRoute {
  path: string;
  load: () => Promise<PageModule>;
  Component: LazyExoticComponent<ComponentType>;
}

function route(path: string, load: () => Promise<PageModule>): AppRoute {
  return { path, load, Component: lazy(load) };
}

export const ROUTES: readonly AppRoute[] = [
  route('/', () => import('../features/home/components/home-page')),
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
  route('/marketplace', () => import('../features/marketplace/components/marketplace-page')),
  route('/prompts', () => import('../features/marketplace/components/prompts-redirect')),
  route('/agents', () => import('../features/agents/components/agents-page')),
  route('/registry', () => import('../features/registry/components/registry-page')),
  route('/llm-chat', () => import('../features/llm-chat/components/llm-chat-page')),
  route('/chat', () => import('../features/chat/components/chat-page')),
  route('/dashboard', () => import('../features/dashboard/components/dashboard-page')),
  route('/admin', () => import('../features/admin/components/admin-page')),
];

export const NOT_FOUND: AppRoute = route('*', () => import('../components/not-found-page'));

/** Start downloading the current page's chunk in parallel with start-up. */
export function preloadRoute(pathname: string): void {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const match = ROUTES.find((r) => r.path === path);
  void match?.load().catch(() => undefined);
}
