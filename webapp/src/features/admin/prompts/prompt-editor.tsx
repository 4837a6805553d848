// Create or edit a prompt. The form checks the API's rules before sending
// (prompt-rules.ts), shows each problem under its field, and shows the
// API's detail when it refuses anyway. An edit sends the version it was
// read at with the changed fields; a 409 shows the prompt as it stands now
// and can load it into the form.

import { useState } from 'react';
import { Alert, CheckboxField, SelectField, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { errorMessage } from '../../../lib/api-client';
import { formatUsd } from '../../../lib/format';
import { readConflict, type Conflict } from '../api/conflict';
import { readPrompt } from '../api/read-prompt';
import { createPrompt, updatePrompt } from '../api/requests';
import type { AdminCategory, AdminPrompt } from '../api/types';
import { ConflictNotice } from '../components/conflict-notice';
import { FormDialog } from '../components/form-dialog';
import { useAdminWrite } from '../components/use-admin-write';
import { useFocusFirstInvalid } from '../components/use-focus-first-invalid';
import { formatCount, yesNo } from '../format';
import { MenuPreview } from './menu-preview';
import {
  changedFields,
  charCount,
  CONTENT_MAX,
  DESCRIPTION_MAX,
  draftOf,
  EMPTY_PROMPT_FORM,
  formOf,
  TITLE_MAX,
  validatePromptForm,
  type PromptForm,
} from './prompt-rules';

interface PromptEditorProps {
  /** The prompt to edit; none: a new one. */
  prompt: AdminPrompt | null;
  categories: readonly AdminCategory[];
  onClose: () => void;
  /** After a save (the answer, when readable). */
  onSaved: (saved: AdminPrompt | null, created: boolean) => void;
}

export function PromptEditor({ prompt, categories, onClose, onSaved }: PromptEditorProps) {
  // The record the form edits: a reload after a conflict replaces it.
  const [base, setBase] = useState<AdminPrompt | null>(prompt);
  const [form, setForm] = useState<PromptForm>(prompt ? formOf(prompt) : EMPTY_PROMPT_FORM);
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [conflict, setConflict] = useState<Conflict<AdminPrompt> | null>(null);
  const { run, pending } = useAdminWrite();
  const { ref: fieldsRef, focusFirstInvalid } = useFocusFirstInvalid();

  const errors = validatePromptForm(form);
  const shown = (field: keyof typeof errors) => (submitted ? errors[field] : undefined);
  const set = <K extends keyof PromptForm>(key: K, value: PromptForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  const save = async () => {
    setSubmitted(true);
    setFailure(null);
    if (Object.keys(errors).length > 0) {
      focusFirstInvalid();
      return;
    }
    const draft = draftOf(form);
    if (base) {
      const changes = changedFields(base, draft);
      if (Object.keys(changes).length === 0) {
        onClose();
        return;
      }
      const outcome = await run(() => updatePrompt(base.id, base.version, changes));
      if (!outcome) return;
      if (outcome.ok) return onSaved(outcome.value, false);
      const stale = readConflict(outcome.error, readPrompt);
      if (stale) setConflict(stale);
      else setFailure(errorMessage(outcome.error, 'The prompt could not be saved. Please try again.'));
      return;
    }
    const outcome = await run(() => createPrompt(draft));
    if (!outcome) return;
    if (outcome.ok) onSaved(outcome.value, true);
    else setFailure(errorMessage(outcome.error, 'The prompt could not be created. Please try again.'));
  };

  const reload = () => {
    if (!conflict) return;
    setBase(conflict.current);
    setForm(formOf(conflict.current));
    setConflict(null);
  };

  const contentLength = charCount(form.content);
  const categoryKnown = categories.some((c) => c.id === form.category_id);

  return (
    <FormDialog
      title={prompt ? `Edit “${prompt.title}”` : 'New prompt'}
      saveLabel={prompt ? 'Save changes' : 'Create prompt'}
      savingLabel="Saving…"
      saving={pending}
      onSubmit={() => void save()}
      onClose={onClose}
      testId="prompt-editor"
    >
      {conflict ? <ConflictNotice detail={conflict.detail} current={conflictValues(conflict.current)} onReload={reload} /> : null}
      {failure ? (
        <Alert variation="error" heading="Not saved" data-testid="prompt-save-error">
          {failure}
        </Alert>
      ) : null}
      <div ref={fieldsRef} className="admin-form__fields">
        <TextField
          label="Title"
          isRequired
          value={form.title}
          onChange={(e) => set('title', e.target.value)}
          hasError={Boolean(shown('title'))}
          errorMessage={shown('title')}
          descriptiveText={`1–${TITLE_MAX} characters.`}
        />
        <TextAreaField
          label="Description"
          rows={3}
          value={form.description}
          onChange={(e) => set('description', e.target.value)}
          hasError={Boolean(shown('description'))}
          errorMessage={shown('description')}
          descriptiveText={`Up to ${formatCount(DESCRIPTION_MAX)} characters.`}
        />
        <TextAreaField
          label="Content"
          isRequired
          rows={10}
          className="admin-form__content"
          value={form.content}
          onChange={(e) => set('content', e.target.value)}
          hasError={Boolean(shown('content'))}
          errorMessage={shown('content')}
          descriptiveText={`${formatCount(contentLength)} of ${formatCount(CONTENT_MAX)} characters. A menu template goes between [start menu] and [end menu].`}
          spellCheck={false}
        />
        <MenuPreview content={form.content} />
        <div className="admin-form__row">
          <TextField
            label="Price (USD)"
            isRequired
            inputMode="decimal"
            placeholder="9.99"
            value={form.price}
            onChange={(e) => set('price', e.target.value)}
            hasError={Boolean(shown('price'))}
            errorMessage={shown('price')}
            descriptiveText="More than 0, at most 999.99."
          />
          <SelectField
            label="Category"
            isRequired
            value={form.category_id}
            onChange={(e) => set('category_id', e.target.value)}
            hasError={Boolean(shown('category_id'))}
            errorMessage={shown('category_id')}
          >
            <option value="">Choose a category</option>
            {/* A category deleted since the list was read stays selectable until changed. */}
            {form.category_id && !categoryKnown ? <option value={form.category_id}>{base?.category_name || form.category_id}</option> : null}
            {categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="admin-form__row">
          <CheckboxField label="Featured" name="featured" checked={form.featured} onChange={(e) => set('featured', e.target.checked)} />
          <CheckboxField label="Published" name="published" checked={form.published} onChange={(e) => set('published', e.target.checked)} />
        </div>
      </div>
    </FormDialog>
  );
}

function conflictValues(p: AdminPrompt) {
  return [
    { label: 'Title', value: p.title },
    { label: 'Price', value: formatUsd(p.price) },
    { label: 'Category', value: p.category_name || p.category_id },
    { label: 'Published', value: yesNo(p.published) },
    { label: 'Featured', value: yesNo(p.featured) },
    { label: 'Description', value: p.description },
    { label: 'Content', value: `${formatCount(charCount(p.content))} characters` },
  ];
}
