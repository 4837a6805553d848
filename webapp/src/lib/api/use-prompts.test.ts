import { describe, expect, it } from 'vitest';
import { isPromptListKey, normalisePromptList, patchPromptInList, promptsUrl, replacePromptInList } from './use-prompts';
import type { Prompt } from './types';

describe('promptsUrl', () => {
  it.each([
    [{}, '/prompts/'],
    [{ sort: 'newest' as const }, '/prompts/'],
    [{ search: '  email ' }, '/prompts/?search=email'],
    [{ search: 'a&b', category_id: 'writing', sort: 'price-high' as const }, '/prompts/?search=a%26b&category_id=writing&sort=price-high'],
  ])('%j → %s', (query, want) => {
    expect(promptsUrl(query)).toBe(want);
  });
});

describe('isPromptListKey', () => {
  it.each([
    [['/prompts/', 'u1'], true],
    [['/prompts/?search=x', 'visitor'], true],
    [['/prompts/categories'], false],
    [['/prompts/free-usage-status', 'u1'], false],
    ['/prompts/', false],
    [null, false],
  ])('%j → %s', (key, want) => {
    expect(isPromptListKey(key)).toBe(want);
  });
});

describe('list helpers', () => {
  const list: Prompt[] = [
    { id: 'a', title: 'A', description: '', price: 1 },
    { id: 'b', title: 'B', description: '', price: 2 },
  ];

  it('normalises envelopes', () => {
    expect(normalisePromptList(list)).toBe(list);
    expect(normalisePromptList({ items: list })).toBe(list);
    expect(normalisePromptList({ prompts: list })).toBe(list);
    expect(normalisePromptList('x')).toEqual([]);
  });

  it('replaces a prompt by id, merging fields', () => {
    const next = replacePromptInList(list, { id: 'b', title: 'B', description: '', price: 2, content: 'full' });
    expect(next?.[1].content).toBe('full');
    expect(next?.[0]).toBe(list[0]);
    expect(replacePromptInList(list, { id: 'zz', title: '', description: '', price: 0 })).toBe(list);
    expect(replacePromptInList(undefined, list[0])).toBeUndefined();
  });

  it('patches one prompt', () => {
    expect(patchPromptInList(list, 'a', { rating_avg: 4 })?.[0].rating_avg).toBe(4);
    expect(patchPromptInList(list, 'nope', { rating_avg: 4 })).toBe(list);
  });
});
