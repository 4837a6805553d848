import { describe, expect, it } from 'vitest';
import { countryName, usernameFromPath } from './creator-page';

describe('usernameFromPath', () => {
  it.each([
    ['/creators/grace', 'grace'],
    ['/creators/grace/', 'grace'],
    ['/creators/ada.l%C3%B6', 'ada.lö'],
    ['/creators', null],
    ['/creators/', null],
    ['/creators/a/b', null],
    ['/creators/%E0%A4%A', null],
    ['/marketplace', null],
  ])('%s → %s', (path, want) => {
    expect(usernameFromPath(path)).toBe(want);
  });
});

describe('countryName', () => {
  it('names the country in English, and falls back to the code', () => {
    expect(countryName('DE')).toBe('Germany');
    expect(countryName('us')).toBe('United States');
    expect(countryName('')).toBe('');
    expect(countryName('not a code')).toBe('not a code');
  });
});
