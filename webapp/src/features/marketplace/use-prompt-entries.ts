// What each card and the dialog show for the signed-in user (or a visitor):
// access from the list itself, the owned prompts and the free claims, and
// the card's buttons. Shared by every page that shows marketplace cards.

import type { Prompt } from '../../lib/api/types';
import { useOwnedPrompts } from '../../lib/api/use-owned-prompts';
import { useAuth } from '../../lib/use-auth';
import { useFreeUsageStatus } from './api/use-free-usage-status';
import { cardState, promptAccess, ratingBlockedReason, type CardState, type PromptAccess } from './prompt-access';

export interface PromptEntry {
  prompt: Prompt;
  access: PromptAccess;
  state: CardState;
  /** Why it cannot be rated; null when it can. */
  ratingBlocked: string | null;
}

export function usePromptEntries() {
  const { status, user } = useAuth();
  const signedIn = status === 'authenticated' && user !== null;
  const free = useFreeUsageStatus();
  const owned = useOwnedPrompts();
  const ownedIds = new Set(signedIn ? owned.ownedPromptIds : []);
  const freeIds = new Set(signedIn ? free.freeIds : []);
  const remaining = signedIn && free.freeStatus ? free.freeStatus.remaining : null;

  const describe = (prompt: Prompt): PromptEntry => {
    const access = promptAccess(prompt, ownedIds, freeIds);
    return {
      prompt,
      access,
      state: cardState({ signedIn, remaining, purchased: access.purchased, usedFree: access.usedFree }),
      ratingBlocked: ratingBlockedReason({ signedIn, purchased: access.purchased }),
    };
  };
  return { status, signedIn, free, remaining, describe };
}
