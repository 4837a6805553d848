// Route guard decisions (SPEC §2, §6) as a pure function.
//
// Public paths (decision for the lead):
//   /, /login, /register, /auth/callback, /verify-email, /forgot-password,
//   /reset-password, /payment/cancel, /user-guide, /privacy-policy,
//   /marketplace, /prompts, /agents, /registry, /chat
// - /verify-email, /reset-password: the mailed links, opened in any browser,
//   signed in or not; /forgot-password is reached from the sign-in page.
// - /marketplace and /registry: visitors browse them (demo mode, listing);
//   /prompts is a redirect to /marketplace.
// - /privacy-policy: linked from the user guide; anyone must be able to read
//   it before creating an account.
// - /agents: the agent marketplace, browsed like the prompt marketplace;
//   /agents/{id}, an agent's page (PUBLIC_PREFIXES), too.
// - /chat: a placeholder.
// - /payment/cancel: shows only "nothing was charged"; no data to protect.
// - /creators/{username}: a creator's public page (PUBLIC_PREFIXES), read
//   without sign-in like the marketplace it links from.
// Protected (signed out → /login?redirect=<path+search>):
//   /llm-chat, /dashboard, /payment/success (SPEC §6 "Visitor"), /admin and
//   its sections (docs/admin.md: a visitor is sent to log in; a signed-in
//   user who is not an admin gets the page's own 403) and every
//   path not listed (SPEC §2: "any path outside the public list is
//   redirected to /login"), e.g. /marketplace/extra.
// Signed in on /login or /register → '/' (or, right after signing in on
// those pages, to the target the page asked for). Right after logout on a
// protected page → the logout target ('/'), not /login.

import type { AuthStatus } from '../lib/auth-session';
import { safeRedirect } from '../lib/safe-redirect';

export const PUBLIC_PATHS: readonly string[] = [
  '/',
  '/login',
  '/register',
  '/auth/callback',
  '/verify-email',
  '/forgot-password',
  '/reset-password',
  '/payment/cancel',
  '/user-guide',
  '/privacy-policy',
  '/marketplace',
  '/prompts',
  '/agents',
  '/registry',
  '/chat',
];

/** Public pages with a name in their path: '/creators/' + a username, '/agents/' + an agent's id. */
export const PUBLIC_PREFIXES: readonly string[] = ['/creators/', '/agents/'];

export const AUTH_PAGES: readonly string[] = ['/login', '/register'];

export type GuardDecision =
  | { kind: 'loading' }
  | { kind: 'allow' }
  | { kind: 'redirect'; to: string };

export interface GuardInput {
  pathname: string;
  search?: string;
  status: AuthStatus;
  /** Target set by a deliberate sign-in or sign-out (AuthState.pendingRedirect). */
  pendingRedirect?: string | null;
}

/** '/dashboard/' and '/dashboard' are the same route. */
export function normalisePath(pathname: string): string {
  if (!pathname) return '/';
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return trimmed || '/';
}

export function isPublicPath(pathname: string): boolean {
  const path = normalisePath(pathname);
  return PUBLIC_PATHS.includes(path) || PUBLIC_PREFIXES.some((prefix) => path.startsWith(prefix) && path.length > prefix.length);
}

export function loginRedirectFor(pathname: string, search = ''): string {
  return `/login?redirect=${encodeURIComponent(pathname + search)}`;
}

export function decideRoute({ pathname, search = '', status, pendingRedirect }: GuardInput): GuardDecision {
  if (status === 'loading') return { kind: 'loading' };
  const path = normalisePath(pathname);
  if (status === 'authenticated') {
    if (AUTH_PAGES.includes(path)) return { kind: 'redirect', to: safeRedirect(pendingRedirect, '/') };
    return { kind: 'allow' };
  }
  if (isPublicPath(path)) return { kind: 'allow' };
  if (pendingRedirect) return { kind: 'redirect', to: safeRedirect(pendingRedirect, '/') };
  return { kind: 'redirect', to: loginRedirectFor(pathname, search) };
}
