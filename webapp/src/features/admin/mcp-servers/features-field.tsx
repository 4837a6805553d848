// A server's features as a list: type one and press Enter (or Add); each
// has its own Remove button. Enter here adds, it does not submit the form.

import { useId, useState } from 'react';
import { Button, TextField } from '@aws-amplify/ui-react';
import { checkFeature, FEATURE_MAX, FEATURES_MAX } from './server-rules';

interface FeaturesFieldProps {
  features: readonly string[];
  onChange: (features: string[]) => void;
  /** The form's message about the list, if any. */
  error?: string;
}

export function FeaturesField({ features, onChange, error }: FeaturesFieldProps) {
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const legendId = useId();
  const add = () => {
    const f = draft.trim();
    if (!f) return;
    const why = features.includes(f) ? null : checkFeature(f, features);
    setProblem(why);
    if (why) return;
    if (!features.includes(f)) onChange([...features, f]);
    setDraft('');
  };
  const message = problem ?? error;
  return (
    <fieldset className="admin-features" aria-labelledby={legendId}>
      <legend id={legendId} className="admin-features__legend">
        Features
      </legend>
      {features.length ? (
        <ul className="admin-features__list" aria-label="Features">
          {features.map((f) => (
            <li key={f} className="admin-features__item">
              <span>{f}</span>
              <button type="button" className="admin-features__remove" aria-label={`Remove ${f}`} onClick={() => onChange(features.filter((x) => x !== f))}>
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="admin-muted">No features listed.</p>
      )}
      <div className="admin-inline-form">
        <TextField
          label="Add a feature"
          placeholder="tools, prompts, resources…"
          descriptiveText={`Up to ${FEATURES_MAX}, each at most ${FEATURE_MAX} characters.`}
          hasError={Boolean(message)}
          errorMessage={message ?? undefined}
          value={draft}
          onChange={(e) => {
            setDraft(e.target.value);
            setProblem(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
          size="small"
          autoComplete="off"
        />
        <Button size="small" onClick={add} isDisabled={!draft.trim()}>
          Add
        </Button>
      </div>
    </fieldset>
  );
}
