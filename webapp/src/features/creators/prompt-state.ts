// What a creator's prompt or agent is, in words, and what its creator may
// do with it now (docs/creators.md, "Prompts and their states";
// "Versions"; agents go through the same states).

import { promptFieldsOf, type PromptFields } from '../../components/prompt-editor/prompt-rules';
import { ApiError } from '../../lib/api-client';
import type { CreatorPrompt, CreatorPromptState } from './api/types';

export const CHANGE_NOTE_MAX = 300;

/** A prompt or an agent as far as its review state goes. */
export interface Reviewed {
  state: CreatorPromptState;
  review_reason: string | null;
  withdrawn?: boolean;
  pending: { state: Exclude<CreatorPromptState, 'published'>; review_reason: string | null } | null;
}

const WORDS: Record<CreatorPromptState, string> = {
  draft: 'Draft',
  in_review: 'In review',
  published: 'Published',
  rejected: 'Rejected',
};

export function stateWord(state: string): string {
  return WORDS[state as CreatorPromptState] ?? state;
}

/** A prompt's state in words: "Withdrawn" for a sold prompt its creator deleted, else its state's. */
export function promptStateText(p: Pick<CreatorPrompt, 'state' | 'review_reason' | 'withdrawn'>): string {
  return p.withdrawn ? 'Withdrawn: off the marketplace, its buyers keep it' : stateText(p.state, p.review_reason);
}

/** "Rejected: <the admin's reason>", or the state's word. */
export function stateText(state: string, reason: string | null | undefined): string {
  const word = stateWord(state);
  return state === 'rejected' && reason?.trim() ? `${word}: ${reason.trim()}` : word;
}

/** The pending next version of a published prompt or agent, in words; null when it has none. */
export function pendingText(p: Reviewed): string | null {
  if (p.state !== 'published' || !p.pending) return null;
  return `Next version: ${stateText(p.pending.state, p.pending.review_reason)}`;
}

/** In review (the prompt, or its next version) cannot be edited until an admin decides. */
export function canEdit(p: Reviewed): boolean {
  if (p.state === 'in_review' || p.withdrawn) return false;
  return !(p.state === 'published' && p.pending?.state === 'in_review');
}

/** A draft or a rejected prompt, or a published one's saved next version, can go to review. */
export function canSubmit(p: Reviewed): boolean {
  if (p.withdrawn) return false;
  if (p.state === 'draft' || p.state === 'rejected') return true;
  return p.state === 'published' && p.pending != null && p.pending.state !== 'in_review';
}

/** The form's fields for an edit: the next version when one is saved, else the prompt as it is. */
export function editFieldsOf(p: CreatorPrompt): PromptFields {
  return promptFieldsOf(p.state === 'published' && p.pending ? p.pending : p);
}

/** An edit's "what changed" note: required on a published prompt, at most 300 characters. */
export function checkChangeNote(note: string): string | null {
  const n = [...note.trim()].length;
  if (n === 0) return 'Say what changed, for your buyers.';
  if (n > CHANGE_NOTE_MAX) return `What changed must be at most ${CHANGE_NOTE_MAX} characters (now ${n}).`;
  return null;
}

/** The prompt (or agent) as it now is, from a 409 that carries it (a stale version); null otherwise. */
export function currentOf<T extends { id: string } = CreatorPrompt>(err: unknown): T | null {
  if (!(err instanceof ApiError) || err.status !== 409) return null;
  const current = (err.body as { current?: unknown } | undefined)?.current;
  if (!current || typeof current !== 'object' || typeof (current as T).id !== 'string') return null;
  return current as T;
}
