import { describe, expect, it } from 'vitest';
import { countryName, countryOptions, STRIPE_CONNECT_COUNTRIES } from './countries';

describe('the Stripe Connect countries', () => {
  it('are distinct two-letter upper-case codes in order (as the API lists them)', () => {
    for (const code of STRIPE_CONNECT_COUNTRIES) expect(code).toMatch(/^[A-Z]{2}$/);
    expect(new Set(STRIPE_CONNECT_COUNTRIES).size).toBe(STRIPE_CONNECT_COUNTRIES.length);
    expect([...STRIPE_CONNECT_COUNTRIES].sort()).toEqual(STRIPE_CONNECT_COUNTRIES);
    expect(STRIPE_CONNECT_COUNTRIES).toHaveLength(44);
    expect(STRIPE_CONNECT_COUNTRIES).toContain('US');
    // By invitation only at Stripe, so not offered.
    expect(STRIPE_CONNECT_COUNTRIES).not.toContain('IN');
  });

  it('have names, and the select lists every one by name', () => {
    expect(countryName('DE')).toBe('Germany');
    expect(countryName('GB')).toBe('United Kingdom');
    const options = countryOptions();
    expect(options.map((o) => o.code).sort()).toEqual([...STRIPE_CONNECT_COUNTRIES]);
    for (const o of options) expect(o.name).not.toBe(o.code);
    const names = options.map((o) => o.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
  });
});
