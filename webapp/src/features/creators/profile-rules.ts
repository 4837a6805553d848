// A creator profile's rules, as PUT /creators/me checks them
// (creatorsapi.checkProfile): display name 1–60 characters on one line, bio
// at most 500, a country from the Stripe Connect list. Characters are
// Unicode code points, as the API counts them.

import { charCount } from '../../components/prompt-editor/prompt-rules';
import type { CreatorProfile } from '../../lib/api/use-creator';
import type { CreatorProfileInput } from './api/requests';
import { STRIPE_CONNECT_COUNTRIES } from './countries';

export const DISPLAY_NAME_MAX = 60;
export const BIO_MAX = 500;

export type ProfileField = keyof CreatorProfileInput;
export type ProfileErrors = Partial<Record<ProfileField, string>>;

export const EMPTY_PROFILE: CreatorProfileInput = { display_name: '', bio: '', country: '' };

export function profileFormOf(p: CreatorProfile | null | undefined): CreatorProfileInput {
  return p ? { display_name: p.display_name, bio: p.bio, country: p.country } : EMPTY_PROFILE;
}

const CONTROL = /\p{Cc}/u;

export function validateProfile(form: CreatorProfileInput): ProfileErrors {
  const errors: ProfileErrors = {};
  const name = form.display_name.trim();
  const n = charCount(name);
  if (n === 0) errors.display_name = 'Display name is required.';
  else if (n > DISPLAY_NAME_MAX) errors.display_name = `Display name must be at most ${DISPLAY_NAME_MAX} characters (now ${n}).`;
  else if (CONTROL.test(name)) errors.display_name = 'Display name must be one line, without tabs or other control characters.';
  const bio = charCount(form.bio.trim());
  if (bio > BIO_MAX) errors.bio = `Bio must be at most ${BIO_MAX} characters (now ${bio}).`;
  if (!form.country) errors.country = 'Choose your country.';
  else if (!STRIPE_CONNECT_COUNTRIES.includes(form.country)) errors.country = 'Choose a country from the list.';
  return errors;
}

/** The field an API refusal names ("Display name must…", "Bio must…", "Country must…"), or null. */
export function profileFieldOfMessage(message: string): ProfileField | null {
  const m = message.trim().toLowerCase();
  if (m.startsWith('display name') || m.startsWith('display_name')) return 'display_name';
  if (m.startsWith('bio')) return 'bio';
  if (m.startsWith('country')) return 'country';
  return null;
}
