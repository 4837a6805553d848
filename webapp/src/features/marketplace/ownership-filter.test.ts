import { describe, expect, it } from 'vitest';
import { inOwnershipView, ownershipFilter } from './ownership-filter';

const bought = { purchased: true, hasAccess: true };
const claimedFree = { purchased: false, hasAccess: true };
const notOwned = { purchased: false, hasAccess: false };

describe('ownershipFilter', () => {
  it('knows purchased and mine, nothing else', () => {
    expect(ownershipFilter('purchased')).toBe('purchased');
    expect(ownershipFilter('mine')).toBe('mine');
    expect(ownershipFilter(null)).toBeNull();
    expect(ownershipFilter('PURCHASED')).toBeNull();
    expect(ownershipFilter('free')).toBeNull();
  });
});

describe('inOwnershipView', () => {
  it('purchased: only purchases, as the dashboard counts them (not free claims)', () => {
    expect([bought, claimedFree, notOwned].map((a) => inOwnershipView('purchased', a))).toEqual([true, false, false]);
  });

  it('mine: purchases and free claims', () => {
    expect([bought, claimedFree, notOwned].map((a) => inOwnershipView('mine', a))).toEqual([true, true, false]);
  });

  it('no filter: everything', () => {
    expect([bought, claimedFree, notOwned].map((a) => inOwnershipView(null, a))).toEqual([true, true, true]);
  });
});
