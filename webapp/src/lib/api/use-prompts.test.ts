import { describe, expect, it } from 'vitest';
import { isPromptListKey, normalisePromptList, normalisePromptPage, pagesCount, patchPromptInList, promptsOfPages, promptsUrl, replacePromptInList } from './use-prompts';
import type { Prompt } from './types';

describe('promptsUrl', () => {
  it.each([
    [{}, '/prompts/'],
    [{ sort: 'newest' as const }, '/prompts/'],
    [{ q: '  email ' }, '/prompts/?q=email'],
    [{ q: 'a&b', category: 'writing', sort: 'price-high' as const }, '/prompts/?q=a%26b&category=writing&sort=price-high'],
    [{ filter: 'mine' as const, limit: 60, cursor: 'abc' }, '/prompts/?filter=mine&limit=60&cursor=abc'],
  ])('%j → %s', (query, want) => {
    expect(promptsUrl(query)).toBe(want);
  });
});

describe('isPromptListKey', () => {
  it.each([
    [['/prompts/', 'u1'], true],
    [['/prompts/?q=x', 'visitor'], true],
    // A marketplace page holds a page, not a list.
    [['/prompts/', 'visitor', 'page'], false],
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

describe('pages', () => {
  const a = { id: 'a', title: 'A', description: '', price: 1 };
  const b = { id: 'b', title: 'B', description: '', price: 2 };
  const c = { id: 'c', title: 'C', description: '', price: 3 };

  it('reads a page, or a bare list as the only page', () => {
    expect(normalisePromptPage({ items: [a], next_cursor: 'n', count: 30, count_exact: true })).toEqual({ items: [a], next_cursor: 'n', count: 30, count_exact: true });
    expect(normalisePromptPage([a, b])).toEqual({ items: [a, b], next_cursor: null, count: 2, count_exact: true });
    expect(normalisePromptPage({ items: [a], next_cursor: null })).toEqual({ items: [a], next_cursor: null, count: 1, count_exact: true });
    expect(normalisePromptPage(null)).toEqual({ items: [], next_cursor: null, count: 0, count_exact: true });
  });

  it('shows each prompt once, where it first came (a prompt that moved between two pages)', () => {
    const pages = [
      { items: [a, b], next_cursor: 'x', count: 3, count_exact: true },
      { items: [b, c], next_cursor: null, count: 3, count_exact: true },
    ];
    expect(promptsOfPages(pages).map((p) => p.id)).toEqual(['a', 'b', 'c']);
    expect(promptsOfPages(undefined)).toEqual([]);
  });

  it('counts exactly when the server does, else at least what was found until the last page', () => {
    const exact = { items: [a], next_cursor: 'x', count: 40, count_exact: true };
    const atLeast = { items: [a, b], next_cursor: 'x', count: 2, count_exact: false };
    expect(pagesCount([exact], 1)).toEqual({ count: 40, exact: true });
    expect(pagesCount([atLeast], 2)).toEqual({ count: 2, exact: false });
    expect(pagesCount([atLeast, { ...atLeast, items: [c], next_cursor: null, count: 1 }], 3)).toEqual({ count: 3, exact: true });
    // Never fewer than the cards shown (a prompt removed after it was shown).
    expect(pagesCount([{ ...exact, count: 0 }], 1)).toEqual({ count: 1, exact: true });
    expect(pagesCount(undefined, 0)).toEqual({ count: 0, exact: true });
  });
});
