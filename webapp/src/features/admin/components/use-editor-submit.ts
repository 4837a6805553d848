// Saving an admin editor (a prompt, an MCP server). Save checks the form
// first and puts the focus on the first field it refuses. A new record is
// created; an edit sends only the fields that changed, with the version the
// record was read at, and closes without a request when nothing changed. A
// 409 (someone else saved since) shows the record as it stands now and
// loads it into the form on request; the admin then saves again with the
// current version. Any other refusal shows the API's detail, else the
// editor's own sentence.
//
// What the editor holds and how it moves is a pure reducer (editorStep) and
// a pure plan of the request (planSave); the hook adds the request.

import { useReducer, type RefObject } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { readConflict, type Conflict } from '../api/conflict';
import type { Version } from '../api/types';
import { useAdminWrite } from './use-admin-write';
import { useFocusFirstInvalid } from './use-focus-first-invalid';

/** A record an admin edits: a write carries the version it was read at. */
export interface Versioned {
  id: string;
  version: Version;
}

/** One field's message by field name; a field without one is valid. */
export type FieldErrors = Partial<Record<string, string>>;

/** The fields of `F` that hold text as typed (not a choice among names). */
type TextKey<F> = { [K in keyof F]: F[K] extends string ? (string extends F[K] ? K : never) : never }[keyof F];

/**
 * What one editor is made of. `R` the record as read, `F` the form, `D`
 * what the API is sent for a valid form (its fields are fields of `R`), `S`
 * the API's answer to a save, `E` the form's field errors.
 */
export interface EditorRules<R extends Versioned & D, F, D extends object, S, E extends FieldErrors> {
  /** The form of a new record. */
  empty: F;
  formOf: (record: R) => F;
  draftOf: (form: F) => D;
  validate: (form: F) => E;
  create: (draft: D) => Promise<S>;
  update: (id: string, version: Version, changes: Partial<D>) => Promise<S>;
  /** A 409's `current` as a record; null when it cannot be read (the 409 then shows as a failure). */
  readCurrent: (raw: unknown) => R | null;
  /** Shown when a create fails without a detail from the API. */
  createFailed: string;
  /** Shown when an edit fails without a detail from the API (and is no conflict). */
  updateFailed: string;
}

export interface EditorState<R, F> {
  /** The record the form edits (null: a new one); a reload after a conflict replaces it. */
  base: R | null;
  form: F;
  /** Save was pressed: each field shows its error from then on. */
  submitted: boolean;
  failure: string | null;
  conflict: Conflict<R> | null;
}

export type EditorEvent<R, F> =
  | { type: 'edit'; patch: Partial<F> }
  /** Save pressed: the last failure goes; a conflict stays until reloaded. */
  | { type: 'submit' }
  | { type: 'failed'; message: string }
  | { type: 'conflict'; conflict: Conflict<R> }
  /** The conflict's record becomes the base and fills the form. */
  | { type: 'reload' };

export function initialEditorState<R, F>(record: R | null, empty: F, formOf: (record: R) => F): EditorState<R, F> {
  return { base: record, form: record ? formOf(record) : empty, submitted: false, failure: null, conflict: null };
}

export function editorStep<R, F>(state: EditorState<R, F>, event: EditorEvent<R, F>, formOf: (record: R) => F): EditorState<R, F> {
  switch (event.type) {
    case 'edit':
      return { ...state, form: { ...state.form, ...event.patch } };
    case 'submit':
      return { ...state, submitted: true, failure: null };
    case 'failed':
      return { ...state, failure: event.message };
    case 'conflict':
      return { ...state, conflict: event.conflict };
    case 'reload':
      if (!state.conflict) return state;
      return { ...state, base: state.conflict.current, form: formOf(state.conflict.current), conflict: null };
  }
}

/** The fields of `draft` that differ from `record` (lists compared item by item): what an edit sends. */
export function changedFields<D extends object>(record: D, draft: D): Partial<D> {
  const changes: Partial<D> = {};
  for (const key of Object.keys(draft) as (keyof D)[]) {
    const was = record[key];
    const now = draft[key];
    const same = Array.isArray(now) && Array.isArray(was) ? now.length === was.length && now.every((v, i) => v === was[i]) : now === was;
    if (!same) changes[key] = now;
  }
  return changes;
}

export type SavePlan<D> =
  | { kind: 'invalid' }
  | { kind: 'unchanged' }
  | { kind: 'create'; draft: D }
  | { kind: 'update'; id: string; version: Version; changes: Partial<D> };

/** What Save does with the editor as it stands. */
export function planSave<R extends Versioned & D, F, D extends object>(
  state: EditorState<R, F>,
  errors: FieldErrors,
  draftOf: (form: F) => D,
): SavePlan<D> {
  if (Object.keys(errors).length > 0) return { kind: 'invalid' };
  const draft = draftOf(state.form);
  if (!state.base) return { kind: 'create', draft };
  const changes = changedFields<D>(state.base, draft);
  if (Object.keys(changes).length === 0) return { kind: 'unchanged' };
  return { kind: 'update', id: state.base.id, version: state.base.version, changes };
}

/** The event a refused save leads to: a conflict (an edit's readable 409) or the failure's sentence. */
export function refusal<R>(
  error: unknown,
  plan: 'create' | 'update',
  rules: { readCurrent: (raw: unknown) => R | null; createFailed: string; updateFailed: string },
): Extract<EditorEvent<R, unknown>, { type: 'failed' | 'conflict' }> {
  if (plan === 'update') {
    const conflict = readConflict(error, rules.readCurrent);
    if (conflict) return { type: 'conflict', conflict };
  }
  return { type: 'failed', message: errorMessage(error, plan === 'create' ? rules.createFailed : rules.updateFailed) };
}

export interface EditorCallbacks<S> {
  onClose: () => void;
  /** After a save: the API's answer, and whether it made a new record. */
  onSaved: (saved: S, created: boolean) => void;
}

/** The state and actions of one open editor (see the top of this file). */
export function useEditorSubmit<R extends Versioned & D, F, D extends object, S, E extends FieldErrors>(
  record: R | null,
  rules: EditorRules<R, F, D, S, E>,
  { onClose, onSaved }: EditorCallbacks<S>,
) {
  const [state, dispatch] = useReducer(
    (s: EditorState<R, F>, e: EditorEvent<R, F>) => editorStep(s, e, rules.formOf),
    record,
    (r: R | null) => initialEditorState(r, rules.empty, rules.formOf),
  );
  const { run, pending } = useAdminWrite();
  const { ref: fieldsRef, focusFirstInvalid } = useFocusFirstInvalid();
  const errors = rules.validate(state.form);

  const save = async () => {
    dispatch({ type: 'submit' });
    const plan = planSave(state, errors, rules.draftOf);
    if (plan.kind === 'invalid') return focusFirstInvalid();
    if (plan.kind === 'unchanged') return onClose();
    const outcome = await run(() => (plan.kind === 'create' ? rules.create(plan.draft) : rules.update(plan.id, plan.version, plan.changes)));
    if (!outcome) return; // a save already running
    if (outcome.ok) onSaved(outcome.value, plan.kind === 'create');
    else dispatch(refusal(outcome.error, plan.kind, rules));
  };

  const set = <K extends keyof F>(key: K, value: F[K]) => {
    const patch: Partial<F> = {};
    patch[key] = value;
    dispatch({ type: 'edit', patch });
  };
  const shown = (field: keyof E): string | undefined => (state.submitted ? errors[field] : undefined);

  return {
    /** The record being edited (null: a new one). */
    base: state.base,
    form: state.form,
    set,
    /** A field's error, once Save has been pressed. */
    shown,
    /** The props of a text field for `key`: its value, its edits, and its error once Save has been pressed. */
    textField: (key: TextKey<F> & keyof E) => ({
      value: state.form[key] as string,
      onChange: (e: { target: { value: string } }) => set(key, e.target.value as F[typeof key]),
      hasError: Boolean(shown(key)),
      errorMessage: shown(key),
    }),
    failure: state.failure,
    conflict: state.conflict,
    reload: () => dispatch({ type: 'reload' }),
    save: () => void save(),
    pending,
    /** Holds the fields: the first refused one gets the focus. */
    fieldsRef,
  };
}

/** What the editor's frame (EditorDialog) shows and does. */
export interface EditorSubmit<R> {
  failure: string | null;
  conflict: Conflict<R> | null;
  reload: () => void;
  save: () => void;
  pending: boolean;
  fieldsRef: RefObject<HTMLDivElement | null>;
}
