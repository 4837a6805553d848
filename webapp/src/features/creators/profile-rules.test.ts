import { describe, expect, it } from 'vitest';
import { profileFieldOfMessage, validateProfile } from './profile-rules';

const VALID = { display_name: 'Ada', bio: '', country: 'GB' };

describe('a creator profile’s rules (as the API checks them)', () => {
  it('passes a valid profile; the bio may be empty', () => {
    expect(validateProfile(VALID)).toEqual({});
  });

  it('needs a display name of at most 60 characters on one line', () => {
    expect(validateProfile({ ...VALID, display_name: '  ' }).display_name).toBe('Display name is required.');
    expect(validateProfile({ ...VALID, display_name: '😀'.repeat(60) })).toEqual({});
    expect(validateProfile({ ...VALID, display_name: 'x'.repeat(61) }).display_name).toBe('Display name must be at most 60 characters (now 61).');
    expect(validateProfile({ ...VALID, display_name: 'a\tb' }).display_name).toMatch(/control characters/);
  });

  it('holds the bio to 500 characters and the country to the Stripe list', () => {
    expect(validateProfile({ ...VALID, bio: 'b'.repeat(501) }).bio).toBe('Bio must be at most 500 characters (now 501).');
    expect(validateProfile({ ...VALID, country: '' }).country).toBe('Choose your country.');
    expect(validateProfile({ ...VALID, country: 'IN' }).country).toBe('Choose a country from the list.');
  });

  it('finds the field an API refusal names', () => {
    expect(profileFieldOfMessage('Display name must be at most 60 characters.')).toBe('display_name');
    expect(profileFieldOfMessage('Bio must be at most 500 characters.')).toBe('bio');
    expect(profileFieldOfMessage('Country must be a two-letter country code where Stripe pays creators (for example US, GB or DE).')).toBe('country');
    expect(profileFieldOfMessage('display_name, bio and country are required (bio may be empty).')).toBe('display_name');
    expect(profileFieldOfMessage('Something else.')).toBeNull();
  });
});
