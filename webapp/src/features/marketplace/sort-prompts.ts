// SPEC §9 sort options. The server sorts the list it pages (same rules); the
// page keeps the order its pages came in, and sorts here only what it holds
// itself: the sample prompts a visitor sees when the list is refused.

import type { Prompt, SortOption } from '../../lib/api/types';

export const SORT_OPTIONS: readonly { value: SortOption; label: string }[] = [
  { value: 'newest', label: 'Newest First' },
  { value: 'price-low', label: 'Price: Low to High' },
  { value: 'price-high', label: 'Price: High to Low' },
];

export const DEFAULT_SORT: SortOption = 'newest';

export function isSortOption(value: unknown): value is SortOption {
  return SORT_OPTIONS.some((o) => o.value === value);
}

type Sortable = Pick<Prompt, 'id' | 'price' | 'created_at'>;

function timeOf(p: Sortable): number | null {
  if (typeof p.created_at !== 'string' || !p.created_at) return null;
  const t = Date.parse(p.created_at);
  return Number.isFinite(t) ? t : null;
}

/**
 * Ascending id order: numerically when both ids are whole numbers, else by
 * code units (the server's byte order for ASCII ids such as slugs and UUIDs).
 */
export function compareIds(a: Prompt['id'], b: Prompt['id']): number {
  const x = String(a);
  const y = String(b);
  if (/^\d+$/.test(x) && /^\d+$/.test(y)) {
    const nx = x.replace(/^0+(?=\d)/, '');
    const ny = y.replace(/^0+(?=\d)/, '');
    if (nx.length !== ny.length) return nx.length < ny.length ? -1 : 1;
    return nx < ny ? -1 : nx > ny ? 1 : 0;
  }
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Newest first by created_at; equal times fall back to the id, larger first.
 * A missing or unparseable date sorts after every valid one (then by id).
 */
export function compareNewest(a: Sortable, b: Sortable): number {
  const ta = timeOf(a);
  const tb = timeOf(b);
  if (ta !== null && tb !== null && ta !== tb) return tb - ta;
  if (ta !== null && tb === null) return -1;
  if (ta === null && tb !== null) return 1;
  return compareIds(b.id, a.id);
}

function priceOf(p: Sortable): number | null {
  return typeof p.price === 'number' && Number.isFinite(p.price) ? p.price : null;
}

function comparePrice(a: Sortable, b: Sortable, direction: 1 | -1): number {
  const pa = priceOf(a);
  const pb = priceOf(b);
  if (pa !== null && pb !== null && pa !== pb) return (pa - pb) * direction;
  if (pa !== null && pb === null) return -1;
  if (pa === null && pb !== null) return 1;
  return compareNewest(a, b);
}

/** A sorted copy; the input is not changed. Price ties (and unknown prices, last) fall back to newest first. */
export function sortPrompts<T extends Sortable>(prompts: readonly T[], sort: SortOption): T[] {
  const copy = [...prompts];
  switch (sort) {
    case 'price-low':
      return copy.sort((a, b) => comparePrice(a, b, 1));
    case 'price-high':
      return copy.sort((a, b) => comparePrice(a, b, -1));
    case 'newest':
    default:
      return copy.sort(compareNewest);
  }
}
