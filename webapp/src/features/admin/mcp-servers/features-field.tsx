// A server's features as a list: type one and press Enter (or Add); each
// has its own Remove button. Enter here adds, it does not submit the form.

import { useId, useState } from 'react';
import { Button, TextField } from '@aws-amplify/ui-react';

interface FeaturesFieldProps {
  features: readonly string[];
  onChange: (features: string[]) => void;
}

export function FeaturesField({ features, onChange }: FeaturesFieldProps) {
  const [draft, setDraft] = useState('');
  const legendId = useId();
  const add = () => {
    const f = draft.trim();
    if (f && !features.includes(f)) onChange([...features, f]);
    setDraft('');
  };
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
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
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
