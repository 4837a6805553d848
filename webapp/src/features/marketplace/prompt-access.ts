// SPEC §4 prompt access and the card's buttons (SPEC §2), as pure functions.

import type { Prompt } from '../../lib/api/types';

export interface PromptAccess {
  /** Bought: the list says so, or the owned-prompts list holds it. */
  purchased: boolean;
  /** Claimed with a free use. */
  usedFree: boolean;
  /** Either of the two: full content, Copy, Use in Chat. */
  hasAccess: boolean;
}

/**
 * Access from the three sources the page has. The server sends `content`
 * only to callers with access, so content on a prompt that is not purchased
 * means a free claim (covers the moment before the free status reloads).
 */
export function promptAccess(
  prompt: Pick<Prompt, 'id' | 'content' | 'is_purchased'>,
  ownedIds: ReadonlySet<string>,
  freeIds: ReadonlySet<string>,
): PromptAccess {
  const id = String(prompt.id);
  const purchased = prompt.is_purchased === true || ownedIds.has(id);
  const usedFree = freeIds.has(id) || (!purchased && typeof prompt.content === 'string');
  return { purchased, usedFree, hasAccess: purchased || usedFree };
}

/** The one access button a card shows. */
export type AccessAction = 'use-free' | 'used-free' | 'purchased' | 'purchase';

export interface CardStateInput {
  signedIn: boolean;
  /** Free uses left; null while unknown (visitor, loading, failed). */
  remaining: number | null;
  purchased: boolean;
  usedFree: boolean;
}

export interface CardState {
  /** 'View Full' with access, else 'View'. */
  viewLabel: 'View' | 'View Full';
  /** 'Use in Chat' is offered with access only. */
  useInChat: boolean;
  /** Exactly one of: Use Free, Used Free (disabled), Purchased (disabled), Purchase. */
  action: AccessAction;
  /** The 'Used Free' badge: access came from a free claim. */
  usedFreeBadge: boolean;
}

export const ACTION_LABELS: Record<AccessAction, string> = {
  'use-free': 'Use Free',
  'used-free': 'Used Free',
  purchased: 'Purchased',
  purchase: 'Purchase',
};

/** Disabled actions are statuses, not commands. */
export function isActionDisabled(action: AccessAction): boolean {
  return action === 'used-free' || action === 'purchased';
}

/**
 * Purchased wins over a free claim; a free claim is offered only when signed
 * in, with free uses left (known and above 0), not used free and not
 * purchased (SPEC §4); otherwise Purchase.
 */
export function cardState({ signedIn, remaining, purchased, usedFree }: CardStateInput): CardState {
  const hasAccess = purchased || usedFree;
  let action: AccessAction;
  if (purchased) action = 'purchased';
  else if (usedFree) action = 'used-free';
  else if (signedIn && remaining !== null && remaining > 0) action = 'use-free';
  else action = 'purchase';
  return {
    viewLabel: hasAccess ? 'View Full' : 'View',
    useInChat: hasAccess,
    action,
    usedFreeBadge: usedFree && !purchased,
  };
}

/** SPEC §5 rating rule: null when the click may rate, else the message to show. */
export function ratingBlockedReason({ signedIn, purchased }: { signedIn: boolean; purchased: boolean }): string | null {
  if (!signedIn) return 'Please log in to rate prompts';
  if (!purchased) return 'You can only rate prompts you have purchased';
  return null;
}

/**
 * What Purchase does while free uses remain (it claims the prompt free,
 * SPEC §8), for the button to say before the click; null when it pays.
 */
export function freeUseNote(remaining: number | null): string | null {
  if (remaining === null || remaining <= 0) return null;
  return `uses 1 of your ${remaining} free prompt${remaining === 1 ? '' : 's'}`;
}
