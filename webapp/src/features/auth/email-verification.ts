// Email confirmation on the client: spending a mailed link once, asking for
// a new one, and keeping the stored user's is_verified in step.

import { ApiError, errorMessage } from '../../lib/api-client';
import { getAuthState, toUser, updateUser, type User } from '../../lib/auth-session';
import { toast } from '../../components/notifications/notification-store';
import { fetchMe, postResendVerification, postVerifyEmail } from './api/auth-api';

/** The action that mails a new confirmation link, wherever it is offered. */
export const RESEND_LABEL = 'Resend email';

/** The 403 code of an action that needs a confirmed email (free uses). */
export const EMAIL_UNVERIFIED = 'email_unverified';

export const VERIFY_MESSAGES = {
  verified: 'Your email address is confirmed.',
  failed: 'We could not confirm your email address. Please try again.',
  noToken: 'The confirmation link is incomplete: it has no token. Open the whole link from the email.',
  alreadyVerified: 'Your email address is already confirmed.',
  resendFailed: 'We could not send the email. Please try again in a few minutes.',
  /** Only when a refusal for an unconfirmed email came without the server's detail. */
  confirmFirst: 'Please confirm your email address to use free prompts.',
} as const;

export function isEmailUnverified(err: unknown): err is ApiError {
  return err instanceof ApiError && err.status === 403 && err.code === EMAIL_UNVERIFIED;
}

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

/** Asks /auth/me again and stores what changed (is_verified, names, admin). Errors are ignored. */
export async function refreshSignedInUser(): Promise<void> {
  const { status, token } = getAuthState();
  if (status !== 'authenticated' || !token) return;
  try {
    const user = await fetchMe(token);
    // Still the same session? A sign-out or another sign-in meanwhile wins.
    if (getAuthState().token === token) updateUser(user);
  } catch {
    // A 401 has cleared the session already (api-client); anything else can wait.
  }
}

/**
 * "Resend email": POST /auth/resend-verification and show its detail.
 * Returns true when a mail went out (or the address proved confirmed).
 */
export async function resendVerificationEmail(): Promise<boolean> {
  try {
    const res = await postResendVerification();
    const detail = res?.detail || 'We sent you a new confirmation link.';
    if (res?.status === 'already_verified') {
      toast.info(detail);
      await refreshSignedInUser();
    } else {
      toast.success(detail);
    }
    return true;
  } catch (err) {
    toast.error(errorMessage(err, VERIFY_MESSAGES.resendFailed));
    return false;
  }
}
