import { describe, expect, it } from 'vitest';
import { cutToWords, isLongMessage, needsSummary, summaryPrompt } from './summary';

describe('long messages', () => {
  it('1800 characters or more is long; assistant replies only once complete', () => {
    expect(isLongMessage({ role: 'user', content: 'x'.repeat(1800), complete: true })).toBe(true);
    expect(isLongMessage({ role: 'user', content: 'x'.repeat(1799), complete: true })).toBe(false);
    expect(isLongMessage({ role: 'assistant', content: 'x'.repeat(5000), complete: false })).toBe(false);
    expect(isLongMessage({ role: 'assistant', content: 'x'.repeat(1800), complete: true })).toBe(true);
  });
  it('needs a summary once', () => {
    const m = { role: 'user' as const, content: 'x'.repeat(2000), complete: true };
    expect(needsSummary({ ...m, summaryRequested: false })).toBe(true);
    expect(needsSummary({ ...m, summaryRequested: true })).toBe(false);
  });
});

describe('summaryPrompt', () => {
  it('asks for at most 35 words over the first 12000 characters', () => {
    const content = 'a'.repeat(12_000) + 'TAIL';
    const prompt = summaryPrompt(content);
    expect(prompt.startsWith('Summarize the following in at most 35 words:\n\n')).toBe(true);
    expect(prompt).toContain('a'.repeat(12_000));
    expect(prompt).not.toContain('TAIL');
  });
});

describe('cutToWords', () => {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i + 1}`).join(' ');
  it('keeps 35 words or fewer as they are (whitespace normalised)', () => {
    expect(cutToWords(words(35))).toBe(words(35));
    expect(cutToWords('  a\n b\t c ')).toBe('a b c');
    expect(cutToWords('')).toBe('');
  });
  it('cuts longer text to 35 words with an ellipsis', () => {
    const got = cutToWords(words(50));
    expect(got).toBe(`${words(35)}…`);
    expect(got.split(/\s+/)).toHaveLength(35);
  });
  it('honours another limit', () => {
    expect(cutToWords('a b c d', 2)).toBe('a b…');
  });
});
