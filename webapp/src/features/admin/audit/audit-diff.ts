// An audit line's before → after as the fields that changed, each value as
// compact JSON cut to fit a table cell.

import { isRecord } from '../../../lib/api/wire';

export interface ChangeLine {
  /** The field; '' when the whole value is one scalar or list. */
  field: string;
  /** Compact JSON; null when the field did not exist on that side. */
  before: string | null;
  after: string | null;
}

export const VALUE_MAX = 80;

/** JSON on one line, cut to `max` characters with '…'. */
export function compact(value: unknown, max: number = VALUE_MAX): string {
  const text = JSON.stringify(value) ?? String(value);
  const chars = Array.from(text);
  return chars.length > max ? chars.slice(0, max - 1).join('') + '…' : text;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields that differ between `before` and `after` (null/absent on a side: created or deleted). */
export function auditChanges(before: unknown, after: unknown): ChangeLine[] {
  const b = before ?? null;
  const a = after ?? null;
  if ((b === null || isRecord(b)) && (a === null || isRecord(a)) && !(b === null && a === null)) {
    const from = b ?? {};
    const to = a ?? {};
    const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])];
    return keys
      .filter((k) => !same(from[k], to[k]))
      .map((k) => ({ field: k, before: k in from ? compact(from[k]) : null, after: k in to ? compact(to[k]) : null }));
  }
  if (same(b, a)) return [];
  return [{ field: '', before: b === null ? null : compact(b), after: a === null ? null : compact(a) }];
}
