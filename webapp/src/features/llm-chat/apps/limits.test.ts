import { describe, expect, it } from 'vitest';
import { clampViewHeight, RateWindow, VIEW_MAX_HEIGHT, VIEW_MIN_HEIGHT } from './limits';

describe('clampViewHeight', () => {
  it('keeps a height within [60, 640], rounding up; no number is no height', () => {
    expect(clampViewHeight(300)).toBe(300);
    expect(clampViewHeight(300.2)).toBe(301);
    expect(clampViewHeight(10)).toBe(VIEW_MIN_HEIGHT);
    expect(clampViewHeight(-5)).toBe(VIEW_MIN_HEIGHT);
    expect(clampViewHeight(100_000)).toBe(VIEW_MAX_HEIGHT);
    expect(clampViewHeight(Infinity)).toBeNull();
    expect(clampViewHeight(NaN)).toBeNull();
    expect(clampViewHeight('400')).toBeNull();
    expect(clampViewHeight(undefined)).toBeNull();
  });
});

describe('RateWindow', () => {
  it('allows `limit` takes in any window, refuses (without counting) the rest, and frees them as the window moves', () => {
    let now = 0;
    const rate = new RateWindow(3, 60_000, () => now);
    expect([rate.take(), rate.take(), rate.take()]).toEqual([true, true, true]);
    now = 30_000;
    expect(rate.take()).toBe(false);
    expect(rate.take()).toBe(false);
    now = 60_000; // the first three leave the window together
    expect([rate.take(), rate.take(), rate.take(), rate.take()]).toEqual([true, true, true, false]);
  });
});
