// One argument of a server's prompt or resource template: a text field
// whose suggestions come from the server's completions as the user types.

import { useEffect, useId, useState } from 'react';
import { complete, type CompletionRef } from '../api/mcp-composer';

/** Wait this long after a keystroke before asking for completions. */
export const COMPLETE_DELAY_MS = 200;

interface CompletingFieldProps {
  connectionId: string;
  completionRef: CompletionRef;
  name: string;
  label: string;
  description?: string;
  required: boolean;
  value: string;
  /** The other arguments' values (the server may narrow its suggestions by them). */
  context: Record<string, string>;
  onChange: (value: string) => void;
  idBase: string;
}

export function CompletingField(props: CompletingFieldProps) {
  const { connectionId, completionRef, name, label, description, required, value, context, onChange, idBase } = props;
  const id = `${idBase}-${name}`;
  const listId = useId();
  const helpId = useId();
  const [options, setOptions] = useState<string[]>([]);
  const contextKey = JSON.stringify(context);
  const refKey = JSON.stringify(completionRef);

  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      complete(connectionId, JSON.parse(refKey) as CompletionRef, { name, value }, JSON.parse(contextKey) as Record<string, string>, controller.signal)
        .then((values) => setOptions(values.filter((v) => v !== value)))
        .catch(() => setOptions([])); // suggestions only: the field works without them
    }, COMPLETE_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [connectionId, refKey, name, value, contextKey]);

  return (
    <div className="chat-fill__field">
      <label htmlFor={id} className="chat-fill__label">
        {label}
        {required ? (
          <>
            <span className="chat-fill__required" aria-hidden="true">
              {' '}
              *
            </span>
            <span className="chat-sr-only"> (required)</span>
          </>
        ) : null}
      </label>
      <input
        id={id}
        type="text"
        value={value}
        required={required}
        aria-required={required}
        list={listId}
        autoComplete="off"
        aria-describedby={description ? helpId : undefined}
        onChange={(e) => onChange(e.target.value)}
        data-testid={`argument-${name}`}
      />
      <datalist id={listId} data-testid={`suggestions-${name}`}>
        {options.map((o) => (
          <option key={o} value={o} />
        ))}
      </datalist>
      {description ? (
        <p id={helpId} className="chat-fill__help">
          {description}
        </p>
      ) : null}
    </div>
  );
}
