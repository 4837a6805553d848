import { describe, expect, it } from 'vitest';
import { ACTION_LABELS, cardState, isActionDisabled, promptAccess, ratingBlockedReason, type CardState } from './prompt-access';

describe('promptAccess', () => {
  const none = new Set<string>();

  it('nothing known: no access', () => {
    expect(promptAccess({ id: 'p1' }, none, none)).toEqual({ purchased: false, usedFree: false, hasAccess: false });
  });

  it('is_purchased or the owned list: purchased', () => {
    expect(promptAccess({ id: 'p1', is_purchased: true }, none, none)).toEqual({ purchased: true, usedFree: false, hasAccess: true });
    expect(promptAccess({ id: 7 }, new Set(['7']), none)).toEqual({ purchased: true, usedFree: false, hasAccess: true });
  });

  it('free status prompt_ids: used free', () => {
    expect(promptAccess({ id: 'p1' }, none, new Set(['p1']))).toEqual({ purchased: false, usedFree: true, hasAccess: true });
  });

  it('content without a purchase: a free claim not yet in the status', () => {
    expect(promptAccess({ id: 'p1', content: 'full' }, none, none)).toEqual({ purchased: false, usedFree: true, hasAccess: true });
    expect(promptAccess({ id: 'p1', content: 'full', is_purchased: true }, none, none)).toEqual({ purchased: true, usedFree: false, hasAccess: true });
  });

  it('content null is not access', () => {
    expect(promptAccess({ id: 'p1', content: null }, none, none).hasAccess).toBe(false);
  });
});

describe('cardState', () => {
  // Every combination of the four inputs (remaining: unknown, 0, negative, 1, 5).
  const remainings = [null, 0, -1, 1, 5] as const;
  const cases: { signedIn: boolean; remaining: number | null; purchased: boolean; usedFree: boolean; want: CardState }[] = [];
  for (const signedIn of [false, true]) {
    for (const remaining of remainings) {
      for (const purchased of [false, true]) {
        for (const usedFree of [false, true]) {
          const access = purchased || usedFree;
          const offerFree = signedIn && remaining !== null && remaining > 0 && !purchased && !usedFree;
          const action = purchased ? 'purchased' : usedFree ? 'used-free' : offerFree ? 'use-free' : 'purchase';
          cases.push({
            signedIn,
            remaining,
            purchased,
            usedFree,
            want: { viewLabel: access ? 'View Full' : 'View', useInChat: access, action, usedFreeBadge: usedFree && !purchased },
          });
        }
      }
    }
  }

  it('covers all 40 combinations', () => {
    expect(cases).toHaveLength(40);
  });

  it.each(cases)('signedIn=$signedIn remaining=$remaining purchased=$purchased usedFree=$usedFree', ({ want, ...input }) => {
    expect(cardState(input)).toEqual(want);
  });

  it('spot checks against SPEC wording', () => {
    expect(cardState({ signedIn: true, remaining: 3, purchased: false, usedFree: false }).action).toBe('use-free');
    expect(cardState({ signedIn: false, remaining: 3, purchased: false, usedFree: false }).action).toBe('purchase');
    expect(cardState({ signedIn: true, remaining: 0, purchased: false, usedFree: false }).action).toBe('purchase');
    expect(cardState({ signedIn: true, remaining: 3, purchased: false, usedFree: true })).toEqual({
      viewLabel: 'View Full',
      useInChat: true,
      action: 'used-free',
      usedFreeBadge: true,
    });
    expect(cardState({ signedIn: true, remaining: 3, purchased: true, usedFree: true }).action).toBe('purchased');
  });

  it('labels, and only the status actions are disabled', () => {
    expect(ACTION_LABELS).toEqual({ 'use-free': 'Use Free', 'used-free': 'Used Free', purchased: 'Purchased', purchase: 'Purchase' });
    expect(isActionDisabled('used-free')).toBe(true);
    expect(isActionDisabled('purchased')).toBe(true);
    expect(isActionDisabled('use-free')).toBe(false);
    expect(isActionDisabled('purchase')).toBe(false);
  });
});

describe('ratingBlockedReason', () => {
  it.each([
    [false, false, 'Please log in to rate prompts'],
    [false, true, 'Please log in to rate prompts'],
    [true, false, 'You can only rate prompts you have purchased'],
    [true, true, null],
  ])('signedIn=%s purchased=%s → %s', (signedIn, purchased, want) => {
    expect(ratingBlockedReason({ signedIn, purchased })).toBe(want);
  });
});
