import { describe, expect, it } from 'vitest';
import { buildFallbackActivities, FALLBACK_PURCHASE_PRICE } from './fallback-activities';

const AT = Date.parse('2025-06-15T12:00:00Z');

describe('buildFallbackActivities', () => {
  it('builds login and account-created entries with no owned prompts', () => {
    const list = buildFallbackActivities({ ownedPromptIds: [], prompts: [], signedInAt: AT });
    expect(list.map((a) => a.type)).toEqual(['login', 'account_created']);
    expect(list.every((a) => a.created_at === '2025-06-15T12:00:00.000Z')).toBe(true);
  });

  it('adds one purchase per owned prompt, with the title and price from the prompt list', () => {
    const list = buildFallbackActivities({
      ownedPromptIds: ['p1', 'p2'],
      prompts: [{ id: 'p1', title: 'Cold email opener', description: '', price: 4.5 }],
      signedInAt: AT,
    });
    expect(list.map((a) => a.type)).toEqual(['login', 'purchase', 'purchase', 'account_created']);
    const [p1, p2] = list.filter((a) => a.type === 'purchase');
    expect(p1).toMatchObject({ amount: 4.5, prompt_title: 'Cold email opener', description: 'You purchased "Cold email opener"' });
    // Unknown prompt: fallback price 12.99.
    expect(FALLBACK_PURCHASE_PRICE).toBe(12.99);
    expect(p2).toMatchObject({ amount: 12.99, prompt_title: null });
    expect(new Set(list.map((a) => a.id)).size).toBe(list.length);
  });

  it('matches numeric prompt ids against string owned ids', () => {
    const list = buildFallbackActivities({
      ownedPromptIds: ['42'],
      prompts: [{ id: 42, title: 'Numeric', description: '', price: 9 }],
      signedInAt: AT,
    });
    expect(list.find((a) => a.type === 'purchase')).toMatchObject({ amount: 9, prompt_title: 'Numeric' });
  });
});
