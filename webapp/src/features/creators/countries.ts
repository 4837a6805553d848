// The countries a creator may sell from: where Stripe lets a platform open
// a connected (Express) account. The same two-letter codes, in the same
// order, as creatorsapi.StripeConnectCountries (shared/api/creatorsapi/profile.go),
// which the API checks; a Go test compares the two lists, so keep this a
// plain array of quoted codes.
// prettier-ignore
export const STRIPE_CONNECT_COUNTRIES: readonly string[] = [
  'AE', 'AT', 'AU', 'BE', 'BG', 'BR', 'CA', 'CH', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GB', 'GI', 'GR',
  'HK', 'HR', 'HU', 'IE', 'IT', 'JP', 'LI', 'LT', 'LU', 'LV', 'MT', 'MX', 'MY', 'NL', 'NO', 'NZ', 'PL', 'PT', 'RO',
  'SE', 'SG', 'SI', 'SK', 'TH', 'US',
];

let names: Intl.DisplayNames | undefined;

/** A country's English name ("DE" → "Germany"); the code itself when the browser has no name for it. */
export function countryName(code: string): string {
  names ??= new Intl.DisplayNames(['en'], { type: 'region' });
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

/** The select's choices, by name. */
export function countryOptions(): { code: string; name: string }[] {
  return STRIPE_CONNECT_COUNTRIES.map((code) => ({ code, name: countryName(code) })).sort((a, b) => a.name.localeCompare(b.name, 'en'));
}
