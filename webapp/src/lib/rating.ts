// SPEC §4 rating widget: the local recompute shown until the server answers.

export interface RatingSummary {
  rating_avg: number;
  rating_count: number;
  user_rating: number | null;
}

export const MIN_RATING = 1;
export const MAX_RATING = 5;

export function isValidRating(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= MIN_RATING && value <= MAX_RATING;
}

/** One decimal, half away from zero (the server's RoundOne). */
export function roundOne(x: number): number {
  return x < 0 ? -roundOne(-x) : Math.floor(x * 10 + 0.5) / 10;
}

/**
 * A first rating adds to the count; a change replaces the caller's old
 * rating in the average (count unchanged). The average is rounded to one
 * decimal. Inconsistent input (a previous rating with a count of 0) counts
 * as a first rating.
 */
export function recomputeRating(
  current: { rating_avg?: number | null; rating_count?: number | null; user_rating?: number | null },
  rating: number,
): RatingSummary {
  const count = Number.isFinite(current.rating_count) && (current.rating_count as number) > 0 ? Math.floor(current.rating_count as number) : 0;
  const avg = count > 0 && Number.isFinite(current.rating_avg) ? (current.rating_avg as number) : 0;
  const previous = isValidRating(current.user_rating) ? current.user_rating : null;
  if (previous !== null && count > 0) {
    return { rating_avg: roundOne((avg * count - previous + rating) / count), rating_count: count, user_rating: rating };
  }
  return { rating_avg: roundOne((avg * count + rating) / (count + 1)), rating_count: count + 1, user_rating: rating };
}
