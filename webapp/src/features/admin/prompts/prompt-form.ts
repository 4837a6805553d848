// The admin prompt form: the shared prompt fields and their rules
// (components/prompt-editor/prompt-rules.ts, the creators' form checks the
// same) plus the admin-only featured and published flags.

import { EMPTY_PROMPT_FIELDS, promptFieldsOf, promptValuesOf, type PromptFields } from '../../../components/prompt-editor/prompt-rules';
import type { AdminPrompt, PromptDraft } from '../api/types';

export { validatePromptForm, type PromptErrors } from '../../../components/prompt-editor/prompt-rules';

/** The form as typed: the price is text until it is checked. */
export interface PromptForm extends PromptFields {
  featured: boolean;
  published: boolean;
}

export const EMPTY_PROMPT_FORM: PromptForm = { ...EMPTY_PROMPT_FIELDS, featured: false, published: false };

/** What the API is sent for a valid form. */
export function draftOf(form: PromptForm): PromptDraft {
  return { ...promptValuesOf(form), featured: form.featured, published: form.published };
}

export function formOf(p: AdminPrompt): PromptForm {
  return { ...promptFieldsOf(p), featured: p.featured, published: p.published };
}
