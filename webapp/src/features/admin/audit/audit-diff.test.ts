import { describe, expect, it } from 'vitest';
import { auditChanges, compact } from './audit-diff';

describe('auditChanges', () => {
  it('lists only the fields that changed, before → after', () => {
    expect(auditChanges({ id: 'p1', title: 'A', price: 5, tags: ['x'] }, { id: 'p1', title: 'B', price: 5, tags: ['x', 'y'] })).toEqual([
      { field: 'title', before: '"A"', after: '"B"' },
      { field: 'tags', before: '["x"]', after: '["x","y"]' },
    ]);
  });

  it('a creation has every field after, none before; a deletion the reverse', () => {
    expect(auditChanges(null, { id: 'c1', name: 'Sales' })).toEqual([
      { field: 'id', before: null, after: '"c1"' },
      { field: 'name', before: null, after: '"Sales"' },
    ]);
    expect(auditChanges({ name: 'Sales' }, null)).toEqual([{ field: 'name', before: '"Sales"', after: null }]);
  });

  it('fields added or removed by the change', () => {
    expect(auditChanges({ a: 1 }, { b: 2 })).toEqual([
      { field: 'a', before: '1', after: null },
      { field: 'b', before: null, after: '2' },
    ]);
  });

  it('values that are not records are one line; nothing on both sides is no change', () => {
    expect(auditChanges(true, false)).toEqual([{ field: '', before: 'true', after: 'false' }]);
    expect(auditChanges(null, null)).toEqual([]);
    expect(auditChanges(undefined, 'x')).toEqual([{ field: '', before: null, after: '"x"' }]);
  });
});

describe('compact', () => {
  it('is one line of JSON, cut with an ellipsis', () => {
    expect(compact({ a: [1, 2] })).toBe('{"a":[1,2]}');
    expect(compact('x'.repeat(100), 10)).toBe('"xxxxxxxx…');
    expect(Array.from(compact('😀'.repeat(50), 10))).toHaveLength(10);
  });
});
