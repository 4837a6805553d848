// A creator's prompt form: the marketplace's fields with the same rules
// and content preview as the admin prompt editor (components/prompt-editor).
// Save draft creates or edits; Submit for review saves what changed, then
// submits. An edit of a published prompt is its next version and says what
// changed. A stale edit (409) shows the prompt as it now is and keeps the
// text typed, so nothing is lost; the next save goes over it.

import { useId, useState, type FormEvent } from 'react';
import { Alert, Button, Heading, SelectField, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { MenuPreview } from '../../../components/prompt-editor/menu-preview';
import {
  charCount,
  CONTENT_MAX,
  DESCRIPTION_MAX,
  EMPTY_PROMPT_FIELDS,
  fieldOfMessage,
  promptValuesOf,
  TITLE_MAX,
  validatePromptForm,
  type PromptErrors,
  type PromptFields,
} from '../../../components/prompt-editor/prompt-rules';
import { ApiError, errorMessage } from '../../../lib/api-client';
import type { Category } from '../../../lib/api/types';
import { formatUsd } from '../../../lib/format';
import { createPrompt, submitPrompt, updatePrompt } from '../api/requests';
import type { CreatorPrompt } from '../api/types';
import { CHANGE_NOTE_MAX, checkChangeNote, currentOf, editFieldsOf, stateText } from '../prompt-state';
import { useFocusInvalid, withoutKey } from '../use-focus-invalid';

type FormErrors = PromptErrors & { change_note?: string };

interface PromptFormProps {
  /** The prompt to edit; null: a new one. */
  prompt: CreatorPrompt | null;
  categories: readonly Category[];
  onClose: () => void;
  /** After each write the API accepted (its answer), and after a 409 (the prompt as it now is). */
  onChanged: (prompt: CreatorPrompt) => void;
  /** After a save or a submit that finished the form's work. */
  onDone: (message: string) => void;
}

const same = (a: PromptFields, b: PromptFields) =>
  a.title === b.title && a.description === b.description && a.content === b.content && a.price === b.price && a.category_id === b.category_id;

export function PromptForm({ prompt, categories, onClose, onChanged, onDone }: PromptFormProps) {
  const headingId = useId();
  // The prompt as last read: its version is what the next edit carries.
  const [base, setBase] = useState<CreatorPrompt | null>(prompt);
  const [form, setForm] = useState<PromptFields>(() => (prompt ? editFieldsOf(prompt) : EMPTY_PROMPT_FIELDS));
  const [saved, setSaved] = useState<PromptFields | null>(() => (prompt ? editFieldsOf(prompt) : null));
  const [changeNote, setChangeNote] = useState(() => (prompt?.state === 'published' ? (prompt.pending?.change_note ?? '') : ''));
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [conflict, setConflict] = useState<CreatorPrompt | null>(null);
  const [busy, setBusy] = useState(false);
  const { ref, refused } = useFocusInvalid<HTMLFormElement>();

  const published = base?.state === 'published';
  const validate = (): FormErrors => {
    const errors: FormErrors = validatePromptForm(form);
    if (published) {
      const note = checkChangeNote(changeNote);
      if (note) errors.change_note = note;
    }
    return errors;
  };
  const errors: FormErrors = submitted ? { ...validate(), ...serverErrors } : serverErrors;
  const set = (key: keyof PromptFields, value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    setServerErrors((e) => withoutKey(e, key));
  };
  const field = (key: keyof PromptFields) => ({
    value: form[key],
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
    hasError: Boolean(errors[key]),
    errorMessage: errors[key],
  });

  /** Saves the form when it changed (or is new); the prompt as saved, or null when refused. */
  const save = async (): Promise<CreatorPrompt | null> => {
    const noteChanged = published && changeNote.trim() !== (base?.pending?.change_note ?? '');
    if (base && saved && same(form, saved) && !noteChanged && !(published && !base.pending)) return base;
    const values = promptValuesOf(form);
    try {
      const answer = base
        ? await updatePrompt(base.id, { ...values, version: base.version, ...(published ? { change_note: changeNote.trim() } : {}) })
        : await createPrompt(values);
      setBase(answer);
      setSaved(form);
      setConflict(null);
      onChanged(answer);
      return answer;
    } catch (err) {
      refusal(err);
      return null;
    }
  };

  const refusal = (err: unknown) => {
    const current = currentOf(err);
    if (current) {
      // Stale: the prompt as it now is; the text typed stays in the form,
      // and the next save is made from this version.
      setBase(current);
      setSaved(editFieldsOf(current));
      setConflict(current);
      onChanged(current);
      return;
    }
    if (err instanceof ApiError && err.status === 400 && err.fromServer) {
      const named = /^change[_ ]note/i.test(err.detail) ? 'change_note' : fieldOfMessage(err.detail);
      if (named) {
        setServerErrors({ [named]: err.detail });
        refused();
        return;
      }
    }
    setFailure(errorMessage(err, 'The prompt could not be saved. Please try again.'));
  };

  const run = async (e: FormEvent | null, andSubmit: boolean) => {
    e?.preventDefault();
    if (busy) return;
    setSubmitted(true);
    setFailure(null);
    setServerErrors({});
    if (Object.keys(validate()).length) return refused();
    setBusy(true);
    try {
      const written = await save();
      if (!written) return;
      if (!andSubmit) return onDone(published ? 'Next version saved as a draft.' : 'Draft saved.');
      try {
        const sent = await submitPrompt(written.id);
        onChanged(sent);
        onDone('Sent for review.');
      } catch (err) {
        refusal(err);
      }
    } finally {
      setBusy(false);
    }
  };

  const categoryKnown = categories.some((c) => String(c.id) === form.category_id);
  const title = base ? `Edit “${base.title}”` : 'New prompt';

  return (
    <section className="creator-editor" aria-labelledby={headingId} data-testid="creator-prompt-form">
      <Heading level={3} id={headingId} className="creator-editor__title">
        {title}
      </Heading>
      <form ref={ref} className="creator-form" onSubmit={(e) => void run(e, false)} noValidate aria-busy={busy} aria-labelledby={headingId}>
        {published ? (
          <Alert variation="info" data-testid="next-version-note">
            This prompt is on sale. Your edit becomes its next version: the live version stays on sale until the new one is approved.
          </Alert>
        ) : null}
        {conflict ? (
          <Alert variation="warning" heading="This prompt changed since you opened it" data-testid="prompt-conflict">
            <p>Here it is as it is now. Your text is kept in the form: save again to replace it with yours.</p>
            <dl className="creator-conflict">
              <dt>Title</dt>
              <dd>{conflict.title}</dd>
              <dt>State</dt>
              <dd>{stateText(conflict.state, conflict.review_reason)}</dd>
              <dt>Price</dt>
              <dd>{formatUsd(conflict.price)}</dd>
              <dt>Description</dt>
              <dd>{conflict.description || '—'}</dd>
              <dt>Content</dt>
              <dd>{charCount(conflict.content).toLocaleString('en-US')} characters</dd>
            </dl>
          </Alert>
        ) : null}
        <TextField label="Title" isRequired {...field('title')} descriptiveText={`1–${TITLE_MAX} characters.`} />
        <TextAreaField label="Description" rows={3} {...field('description')} descriptiveText={`Up to ${DESCRIPTION_MAX.toLocaleString('en-US')} characters.`} />
        <TextAreaField
          label="Content"
          isRequired
          rows={10}
          className="creator-form__content"
          spellCheck={false}
          {...field('content')}
          descriptiveText={`${charCount(form.content).toLocaleString('en-US')} of ${CONTENT_MAX.toLocaleString('en-US')} characters. Write [placeholders] for what buyers fill in; a menu template goes between [start menu] and [end menu].`}
        />
        <MenuPreview content={form.content} />
        <div className="creator-form__row">
          <SelectField label="Category" isRequired {...field('category_id')}>
            <option value="">Choose a category</option>
            {form.category_id && !categoryKnown ? <option value={form.category_id}>{base?.category_name || form.category_id}</option> : null}
            {categories.map((c) => (
              <option key={String(c.id)} value={String(c.id)}>
                {c.name}
              </option>
            ))}
          </SelectField>
          <TextField label="Price" isRequired inputMode="decimal" placeholder="9.99" {...field('price')} descriptiveText="In USD: more than 0, at most 999.99." />
        </div>
        {published ? (
          <TextAreaField
            label="What changed"
            isRequired
            rows={2}
            value={changeNote}
            onChange={(e) => {
              setChangeNote(e.target.value);
              setServerErrors((x) => withoutKey(x, 'change_note'));
            }}
            hasError={Boolean(errors.change_note)}
            errorMessage={errors.change_note}
            descriptiveText={`For your buyers, on the prompt's page; up to ${CHANGE_NOTE_MAX} characters.`}
          />
        ) : null}
        {failure ? (
          <Alert variation="error" heading="Not saved" data-testid="prompt-save-error">
            {failure}
          </Alert>
        ) : null}
        <div className="creator-actions">
          <Button type="submit" isDisabled={busy}>
            Save draft
          </Button>
          <Button variation="primary" onClick={() => void run(null, true)} isDisabled={busy}>
            Submit for review
          </Button>
          <Button variation="link" onClick={onClose} isDisabled={busy}>
            Cancel
          </Button>
        </div>
      </form>
    </section>
  );
}
