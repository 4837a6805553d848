// What an admin can do to an account (POST /admin/users/{id}/{action}),
// which actions a user's row offers, and which ask first.

import type { AdminUser, UserAction } from '../api/types';

export interface Confirmation {
  title: string;
  text: string;
  button: string;
  pending: string;
}

export interface UserActionSpec {
  action: UserAction;
  /** The button's text; its accessible name adds the account ('End sessions of ada@…'). */
  label: string;
  /** Asked before a destructive action; none for the harmless ones. */
  confirm?: Confirmation;
  /** The toast after it worked. */
  done: string;
  /** Why the API would refuse it for this account: the button is shown disabled with this reason. */
  blockedBy?: string;
}

export function isLocked(u: Pick<AdminUser, 'locked_until'>, now: number = Date.now()): boolean {
  const until = Date.parse(u.locked_until);
  return Number.isFinite(until) && until > now;
}

/** The actions `u`'s row offers to the admin `selfId`, in order. */
export function actionsFor(u: AdminUser, selfId: string, now: number = Date.now()): UserActionSpec[] {
  const who = u.email || u.username || u.id;
  const specs: UserActionSpec[] = [];
  if (!u.is_verified) specs.push({ action: 'resend-confirmation', label: 'Resend confirmation', done: `Sent a new confirmation link to ${who}.` });
  if (isLocked(u, now)) specs.push({ action: 'unlock', label: 'Unlock', done: `Unlocked ${who}: they can try to sign in again.` });
  specs.push({
    action: 'end-sessions',
    label: 'End all sessions',
    confirm: { title: `End every session of ${who}?`, text: 'They are signed out on every device and must sign in again.', button: 'End all sessions', pending: 'Ending…' },
    done: `Ended every session of ${who}.`,
  });
  if (u.is_superuser) {
    specs.push({
      action: 'revoke-admin',
      label: 'Revoke admin',
      confirm: { title: `Revoke admin from ${who}?`, text: 'They lose the admin area at once. The last admin cannot be revoked.', button: 'Revoke admin', pending: 'Revoking…' },
      done: `${who} is no longer an admin.`,
    });
  } else {
    specs.push({
      action: 'grant-admin',
      label: 'Grant admin',
      confirm: { title: `Make ${who} an admin?`, text: 'They can then change the catalogue, refund orders and manage every account, yours included.', button: 'Grant admin', pending: 'Granting…' },
      done: `${who} is now an admin.`,
      // The API makes admins of proven addresses only.
      blockedBy: u.is_verified ? undefined : 'Grant admin needs a confirmed address.',
    });
  }
  if (u.disabled) {
    specs.push({ action: 'enable', label: 'Enable', done: `Enabled ${who}: they can sign in again.` });
  } else {
    specs.push({
      action: 'disable',
      label: 'Disable',
      confirm: { title: `Disable ${who}?`, text: 'Sign-in is refused and every session ends at once. You can enable the account again later.', button: 'Disable account', pending: 'Disabling…' },
      done: `Disabled ${who}.`,
      // The API refuses to disable yourself.
      blockedBy: u.id === selfId ? 'You cannot disable your own account.' : undefined,
    });
  }
  return specs;
}
