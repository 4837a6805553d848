import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from './relative-time';

const NOW = Date.parse('2025-06-15T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('formatRelativeTime', () => {
  it('says "Just now" under a minute and for small clock skew into the future', () => {
    expect(formatRelativeTime(ago(0), NOW)).toBe('Just now');
    expect(formatRelativeTime(ago(59_000), NOW)).toBe('Just now');
    expect(formatRelativeTime(ago(-30_000), NOW)).toBe('Just now');
  });

  it('counts minutes under one hour', () => {
    expect(formatRelativeTime(ago(MIN), NOW)).toBe('1 minute ago');
    expect(formatRelativeTime(ago(5 * MIN), NOW)).toBe('5 minutes ago');
    expect(formatRelativeTime(ago(59 * MIN + 59_000), NOW)).toBe('59 minutes ago');
  });

  it('counts hours from one hour to under 24 hours', () => {
    expect(formatRelativeTime(ago(HOUR), NOW)).toBe('1 hour ago');
    expect(formatRelativeTime(ago(3 * HOUR + 20 * MIN), NOW)).toBe('3 hours ago');
    expect(formatRelativeTime(ago(23 * HOUR + 59 * MIN), NOW)).toBe('23 hours ago');
  });

  it('counts days from 24 hours to under 7 days', () => {
    expect(formatRelativeTime(ago(DAY), NOW)).toBe('1 day ago');
    expect(formatRelativeTime(ago(6 * DAY + 23 * HOUR), NOW)).toBe('6 days ago');
  });

  it('shows a date from 7 days on', () => {
    expect(formatRelativeTime(ago(7 * DAY), NOW)).toBe('Jun 8, 2025');
    expect(formatRelativeTime('2024-01-02T10:00:00Z', NOW)).toBe('Jan 2, 2024');
  });

  it('accepts Date and epoch inputs', () => {
    expect(formatRelativeTime(new Date(NOW - 2 * HOUR), new Date(NOW))).toBe('2 hours ago');
    expect(formatRelativeTime(NOW - 2 * DAY, NOW)).toBe('2 days ago');
  });

  it('returns an empty string for unparseable input', () => {
    expect(formatRelativeTime('not a date', NOW)).toBe('');
    expect(formatRelativeTime('', NOW)).toBe('');
  });
});
