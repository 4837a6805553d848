// The creator's profile: display name, bio and country. The first save
// makes the user a creator, so before it the section explains selling and
// its button says "Sell your prompts".

import { useId, useMemo, useState, type FormEvent } from 'react';
import { Alert, Button, Heading, SelectField, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { notify } from '../../../components/notifications/notification-store';
import { ApiError, errorMessage } from '../../../lib/api-client';
import type { CreatorProfile } from '../../../lib/api/use-creator';
import { saveProfile } from '../api/requests';
import { countryOptions } from '../countries';
import { BIO_MAX, DISPLAY_NAME_MAX, profileFieldOfMessage, profileFormOf, validateProfile, type ProfileErrors } from '../profile-rules';
import { useFocusInvalid, withoutKey } from '../use-focus-invalid';

interface ProfileSectionProps {
  /** The saved profile; null before the first save. */
  profile: CreatorProfile | null;
  /** The platform's share of a sale in percent, when the API says. */
  feePercent?: number;
  onSaved: (profile: CreatorProfile) => void;
}

/** How selling works, in a sentence; the fee only when the API gives it. */
export function sellingText(feePercent?: number): string {
  const share =
    typeof feePercent === 'number' && feePercent >= 0 && feePercent <= 100
      ? `you keep ${100 - feePercent} % of each sale and the platform keeps ${feePercent} %`
      : 'the platform keeps a fee from each sale and the rest is yours';
  return `List your prompts on the marketplace: an admin reviews each one before it goes on sale, buyers pay through Stripe, and ${share}, paid out to your bank through Stripe.`;
}

export function ProfileSection({ profile, feePercent, onSaved }: ProfileSectionProps) {
  const headingId = useId();
  const [form, setForm] = useState(() => profileFormOf(profile));
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<ProfileErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const { ref, refused } = useFocusInvalid<HTMLFormElement>();
  const countries = useMemo(() => countryOptions(), []);
  const isNew = profile === null;

  const errors = submitted ? { ...validateProfile(form), ...serverErrors } : serverErrors;
  const set = (key: keyof typeof form, value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    setServerErrors((e) => withoutKey(e, key));
  };
  const field = (key: keyof typeof form) => ({
    value: form[key],
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
    hasError: Boolean(errors[key]),
    errorMessage: errors[key],
  });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    setSubmitted(true);
    setFailure(null);
    if (Object.keys(validateProfile(form)).length) return refused();
    setSaving(true);
    try {
      const saved = await saveProfile({ display_name: form.display_name.trim(), bio: form.bio.trim(), country: form.country });
      setForm(profileFormOf(saved));
      setSubmitted(false);
      notify('success', isNew ? 'You are a creator now. Set up payouts to sell.' : 'Profile saved.');
      onSaved(saved);
    } catch (err) {
      const field = err instanceof ApiError && err.status === 400 && err.fromServer ? profileFieldOfMessage(err.detail) : null;
      if (field) {
        setServerErrors({ [field]: err instanceof ApiError ? err.detail : '' });
        refused();
      } else setFailure(errorMessage(err, 'Your profile could not be saved. Please try again.'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="creator-section" aria-labelledby={headingId}>
      <Heading level={2} id={headingId} className="section-title">
        {isNew ? 'Become a creator' : 'Profile'}
      </Heading>
      {isNew ? <p className="creator-intro">{sellingText(feePercent)}</p> : null}
      <form ref={ref} className="creator-form" onSubmit={(e) => void submit(e)} noValidate aria-busy={saving} aria-labelledby={headingId}>
        <TextField label="Display name" isRequired autoComplete="nickname" {...field('display_name')} descriptiveText={`Shown on your prompts and your page; up to ${DISPLAY_NAME_MAX} characters.`} />
        <TextAreaField label="Bio" rows={3} {...field('bio')} descriptiveText={`Optional; up to ${BIO_MAX} characters.`} />
        <SelectField label="Country" isRequired {...field('country')} descriptiveText="Where you live: Stripe pays you there.">
          <option value="">Choose a country</option>
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </SelectField>
        {failure ? (
          <Alert variation="error" heading="Not saved" data-testid="profile-save-error">
            {failure}
          </Alert>
        ) : null}
        <div className="creator-actions">
          <Button type="submit" variation="primary" isDisabled={saving}>
            {isNew ? 'Sell your prompts' : 'Save profile'}
          </Button>
        </div>
      </form>
    </section>
  );
}
