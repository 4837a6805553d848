// The marketplace's ?filter= views of the caller's own prompts.
//
// - filter=purchased (SPEC §2: linked from the dashboard's "Purchased
//   Prompts" card): the purchased prompts only, so the list shows exactly
//   what that card counts (free claims would make the two disagree). SPEC
//   and the FAQ call a purchase, not a free use, a "Purchased Prompt".
// - filter=mine ("Show only my prompts"): purchased and claimed free, every
//   prompt the caller can open in full.

import type { PromptAccess } from './prompt-access';

export const PURCHASED_FILTER = 'purchased';
export const MINE_FILTER = 'mine';

export type OwnershipFilter = typeof PURCHASED_FILTER | typeof MINE_FILTER;

export function ownershipFilter(value: string | null): OwnershipFilter | null {
  return value === PURCHASED_FILTER || value === MINE_FILTER ? value : null;
}

/** Whether a prompt with this access belongs in the view (every prompt without a filter). */
export function inOwnershipView(filter: OwnershipFilter | null, access: Pick<PromptAccess, 'purchased' | 'hasAccess'>): boolean {
  if (filter === PURCHASED_FILTER) return access.purchased;
  if (filter === MINE_FILTER) return access.hasAccess;
  return true;
}

/** The line above a filtered list. */
export const OWNERSHIP_FILTER_TEXT: Record<OwnershipFilter, string> = {
  purchased: 'Showing your purchased prompts.',
  mine: 'Showing your purchased and free prompts.',
};
