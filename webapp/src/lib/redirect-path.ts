// SPEC §2: "A stored redirect path is restored at start." A static host's
// 404 page (public/404.html) or any other hand-off stores the requested
// path in sessionStorage; at start we take it (once) and, when it is a
// same-site path, make it the current URL before the router reads it.

import { safeRedirect } from './safe-redirect';
import { readString, removeKey, STORAGE_KEYS } from './storage';

export function takeStoredRedirectPath(): string | null {
  const stored = readString(STORAGE_KEYS.redirectPath, 'session');
  if (stored === null) return null;
  removeKey(STORAGE_KEYS.redirectPath, 'session');
  const safe = safeRedirect(stored, '');
  return safe || null;
}

export function restoreStoredRedirectPath(): void {
  const path = takeStoredRedirectPath();
  if (!path) return;
  const current = window.location.pathname + window.location.search + window.location.hash;
  if (path !== current) window.history.replaceState(null, '', path);
}
