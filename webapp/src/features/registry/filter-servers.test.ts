import { describe, expect, it } from 'vitest';
import { compareServers, filterServers, matchesFilter } from './filter-servers';
import { server } from './test-fixtures';

const LIST = [
  server({ id: 'b', name: 'GitHub', model_type: 'code', description: 'Repos and issues' }),
  server({ id: 'a', name: 'arXiv', model_type: 'search', description: 'Papers' }),
  server({ id: 'c', name: 'Atlas', model_type: 'code', is_active: false }),
  server({ id: 'd', name: 'Docs', model_type: 'documentation', description: 'Search the GITHUB docs', registry_name: 'io.docs/mcp' }),
];

describe('filterServers', () => {
  it('all models, no search: everything, active first then by name (case-insensitive)', () => {
    expect(filterServers(LIST, { modelType: '', search: '' }).map((s) => s.id)).toEqual(['a', 'd', 'b', 'c']);
  });
  it('filters by exact model type', () => {
    expect(filterServers(LIST, { modelType: 'code', search: '' }).map((s) => s.id)).toEqual(['b', 'c']);
    expect(filterServers(LIST, { modelType: 'cod', search: '' })).toEqual([]);
  });
  it('searches name, description and registry name, case-insensitively', () => {
    expect(filterServers(LIST, { modelType: '', search: ' github ' }).map((s) => s.id)).toEqual(['d', 'b']);
    expect(filterServers(LIST, { modelType: 'code', search: 'github' }).map((s) => s.id)).toEqual(['b']);
    expect(matchesFilter(LIST[3], { modelType: '', search: 'io.docs' })).toBe(true);
    expect(filterServers(LIST, { modelType: '', search: 'zzz' })).toEqual([]);
  });
  it('puts working servers before those needing sign-in, unknown and down ones', () => {
    const health = (status: 'up' | 'auth_required' | 'unknown' | 'down') => ({ ...LIST[0].health, status });
    const mixed = [
      server({ id: 'down', name: 'A', health: health('down') }),
      server({ id: 'unknown', name: 'B', health: health('unknown') }),
      server({ id: 'auth', name: 'C', health: health('auth_required') }),
      server({ id: 'up', name: 'D', health: health('up') }),
    ];
    expect(filterServers(mixed, { modelType: '', search: '' }).map((s) => s.id)).toEqual(['up', 'auth', 'unknown', 'down']);
  });
  it('does not reorder the input', () => {
    const copy = [...LIST];
    filterServers(LIST, { modelType: '', search: '' });
    expect(LIST).toEqual(copy);
    expect(compareServers(LIST[0], LIST[0])).toBe(0);
  });
});
