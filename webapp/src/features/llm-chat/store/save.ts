// Writing a session's chat to storage (the format: state/persistence.ts).
// Every change is written at once, except streamed text, which is batched
// to at most one write per SAVE_DELAY_MS (and written at once when the reply
// ends, as any other change is). Only ever the signed-in account's own keys,
// and nothing once its session ended: clearUserData may just have removed them.

import { signedInUserId } from '../../../lib/auth-session';
import type { ChatState } from '../state/types';
import { saveChatState } from '../state/persistence';

/** Streamed text is written to storage at most this often; everything else at once. */
export const SAVE_DELAY_MS = 250;

/** The part of a session saving needs (a Session is one). */
export interface Saveable {
  readonly userId: string;
  snap: { state: ChatState };
  ended: boolean;
  saveTimer: ReturnType<typeof setTimeout> | undefined;
}

/** Writes the state now (a batched write waiting is done by this one). */
export function saveNow(s: Saveable): void {
  if (s.saveTimer !== undefined) clearTimeout(s.saveTimer);
  s.saveTimer = undefined;
  if (!s.ended && signedInUserId() === s.userId) saveChatState(s.userId, s.snap.state);
}

/** Writes the state within SAVE_DELAY_MS: the calls until then share one write. */
export function saveSoon(s: Saveable): void {
  if (s.saveTimer !== undefined || s.ended) return;
  s.saveTimer = setTimeout(() => {
    s.saveTimer = undefined;
    saveNow(s);
  }, SAVE_DELAY_MS);
}
