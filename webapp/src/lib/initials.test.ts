import { describe, expect, it } from 'vitest';
import { initials } from './initials';

describe('initials', () => {
  it('takes the first letters of the first two words of the full name', () => {
    expect(initials({ full_name: 'Ada Lovelace', username: 'ada', email: 'ada@example.com' })).toBe('AL');
  });

  it('uses at most two letters', () => {
    expect(initials({ full_name: 'Jean Claude Van Damme' })).toBe('JC');
  });

  it('uses one letter for a one-word name', () => {
    expect(initials({ full_name: 'Plato' })).toBe('P');
  });

  it('upper-cases and ignores extra whitespace', () => {
    expect(initials({ full_name: '  grace   hopper  ' })).toBe('GH');
  });

  it('falls back to the username', () => {
    expect(initials({ full_name: '', username: 'zed', email: 'z@example.com' })).toBe('Z');
    expect(initials({ full_name: '   ', username: 'mike' })).toBe('M');
    expect(initials({ full_name: null, username: 'nora' })).toBe('N');
  });

  it('falls back to the email', () => {
    expect(initials({ full_name: '', username: '', email: 'quinn@example.com' })).toBe('Q');
  });

  it("falls back to 'U'", () => {
    expect(initials({})).toBe('U');
    expect(initials(null)).toBe('U');
    expect(initials(undefined)).toBe('U');
    expect(initials({ full_name: ' ', username: ' ', email: ' ' })).toBe('U');
  });

  it('keeps non-Latin and astral characters whole', () => {
    expect(initials({ full_name: 'Élodie Ñúñez' })).toBe('ÉÑ');
    expect(initials({ full_name: '𝒜lpha 𝒝eta' })).toBe('𝒜𝒝');
  });
});
