import { describe, expect, it } from 'vitest';
import { freeBarPercent } from './free-usage';

describe('freeBarPercent', () => {
  it.each([
    [0, 5, 0],
    [2, 5, 40],
    [5, 5, 100],
    [7, 5, 100],
    [-1, 5, 0],
    [1, 0, 0],
    [1, -5, 0],
    [Number.NaN, 5, 0],
  ])('used %s of %s → %s%%', (used, total, want) => {
    expect(freeBarPercent(used, total)).toBe(want);
  });
});
