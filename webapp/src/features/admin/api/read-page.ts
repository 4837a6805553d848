// A list answer {"items", "next_cursor", "total"}, read item by item: an
// entry the reader cannot use (no id) is dropped rather than crashing the
// table. Unpaged lists ({"items"} only) read as one last page, and a list
// without "total" (the audit log) as one whose size is not known.

import { isRecord, list, num, str } from '../../../lib/api/wire';
import type { Page, Version } from './types';

export function readPage<T>(data: unknown, readItem: (v: unknown) => T | null): Page<T> {
  const o = isRecord(data) ? data : {};
  const items = list(o.items)
    .map(readItem)
    .filter((x): x is T => x !== null);
  return { items, next_cursor: str(o.next_cursor), total: typeof o.total === 'number' ? num(o.total) : null };
}

/** The item's id when it has one, else null (the entry is unusable). */
export function idOf(v: unknown): string | null {
  if (!isRecord(v)) return null;
  if (typeof v.id === 'string' && v.id) return v.id;
  if (typeof v.id === 'number' && Number.isFinite(v.id)) return String(v.id);
  return null;
}

/** A version as it came (number or string), sent back unchanged. */
export function versionOf(v: unknown): Version {
  return typeof v === 'number' || typeof v === 'string' ? v : 0;
}
