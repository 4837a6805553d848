// Which account the chat belongs to: the signed-in one. Its session is made
// (its stored chat loaded, then brought in line with the conversations the
// server keeps for it) when first asked for, and ended when that account
// is no longer the signed-in one (logout, a 401, another account signing
// in), even while no chat page is on screen. Its listeners are React's
// (useSyncExternalStore). A page going away (reload, navigation) lets its
// streams go first (the server keeps generating the replies: the next load
// re-attaches to them), so their broken connections are not taken for
// failed replies, then writes what is waiting to be saved; a page coming
// back from the browser's back/forward cache re-attaches to them.

import { signedInUserId, subscribeAuth } from '../../../lib/auth-session';
import { onTestReset } from '../../../lib/test-resets';
import { resumeReplies, syncConversations } from './conversations';
import { saveNow } from './save';
import { abortTab, createSession, endSession, SIGNED_OUT, type ChatSnapshot, type Session } from './session';
import { scheduleSummaries } from './summaries';

let session: Session | null = null;
const listeners = new Set<() => void>();

function emit(): void {
  for (const l of [...listeners]) l();
}

function startSession(userId: string): Session {
  const s = createSession(userId, { emit, afterChange: scheduleSummaries });
  // Logout or a 401 ends the session even when no chat page is on screen.
  const unsubscribe = subscribeAuth(() => {
    if (session === s && signedInUserId() !== s.userId) {
      endSession(s);
      session = null;
      emit();
    }
  });
  const flush = () => {
    for (const tabId of [...s.streams.keys()]) abortTab(s, tabId);
    saveNow(s);
  };
  const back = (event: PageTransitionEvent) => {
    if (event.persisted) void resumeReplies(s);
  };
  window.addEventListener('pagehide', flush);
  window.addEventListener('pageshow', back);
  s.detach = () => {
    unsubscribe();
    window.removeEventListener('pagehide', flush);
    window.removeEventListener('pageshow', back);
  };
  // Asynchronous: nothing is emitted while React reads a snapshot.
  void syncConversations(s);
  return s;
}

/**
 * The signed-in account's session, (re)loaded when the account changed;
 * null when nobody is signed in. Emits nothing: it is also called while
 * React reads a snapshot.
 */
export function currentSession(): Session | null {
  const userId = signedInUserId();
  if (session && session.userId === userId && !session.ended) return session;
  if (session) endSession(session);
  session = userId ? startSession(userId) : null;
  return session;
}

export function subscribeChat(listener: () => void): () => void {
  listeners.add(listener);
  // A change of account changes the snapshot too.
  const unsubscribeAuth = subscribeAuth(listener);
  return () => {
    listeners.delete(listener);
    unsubscribeAuth();
  };
}

export function getChatSnapshot(): ChatSnapshot {
  return currentSession()?.snap ?? SIGNED_OUT;
}

/** Streams (replies and summaries) running in a tab of the session there is: for tests and diagnostics. */
export function runningStreams(tabId: string): number {
  return session?.streams.get(tabId)?.size ?? 0;
}

/** Tests only: abort every stream, clear every timer, forget everything. */
export function resetChatStoreForTests(): void {
  if (session) endSession(session);
  session = null;
  listeners.clear();
}
onTestReset('chat-store', resetChatStoreForTests);
