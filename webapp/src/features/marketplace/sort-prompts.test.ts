import { describe, expect, it } from 'vitest';
import { compareIds, isSortOption, SORT_OPTIONS, sortPrompts } from './sort-prompts';

type P = { id: string | number; price: number; created_at?: string };
const ids = (list: P[]) => list.map((p) => p.id);

const LIST: P[] = [
  { id: 'b', price: 9.99, created_at: '2026-01-02T00:00:00Z' },
  { id: 'a', price: 4.5, created_at: '2026-01-03T00:00:00Z' },
  { id: 'c', price: 19, created_at: '2026-01-01T00:00:00Z' },
];

describe('sort options', () => {
  it('has the three labels of SPEC §2 in order', () => {
    expect(SORT_OPTIONS.map((o) => [o.value, o.label])).toEqual([
      ['newest', 'Newest First'],
      ['price-low', 'Price: Low to High'],
      ['price-high', 'Price: High to Low'],
    ]);
    expect(isSortOption('price-low')).toBe(true);
    expect(isSortOption('rating')).toBe(false);
  });
});

describe('sortPrompts', () => {
  it('newest: by created_at, newest first', () => {
    expect(ids(sortPrompts(LIST, 'newest'))).toEqual(['a', 'b', 'c']);
  });

  it('price-low: cheapest first', () => {
    expect(ids(sortPrompts(LIST, 'price-low'))).toEqual(['a', 'b', 'c']);
  });

  it('price-high: dearest first', () => {
    expect(ids(sortPrompts(LIST, 'price-high'))).toEqual(['c', 'b', 'a']);
  });

  it('does not change its input', () => {
    const copy = [...LIST];
    sortPrompts(LIST, 'price-high');
    expect(LIST).toEqual(copy);
  });

  it('newest: equal created_at falls back to the id, larger first', () => {
    const t = '2026-02-01T10:00:00Z';
    const list: P[] = [
      { id: 'p-a', price: 1, created_at: t },
      { id: 'p-c', price: 1, created_at: t },
      { id: 'p-b', price: 1, created_at: '2026-02-01T10:00:00.000+00:00' },
    ];
    expect(ids(sortPrompts(list, 'newest'))).toEqual(['p-c', 'p-b', 'p-a']);
  });

  it('newest: numeric ids compare as numbers', () => {
    const list: P[] = [
      { id: 9, price: 1 },
      { id: 10, price: 1 },
      { id: '2', price: 1 },
    ];
    expect(ids(sortPrompts(list, 'newest'))).toEqual([10, 9, '2']);
  });

  it('newest: missing and invalid dates go after valid ones, ordered by id', () => {
    const list: P[] = [
      { id: 'x1', price: 1, created_at: 'not a date' },
      { id: 'old', price: 1, created_at: '2020-01-01T00:00:00Z' },
      { id: 'x3', price: 1 },
      { id: 'new', price: 1, created_at: '2026-01-01T00:00:00Z' },
      { id: 'x2', price: 1, created_at: '' },
    ];
    expect(ids(sortPrompts(list, 'newest'))).toEqual(['new', 'old', 'x3', 'x2', 'x1']);
  });

  it('price sorts: equal prices fall back to newest first, then id', () => {
    const list: P[] = [
      { id: 'older', price: 5, created_at: '2026-01-01T00:00:00Z' },
      { id: 'newer', price: 5, created_at: '2026-03-01T00:00:00Z' },
      { id: 'cheap', price: 1, created_at: '2025-01-01T00:00:00Z' },
    ];
    expect(ids(sortPrompts(list, 'price-low'))).toEqual(['cheap', 'newer', 'older']);
    expect(ids(sortPrompts(list, 'price-high'))).toEqual(['newer', 'older', 'cheap']);
  });

  it('price sorts: unknown prices go last in both directions', () => {
    const list: P[] = [
      { id: 'nan', price: Number.NaN },
      { id: 'two', price: 2 },
      { id: 'one', price: 1 },
    ];
    expect(ids(sortPrompts(list, 'price-low'))).toEqual(['one', 'two', 'nan']);
    expect(ids(sortPrompts(list, 'price-high'))).toEqual(['two', 'one', 'nan']);
  });

  it('an unknown sort value sorts newest first', () => {
    expect(ids(sortPrompts(LIST, 'bogus' as never))).toEqual(['a', 'b', 'c']);
  });
});

describe('compareIds', () => {
  it.each([
    ['2', '10', -1],
    ['010', '9', 1],
    ['007', '7', 0],
    ['a', 'b', -1],
    ['b', 'a', 1],
    ['same', 'same', 0],
    ['10', 'a', -1],
  ] as const)('%s vs %s → %i', (x, y, want) => {
    expect(Math.sign(compareIds(x, y))).toBe(want);
  });
});
