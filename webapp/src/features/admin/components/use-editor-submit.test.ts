import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { readServer } from '../api/read-mcp';
import { readPrompt } from '../api/read-prompt';
import type { AdminPrompt, McpServerDraft } from '../api/types';
import { draftOf, EMPTY_PROMPT_FORM, formOf, validatePromptForm, type PromptForm } from '../prompts/prompt-form';
import { serverDraftOf, serverFormOf } from '../mcp-servers/server-rules';
import { prompt, server } from '../test-fixtures';
import { changedFields, editorStep, initialEditorState, planSave, refusal, type EditorEvent, type EditorState } from './use-editor-submit';

const P1 = readPrompt(prompt({ id: 'p1', title: 'A', price: 5, version: 3 }))!;
const P1_NOW = readPrompt(prompt({ id: 'p1', title: 'B', price: 7, version: 4 }))!;

const run = (state: EditorState<AdminPrompt, PromptForm>, ...events: EditorEvent<AdminPrompt, PromptForm>[]) =>
  events.reduce((s, e) => editorStep(s, e, formOf), state);
const editing = () => initialEditorState<AdminPrompt, PromptForm>(P1, EMPTY_PROMPT_FORM, formOf);
const creating = () => initialEditorState<AdminPrompt, PromptForm>(null, EMPTY_PROMPT_FORM, formOf);

const MESSAGES = { readCurrent: readPrompt, createFailed: 'Could not create.', updateFailed: 'Could not save.' };

describe('editorStep', () => {
  it('starts from the record, or from the empty form for a new one', () => {
    expect(editing()).toEqual({ base: P1, form: formOf(P1), submitted: false, failure: null, conflict: null });
    expect(creating().form).toEqual(EMPTY_PROMPT_FORM);
  });

  it('edits one field at a time', () => {
    expect(run(editing(), { type: 'edit', patch: { title: 'New' } }).form).toEqual({ ...formOf(P1), title: 'New' });
  });

  it('Save shows the field errors from then on and clears the last failure, but keeps a conflict', () => {
    const conflict = { detail: 'Changed.', current: P1_NOW };
    const s = run(editing(), { type: 'failed', message: 'No.' }, { type: 'conflict', conflict }, { type: 'submit' });
    expect(s).toMatchObject({ submitted: true, failure: null, conflict });
  });

  it('a reload takes the record as it stands now as the base and fills the form with it', () => {
    const s = run(editing(), { type: 'edit', patch: { title: 'Mine' } }, { type: 'conflict', conflict: { detail: '', current: P1_NOW } }, { type: 'reload' });
    expect(s).toMatchObject({ base: P1_NOW, form: formOf(P1_NOW), conflict: null });
    expect(run(editing(), { type: 'reload' })).toEqual(editing());
  });
});

describe('changedFields', () => {
  it('an edit sends only the fields that changed', () => {
    expect(changedFields(P1, draftOf(formOf(P1)))).toEqual({});
    expect(changedFields(P1, draftOf({ ...formOf(P1), price: '6', featured: true }))).toEqual({ price: 6, featured: true });
  });

  it('compares a list item by item', () => {
    const s = readServer(server({ id: 's1', features: ['tools', 'prompts'] }))!;
    expect(changedFields<McpServerDraft>(s, serverDraftOf(serverFormOf(s)))).toEqual({});
    expect(changedFields<McpServerDraft>(s, serverDraftOf({ ...serverFormOf(s), features: ['prompts', 'tools'], auth: 'oauth' }))).toEqual({ features: ['prompts', 'tools'], auth: 'oauth' });
  });
});

describe('planSave', () => {
  const plan = (state: EditorState<AdminPrompt, PromptForm>) => planSave(state, validatePromptForm(state.form), draftOf);

  it('sends nothing while a field is refused', () => {
    expect(plan(creating())).toEqual({ kind: 'invalid' });
  });

  it('creates a new record from the draft', () => {
    const form = { ...EMPTY_PROMPT_FORM, title: 'T', content: 'C', price: '9.99', category_id: 'sales' };
    expect(plan(run(creating(), { type: 'edit', patch: form }))).toEqual({ kind: 'create', draft: draftOf(form) });
  });

  it('closes an unchanged edit without a request', () => {
    expect(plan(editing())).toEqual({ kind: 'unchanged' });
  });

  it('sends an edit with the version of its base: after a reload, the current one', () => {
    expect(plan(run(editing(), { type: 'edit', patch: { title: 'C' } }))).toEqual({ kind: 'update', id: 'p1', version: 3, changes: { title: 'C' } });
    const reloaded = run(editing(), { type: 'conflict', conflict: { detail: '', current: P1_NOW } }, { type: 'reload' }, { type: 'edit', patch: { title: 'C' } });
    expect(plan(reloaded)).toEqual({ kind: 'update', id: 'p1', version: 4, changes: { title: 'C' } });
  });
});

describe('refusal', () => {
  const stale = new ApiError(409, 'Changed since you opened it.', { code: 'conflict', fromServer: true, body: { current: prompt({ id: 'p1', version: 4 }) } });

  it('an edit refused as stale is a conflict with the record as it stands now', () => {
    expect(refusal(stale, 'update', MESSAGES)).toEqual({ type: 'conflict', conflict: { detail: 'Changed since you opened it.', current: readPrompt(prompt({ id: 'p1', version: 4 })) } });
  });

  it("any other refusal shows the API's detail, else the editor's sentence", () => {
    expect(refusal(new ApiError(400, 'Bad category.', { fromServer: true }), 'update', MESSAGES)).toEqual({ type: 'failed', message: 'Bad category.' });
    expect(refusal(new ApiError(0, 'Network error'), 'update', MESSAGES)).toEqual({ type: 'failed', message: 'Could not save.' });
    expect(refusal(new ApiError(409, 'Taken.', { fromServer: true }), 'update', MESSAGES)).toEqual({ type: 'failed', message: 'Taken.' });
    expect(refusal(stale, 'create', MESSAGES)).toEqual({ type: 'failed', message: 'Changed since you opened it.' });
    expect(refusal(new Error('x'), 'create', MESSAGES)).toEqual({ type: 'failed', message: 'Could not create.' });
  });
});
