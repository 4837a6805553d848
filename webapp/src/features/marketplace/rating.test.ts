import { describe, expect, it } from 'vitest';
import { isValidRating, recomputeRating, roundOne } from '../../lib/rating';

describe('recomputeRating', () => {
  it('first rating of an unrated prompt', () => {
    expect(recomputeRating({ rating_avg: 0, rating_count: 0, user_rating: null }, 4)).toEqual({ rating_avg: 4, rating_count: 1, user_rating: 4 });
  });

  it('first rating adds to the count and the average', () => {
    // (4.0 * 3 + 5) / 4 = 4.25 → 4.3
    expect(recomputeRating({ rating_avg: 4, rating_count: 3, user_rating: null }, 5)).toEqual({ rating_avg: 4.3, rating_count: 4, user_rating: 5 });
  });

  it('a change replaces the old rating, count unchanged', () => {
    // (4.0 * 3 - 5 + 2) / 3 = 3.0
    expect(recomputeRating({ rating_avg: 4, rating_count: 3, user_rating: 5 }, 2)).toEqual({ rating_avg: 3, rating_count: 3, user_rating: 2 });
  });

  it('the only rating changed: the average is the new rating', () => {
    expect(recomputeRating({ rating_avg: 5, rating_count: 1, user_rating: 5 }, 1)).toEqual({ rating_avg: 1, rating_count: 1, user_rating: 1 });
  });

  it('the same rating again changes nothing', () => {
    expect(recomputeRating({ rating_avg: 3.7, rating_count: 10, user_rating: 4 }, 4)).toEqual({ rating_avg: 3.7, rating_count: 10, user_rating: 4 });
  });

  it('rounds to one decimal, halves away from zero', () => {
    // (4 + 5 + 5) / 3 = 4.666… → 4.7
    expect(recomputeRating({ rating_avg: 4.5, rating_count: 2, user_rating: null }, 5).rating_avg).toBe(4.7);
    // (1 * 1 + 2) / 2 = 1.5 exactly stays 1.5; (3.5*2 + 4)/3 = 3.666… → 3.7
    expect(recomputeRating({ rating_avg: 1, rating_count: 1, user_rating: null }, 2).rating_avg).toBe(1.5);
    expect(recomputeRating({ rating_avg: 3.5, rating_count: 2, user_rating: null }, 4).rating_avg).toBe(3.7);
    // (4.1 * 4 + 2) / 5 = 3.68 → 3.7
    expect(recomputeRating({ rating_avg: 4.1, rating_count: 4, user_rating: null }, 2).rating_avg).toBe(3.7);
  });

  it('treats missing or inconsistent input as a first rating', () => {
    expect(recomputeRating({}, 3)).toEqual({ rating_avg: 3, rating_count: 1, user_rating: 3 });
    expect(recomputeRating({ rating_avg: 4, rating_count: 0, user_rating: 2 }, 5)).toEqual({ rating_avg: 5, rating_count: 1, user_rating: 5 });
    expect(recomputeRating({ rating_avg: null, rating_count: null, user_rating: 9 }, 2)).toEqual({ rating_avg: 2, rating_count: 1, user_rating: 2 });
  });
});

describe('roundOne', () => {
  it.each([
    [4.25, 4.3],
    [4.24, 4.2],
    [4.05, 4.1],
    [0, 0],
    [-1.25, -1.3],
  ])('%f → %f', (x, want) => {
    expect(roundOne(x)).toBe(want);
  });
});

describe('isValidRating', () => {
  it.each([1, 2, 3, 4, 5])('%i is valid', (n) => expect(isValidRating(n)).toBe(true));
  it.each([0, 6, 2.5, Number.NaN, '3', null])('%s is not', (n) => expect(isValidRating(n)).toBe(false));
});
