// Create or edit a prompt (saving and conflicts: use-editor-submit.ts). The
// form checks the API's rules before sending (prompt-form.ts), shows each
// problem under its field, and shows the API's detail when it refuses anyway.

import { CheckboxField, SelectField, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { formatUsd } from '../../../lib/format';
import { readPrompt } from '../api/read-prompt';
import { createPrompt, updatePrompt } from '../api/requests';
import type { AdminCategory, AdminPrompt, PromptDraft } from '../api/types';
import { EditorDialog } from '../components/editor-dialog';
import { useEditorSubmit, type EditorRules } from '../components/use-editor-submit';
import { formatCount, yesNo } from '../format';
import { MenuPreview } from '../../../components/prompt-editor/menu-preview';
import { charCount, CONTENT_MAX, DESCRIPTION_MAX, TITLE_MAX } from '../../../components/prompt-editor/prompt-rules';
import { draftOf, EMPTY_PROMPT_FORM, formOf, validatePromptForm, type PromptErrors, type PromptForm } from './prompt-form';

const RULES: EditorRules<AdminPrompt, PromptForm, PromptDraft, AdminPrompt | null, PromptErrors> = {
  empty: EMPTY_PROMPT_FORM,
  formOf,
  draftOf,
  validate: validatePromptForm,
  create: createPrompt,
  update: updatePrompt,
  readCurrent: readPrompt,
  createFailed: 'The prompt could not be created. Please try again.',
  updateFailed: 'The prompt could not be saved. Please try again.',
};

interface PromptEditorProps {
  /** The prompt to edit; none: a new one. */
  prompt: AdminPrompt | null;
  categories: readonly AdminCategory[];
  onClose: () => void;
  /** After a save (the answer, when readable). */
  onSaved: (saved: AdminPrompt | null, created: boolean) => void;
}

export function PromptEditor({ prompt, categories, onClose, onSaved }: PromptEditorProps) {
  const editor = useEditorSubmit(prompt, RULES, { onClose, onSaved });
  const { base, form, set, textField } = editor;
  const contentLength = charCount(form.content);
  const categoryKnown = categories.some((c) => c.id === form.category_id);

  return (
    <EditorDialog
      title={prompt ? `Edit “${prompt.title}”` : 'New prompt'}
      saveLabel={prompt ? 'Save changes' : 'Create prompt'}
      editor={editor}
      conflictValues={conflictValues}
      onClose={onClose}
      testId="prompt-editor"
      failureTestId="prompt-save-error"
    >
      <TextField label="Title" isRequired {...textField('title')} descriptiveText={`1–${TITLE_MAX} characters.`} />
      <TextAreaField label="Description" rows={3} {...textField('description')} descriptiveText={`Up to ${formatCount(DESCRIPTION_MAX)} characters.`} />
      <TextAreaField
        label="Content"
        isRequired
        rows={10}
        className="admin-form__content"
        {...textField('content')}
        descriptiveText={`${formatCount(contentLength)} of ${formatCount(CONTENT_MAX)} characters. A menu template goes between [start menu] and [end menu].`}
        spellCheck={false}
      />
      <MenuPreview content={form.content} />
      <div className="admin-form__row">
        <TextField label="Price (USD)" isRequired inputMode="decimal" placeholder="9.99" {...textField('price')} descriptiveText="More than 0, at most 999.99." />
        <SelectField label="Category" isRequired {...textField('category_id')}>
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
    </EditorDialog>
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
