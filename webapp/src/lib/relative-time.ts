const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
}

/**
 * SPEC §9: minutes under 1 hour, hours under 24 hours, days under 7 days,
 * else a date. Under a minute (or a timestamp slightly in the future because
 * of clock skew) reads 'Just now'. Unparseable input gives ''.
 */
export function formatRelativeTime(value: string | number | Date, now: number | Date = Date.now()): string {
  const then = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  const nowMs = now instanceof Date ? now.getTime() : now;
  if (!Number.isFinite(then) || !Number.isFinite(nowMs)) return '';
  const diff = nowMs - then;
  if (diff < MINUTE) return 'Just now';
  if (diff < HOUR) return plural(Math.floor(diff / MINUTE), 'minute');
  if (diff < DAY) return plural(Math.floor(diff / HOUR), 'hour');
  if (diff < 7 * DAY) return plural(Math.floor(diff / DAY), 'day');
  return new Date(then).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}
