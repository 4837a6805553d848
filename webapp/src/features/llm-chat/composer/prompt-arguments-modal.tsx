// The fill-in dialog (as the menu templates' "Fill Template Variables")
// for a server's prompt: a field per argument, required ones marked, the
// server's completions as suggestions; Insert puts the prompt's text in
// the composer.

import { useId, useState, type FormEvent } from 'react';
import { Modal } from '../../../components/modal';
import { errorMessage } from '../../../lib/api-client';
import type { McpPrompt } from '../api/mcp-composer';
import { CompletingField } from './completing-field';
import './composer.css';

export const PROMPT_FAILED = 'The prompt could not be loaded.';

/** A prompt the composer itself refuses (its message says why). */
export class PromptRefusedError extends Error {}

/** What a failed prompt says: the composer's refusal, else the server's words. */
export function promptFailure(err: unknown): string {
  return err instanceof PromptRefusedError ? err.message : errorMessage(err, PROMPT_FAILED);
}

interface PromptArgumentsModalProps {
  connectionId: string;
  serverName: string;
  prompt: McpPrompt;
  /** Fills the prompt (prompts/get) and puts it in the composer; rejects with why it failed. */
  onSubmit: (args: Record<string, string>) => Promise<void>;
  onCancel: () => void;
}

export function PromptArgumentsModal({ connectionId, serverName, prompt, onSubmit, onCancel }: PromptArgumentsModalProps) {
  const titleId = useId();
  const idBase = useId();
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const missing = prompt.arguments.filter((a) => a.required && !(values[a.name] ?? '').trim());
    if (missing.length > 0) {
      setError(`Fill in ${missing.map((a) => a.title || a.name).join(', ')}.`);
      return;
    }
    const args: Record<string, string> = {};
    for (const a of prompt.arguments) if ((values[a.name] ?? '') !== '') args[a.name] = values[a.name];
    setBusy(true);
    setError('');
    onSubmit(args).catch((err: unknown) => {
      setBusy(false);
      setError(promptFailure(err));
    });
  };

  return (
    <Modal labelledBy={titleId} onClose={onCancel} className="chat-modal chat-modal--wide" testId="prompt-arguments">
      <form className="chat-modal__form" onSubmit={submit} noValidate>
        <header className="chat-modal__head">
          <h2 id={titleId} className="chat-modal__title">
            {prompt.title || prompt.name}
          </h2>
          <span className="chat-fill__help">{serverName}</span>
        </header>
        <div className="chat-modal__body chat-fill">
          {prompt.description ? <p className="chat-fill__help">{prompt.description}</p> : null}
          {prompt.arguments.map((a) => (
            <CompletingField
              key={a.name}
              connectionId={connectionId}
              completionRef={{ type: 'ref/prompt', name: prompt.name }}
              name={a.name}
              label={a.title || a.name}
              description={a.description}
              required={a.required}
              value={values[a.name] ?? ''}
              context={values}
              idBase={idBase}
              onChange={(v) => setValues((old) => ({ ...old, [a.name]: v }))}
            />
          ))}
          {error ? (
            <p className="chat-fill__error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
        <footer className="chat-modal__foot">
          <button type="button" className="chat-button" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="chat-button chat-button--primary" disabled={busy}>
            {busy ? 'Loading...' : 'Insert'}
          </button>
        </footer>
      </form>
    </Modal>
  );
}
