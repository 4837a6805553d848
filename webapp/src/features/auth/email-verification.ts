// Email confirmation on the client: spending a mailed link once and keeping
// the stored user's is_verified in step. Asking for a new link is shared
// (components/resend-email-button.tsx), as is the refusal of an action that
// needs a confirmed address (lib/account-api.ts).

import { ApiError, errorMessage } from '../../lib/api-client';
import { getAuthState, toUser, updateUser, type User } from '../../lib/auth-session';
import { postVerifyEmail } from './api/auth-api';

export const VERIFY_MESSAGES = {
  verified: 'Your email address is confirmed.',
  failed: 'We could not confirm your email address. Please try again.',
  noToken: 'The confirmation link is incomplete: it has no token. Open the whole link from the email.',
  alreadyVerified: 'Your email address is already confirmed.',
} as const;

/** The codes of a refused mailed link (400). */
export const LINK_CODES = ['link_used', 'link_expired', 'link_invalid'] as const;

export function isLinkRefusal(err: unknown): err is ApiError {
  return err instanceof ApiError && err.status === 400 && (LINK_CODES as readonly string[]).includes(err.code ?? '');
}

export type VerifyOutcome =
  | { kind: 'verified'; detail: string; user: User | null }
  /** The link was refused (used, expired, invalid): the server's words. */
  | { kind: 'refused'; code: string; detail: string }
  /** Anything else (network, server error): worth another try. */
  | { kind: 'failed'; detail: string };

// One request per token for the life of the page: React's StrictMode runs
// effects twice and a page may mount again, but a single-use link must be
// spent once. Failures that may succeed later are dropped so Retry asks again.
const verifications = new Map<string, Promise<VerifyOutcome>>();

async function verify(token: string): Promise<VerifyOutcome> {
  try {
    const res = await postVerifyEmail(token);
    const user = res?.user && res.user.email ? toUser(res.user) : null;
    return { kind: 'verified', detail: res?.detail || VERIFY_MESSAGES.verified, user };
  } catch (err) {
    if (isLinkRefusal(err)) return { kind: 'refused', code: err.code!, detail: err.detail };
    return { kind: 'failed', detail: errorMessage(err, VERIFY_MESSAGES.failed) };
  }
}

/** POST /auth/verify-email once per token; later calls share the first answer. */
export function verifyEmailOnce(token: string): Promise<VerifyOutcome> {
  let pending = verifications.get(token);
  if (!pending) {
    pending = verify(token).then((outcome) => {
      if (outcome.kind === 'failed') verifications.delete(token);
      if (outcome.kind === 'verified') markVerified(outcome.user);
      return outcome;
    });
    verifications.set(token, pending);
  }
  return pending;
}

/** Tests only. */
export function resetVerificationsForTests(): void {
  verifications.clear();
}

/**
 * After a confirmation: the signed-in user takes the server's view of the
 * account (is_verified, and is_admin which ADMIN_EMAILS grants at this
 * moment) when it is the same account; another account's link leaves this
 * session alone.
 */
function markVerified(user: User | null): void {
  const { status, user: current } = getAuthState();
  if (status !== 'authenticated' || !current) return;
  if (user && user.id === current.id) updateUser(user);
}
