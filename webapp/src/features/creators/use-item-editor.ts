// The save-and-submit flow a creator's prompt form and agent form share
// (docs/creators.md, "Versions"): Save draft creates or edits; Submit for
// review saves what changed, then submits; an edit of a published item is
// its next version and says what changed. A refusal that names a field
// shows beside it; a stale edit (409) shows the item as it now is, keeps
// what was typed, and the next save is made from that version.

import { useState, type FormEvent } from 'react';
import { ApiError, errorMessage } from '../../lib/api-client';
import type { CreatorPromptState } from './api/types';
import { checkChangeNote, currentOf } from './prompt-state';
import { useFocusInvalid, withoutKey } from './use-focus-invalid';

/** A prompt or an agent as far as editing it goes. */
export interface EditableItem {
  id: string;
  version: number;
  state: CreatorPromptState;
  pending: { change_note: string } | null;
}

/** The form's errors: its fields' and the "what changed" note's. */
export type ItemErrors<F> = Partial<Record<keyof F | 'change_note', string>>;

/** A form field whose value is text. */
export type TextKey<F> = { [K in keyof F]: F[K] extends string ? K : never }[keyof F];

/** What differs between a prompt and an agent: their fields, rules and requests. */
export interface ItemKind<T extends EditableItem, F, V> {
  empty: F;
  editFieldsOf: (item: T) => F;
  /** Whether two forms would save the same item. */
  same: (a: F, b: F) => boolean;
  validate: (form: F) => ItemErrors<F>;
  valuesOf: (form: F) => V;
  create: (values: V) => Promise<T>;
  update: (id: string, patch: V & { version: number; change_note?: string }) => Promise<T>;
  submit: (id: string) => Promise<T>;
  /** The field a 400's message names (published: the item takes a "what changed" note); null when none. */
  fieldOfMessage: (message: string, published: boolean) => keyof F | 'change_note' | null;
  /** The failure line when the refusal names no field and says nothing of its own. */
  saveFailed: string;
}

interface Callbacks<T> {
  /** After each write the API accepted (its answer), and after a 409 (the item as it now is). */
  onChanged: (item: T) => void;
  /** After a save or a submit that finished the form's work. */
  onDone: (message: string) => void;
}

export function useItemEditor<T extends EditableItem, F, V>(kind: ItemKind<T, F, V>, item: T | null, { onChanged, onDone }: Callbacks<T>) {
  // The item as last read: its version is what the next edit carries.
  const [base, setBase] = useState<T | null>(item);
  const [form, setForm] = useState<F>(() => (item ? kind.editFieldsOf(item) : kind.empty));
  const [saved, setSaved] = useState<F | null>(() => (item ? kind.editFieldsOf(item) : null));
  const [changeNote, setChangeNote] = useState(() => (item?.state === 'published' ? (item.pending?.change_note ?? '') : ''));
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<ItemErrors<F>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [conflict, setConflict] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const { ref, refused } = useFocusInvalid<HTMLFormElement>();

  const published = base?.state === 'published';
  const validate = (): ItemErrors<F> => {
    const errors = kind.validate(form);
    if (published) {
      const note = checkChangeNote(changeNote);
      if (note) errors.change_note = note;
    }
    return errors;
  };
  const errors: ItemErrors<F> = submitted ? { ...validate(), ...serverErrors } : serverErrors;
  /** Drops the API's refusal of these fields: it no longer holds once they are edited. */
  const edited = (...keys: (keyof F | 'change_note')[]) => setServerErrors((e) => keys.reduce((x, key) => withoutKey(x, key), e));
  const set = <K extends keyof F>(key: K, value: F[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    edited(key);
  };
  const field = (key: TextKey<F>) => ({
    value: form[key] as string,
    onChange: (e: { target: { value: string } }) => set(key, e.target.value as F[TextKey<F>]),
    hasError: Boolean(errors[key]),
    errorMessage: errors[key],
  });
  const noteField = {
    value: changeNote,
    onChange: (e: { target: { value: string } }) => {
      setChangeNote(e.target.value);
      edited('change_note');
    },
    hasError: Boolean(errors.change_note),
    errorMessage: errors.change_note,
  };

  /** Saves the form when it changed (or is new); the item as saved, or null when refused. */
  const save = async (): Promise<T | null> => {
    const noteChanged = published && changeNote.trim() !== (base?.pending?.change_note ?? '');
    if (base && saved && kind.same(form, saved) && !noteChanged && !(published && !base.pending)) return base;
    const values = kind.valuesOf(form);
    try {
      const answer = base
        ? await kind.update(base.id, { ...values, version: base.version, ...(published ? { change_note: changeNote.trim() } : {}) })
        : await kind.create(values);
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
    const current = currentOf<T>(err);
    if (current) {
      // Stale: the item as it now is; what was typed stays in the form,
      // and the next save is made from this version.
      setBase(current);
      setSaved(kind.editFieldsOf(current));
      setConflict(current);
      onChanged(current);
      return;
    }
    if (err instanceof ApiError && err.status === 400 && err.fromServer) {
      const named = kind.fieldOfMessage(err.detail, published);
      if (named) {
        setServerErrors({ [named]: err.detail } as ItemErrors<F>);
        refused();
        return;
      }
    }
    setFailure(errorMessage(err, kind.saveFailed));
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
        const sent = await kind.submit(written.id);
        onChanged(sent);
        onDone('Sent for review.');
      } catch (err) {
        refusal(err);
      }
    } finally {
      setBusy(false);
    }
  };

  return { ref, base, form, setForm, set, edited, field, noteField, errors, published, conflict, failure, busy, run };
}
