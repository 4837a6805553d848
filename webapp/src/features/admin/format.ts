// How the admin tables write times and numbers. Times are shown in UTC,
// the zone the order filters' dates are in (docs/admin.md: `from`/`to`: dates, UTC).

const DATE_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const COUNT = new Intl.NumberFormat('en-US');

/** 'Mar 7, 2026, 10:00 AM UTC'; '—' for no time. */
export function formatUtc(iso: string): string {
  const t = Date.parse(iso);
  return Number.isFinite(t) ? `${DATE_TIME.format(t)} UTC` : '—';
}

export function formatCount(n: number): string {
  return COUNT.format(n);
}

export function yesNo(value: boolean): string {
  return value ? 'Yes' : 'No';
}

/** '1 prompt', '3 prompts'. */
export function plural(n: number, one: string, many: string = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
