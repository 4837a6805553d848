// A creator's prompt form: the marketplace's fields with the same rules
// and content preview as the admin prompt editor (components/prompt-editor).
// Save draft creates or edits; Submit for review saves what changed, then
// submits. An edit of a published prompt is its next version and says what
// changed. A stale edit (409) shows the prompt as it now is and keeps the
// text typed, so nothing is lost; the next save goes over it.

import { Alert, TextAreaField, TextField } from '@aws-amplify/ui-react';
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
  type PromptFields,
  type PromptValues,
} from '../../../components/prompt-editor/prompt-rules';
import type { Category } from '../../../lib/api/types';
import { formatUsd } from '../../../lib/format';
import { createPrompt, submitPrompt, updatePrompt } from '../api/requests';
import type { CreatorPrompt } from '../api/types';
import { CHANGE_NOTE_MAX, editFieldsOf, stateText } from '../prompt-state';
import { useItemEditor, type ItemKind } from '../use-item-editor';
import { CategorySelect, ChangeNoteField, ItemEditorFrame, SaveFailure } from './item-editor-parts';

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

const PROMPT: ItemKind<CreatorPrompt, PromptFields, PromptValues> = {
  empty: EMPTY_PROMPT_FIELDS,
  editFieldsOf,
  same: (a, b) => a.title === b.title && a.description === b.description && a.content === b.content && a.price === b.price && a.category_id === b.category_id,
  validate: validatePromptForm,
  valuesOf: promptValuesOf,
  create: createPrompt,
  update: updatePrompt,
  submit: submitPrompt,
  fieldOfMessage: (message) => (/^change[_ ]note/i.test(message) ? 'change_note' : fieldOfMessage(message)),
  saveFailed: 'The prompt could not be saved. Please try again.',
};

export function PromptForm({ prompt, categories, onClose, onChanged, onDone }: PromptFormProps) {
  const editor = useItemEditor(PROMPT, prompt, { onChanged, onDone });
  const { base, form, field, published, conflict } = editor;
  const title = base ? `Edit “${base.title}”` : 'New prompt';

  return (
    <ItemEditorFrame testId="creator-prompt-form" title={title} editor={editor} onClose={onClose}>
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
        <CategorySelect field={field('category_id')} categories={categories} savedName={base?.category_name} />
        <TextField label="Price" isRequired inputMode="decimal" placeholder="9.99" {...field('price')} descriptiveText="In USD: more than 0, at most 999.99." />
      </div>
      {published ? (
        <ChangeNoteField field={editor.noteField} descriptiveText={`For your buyers, on the prompt's page; up to ${CHANGE_NOTE_MAX} characters.`} />
      ) : null}
      <SaveFailure failure={editor.failure} testId="prompt-save-error" />
    </ItemEditorFrame>
  );
}
