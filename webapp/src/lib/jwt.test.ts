import { describe, expect, it } from 'vitest';
import { hasThreeParts, readJwtExpiry, readJwtIssuedAt, readJwtPayload, tokenState } from './jwt';
import { makeJwt } from '../test/jwt-fixtures';

const NOW = Date.parse('2025-06-15T12:00:00Z');
const nowSec = NOW / 1000;

describe('readJwtPayload / readJwtExpiry', () => {
  it('reads the payload and expiry of a well-formed token', () => {
    const token = makeJwt({ sub: 'u1', exp: nowSec + 3600, iat: nowSec, name: 'Zoë ✓' });
    expect(readJwtPayload(token)).toMatchObject({ sub: 'u1', name: 'Zoë ✓' });
    expect(readJwtExpiry(token)).toBe((nowSec + 3600) * 1000);
    expect(readJwtIssuedAt(token)).toBe(NOW);
  });

  it('decodes base64url characters (- and _)', () => {
    // Payload chosen so that its base64 contains '+' or '/' (→ '-' or '_').
    const token = makeJwt({ exp: nowSec + 60, pad: '>>>???~~~' });
    expect(token.split('.')[1]).toMatch(/[-_]/);
    expect(readJwtExpiry(token)).toBe((nowSec + 60) * 1000);
  });

  it.each([
    ['empty string', ''],
    ['one part', 'abc'],
    ['two parts', 'a.b'],
    ['four parts', 'a.b.c.d'],
    ['empty middle part', 'a..c'],
    ['payload not base64', 'a.%%%.c'],
    ['payload not JSON', `a.${btoa('not json')}.c`],
    ['payload a JSON array', `a.${btoa('[1,2]')}.c`],
  ])('returns null for %s', (_label, token) => {
    expect(readJwtPayload(token)).toBeNull();
    expect(readJwtExpiry(token)).toBeNull();
  });

  it('returns null expiry when exp is missing or not a number', () => {
    expect(readJwtExpiry(makeJwt({ sub: 'x' }))).toBeNull();
    expect(readJwtExpiry(makeJwt({ exp: 'tomorrow' }))).toBeNull();
  });
});

describe('tokenState', () => {
  it('is valid before exp', () => {
    expect(tokenState(makeJwt({ exp: nowSec + 1 }), NOW)).toBe('valid');
  });

  it('is expired at or after exp', () => {
    expect(tokenState(makeJwt({ exp: nowSec }), NOW)).toBe('expired');
    expect(tokenState(makeJwt({ exp: nowSec - 3600 }), NOW)).toBe('expired');
  });

  it('is unreadable for garbage or a missing exp', () => {
    expect(tokenState('garbage', NOW)).toBe('unreadable');
    expect(tokenState(makeJwt({ sub: 'no-exp' }), NOW)).toBe('unreadable');
  });
});

describe('hasThreeParts', () => {
  it('accepts three non-empty dot-separated parts only', () => {
    expect(hasThreeParts('a.b.c')).toBe(true);
    expect(hasThreeParts('a.b')).toBe(false);
    expect(hasThreeParts('a.b.c.d')).toBe(false);
    expect(hasThreeParts('a..c')).toBe(false);
    expect(hasThreeParts('')).toBe(false);
  });
});
