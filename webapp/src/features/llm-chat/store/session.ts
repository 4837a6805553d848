// One signed-in account's running chat: the snapshot React reads, the
// streams, connects and timers in flight, and the primitives every other
// store module works through: change the snapshot, apply a reducer action
// (and save it), count a stream as a tab's, and end it all. Which account
// has a session, and when it starts and ends, is account.ts's business.
//
// An ended session is inert: every stream and connect was aborted, every
// timer cleared, and nothing more is written to it or to storage for it.

import type { ChatConnection } from '../api/connect';
import { newId } from '../ids';
import { chatReducer, freshChatState, type ChatAction } from '../state/chat-state';
import type { ChatMessage, ChatState, ChatTab } from '../state/types';
import { loadChatState, saveSoon, saveThisTask } from './save';

export interface ChatSnapshot {
  /** The account this chat belongs to; null when nobody is signed in. */
  userId: string | null;
  state: ChatState;
  /** Tab id → the unsent text in its message box (memory only). */
  drafts: Readonly<Record<string, string>>;
  /** connectionKey → the connection made for that provider and model. */
  connections: Readonly<Record<string, ChatConnection>>;
  /** connectionKey → connects in flight. */
  connecting: Readonly<Record<string, number>>;
  /** Tab ids with a message being sent (connect + stream). */
  sending: Readonly<Record<string, true>>;
  /** Message ids being summarised. */
  summarizing: ReadonlySet<string>;
}

/** What a session tells its owner (account.ts). */
export interface SessionHooks {
  /** The snapshot changed. */
  emit: () => void;
  /** The conversations or the connections changed (not streamed text): look for work, i.e. summaries. */
  afterChange: (s: Session) => void;
}

export interface Session {
  readonly userId: string;
  snap: ChatSnapshot;
  /** Set when the session is over: late results are dropped, nothing is saved. */
  ended: boolean;
  /** Aborts connects in flight when the session ends. */
  readonly lifetime: AbortController;
  /** connectionKey → the connect in flight. */
  readonly inflight: Map<string, Promise<ChatConnection | null>>;
  /** Tab id → its streams (replies and summaries). */
  readonly streams: Map<string, Set<AbortController>>;
  /** Message id → its summary, waiting to start. */
  readonly summaryTimers: Map<string, { tabId: string; timer: ReturnType<typeof setTimeout> }>;
  autoConnectTimer: ReturnType<typeof setTimeout> | undefined;
  saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** A write is queued for the end of this task (save.ts saveThisTask). */
  saveQueued: boolean;
  /** Tab id → its conversation being made on the server. */
  readonly creating: Map<string, Promise<string | null>>;
  /** Conversation ids made or reopened in this session: kept as tabs even when a listing missed them. */
  readonly madeHere: Set<string>;
  /** Conversation ids whose tab was closed in this session: a listing read before the close does not bring them back. */
  readonly closedHere: Set<string>;
  /** Tab ids whose messages were asked of the server in this session. */
  readonly loadedTabs: Set<string>;
  /** Message ids of replies the user stopped (marked stopped when they end). */
  readonly stopping: Set<string>;
  /** Tab ids whose new provider and model the server hears of when the auto-connect timer fires. */
  readonly modelChanges: Set<string>;
  readonly hooks: SessionHooks;
  /** Removes what the owner attached to the session (listeners); called once, when it ends. */
  detach: () => void;
}

export const nowIso = (): string => new Date().toISOString();

/** The snapshot when nobody is signed in. */
export const SIGNED_OUT: ChatSnapshot = {
  userId: null,
  state: freshChatState('signed-out', '1970-01-01T00:00:00.000Z'),
  drafts: {},
  connections: {},
  connecting: {},
  sending: {},
  summarizing: new Set(),
};

/** A session for `userId` with its stored tabs and conversations (a fresh 'Chat 1' when none). */
export function createSession(userId: string, hooks: SessionHooks): Session {
  return {
    userId,
    snap: { ...SIGNED_OUT, userId, state: loadChatState(userId, newId('tab'), nowIso()), summarizing: new Set() },
    ended: false,
    lifetime: new AbortController(),
    inflight: new Map(),
    streams: new Map(),
    summaryTimers: new Map(),
    autoConnectTimer: undefined,
    saveTimer: undefined,
    saveQueued: false,
    creating: new Map(),
    madeHere: new Set(),
    closedHere: new Set(),
    loadedTabs: new Set(),
    stopping: new Set(),
    modelChanges: new Set(),
    hooks,
    detach: () => undefined,
  };
}

/**
 * Ends a session without saving: when it ends because the account signed
 * out, clearUserData has just removed what was stored, and nothing may
 * write it back. (State is saved as it changes, so nothing is lost either.)
 */
export function endSession(s: Session): void {
  if (s.ended) return;
  s.ended = true;
  s.detach();
  s.lifetime.abort();
  for (const set of s.streams.values()) for (const c of set) c.abort();
  s.streams.clear();
  for (const { timer } of s.summaryTimers.values()) clearTimeout(timer);
  s.summaryTimers.clear();
  if (s.autoConnectTimer !== undefined) clearTimeout(s.autoConnectTimer);
  if (s.saveTimer !== undefined) clearTimeout(s.saveTimer);
  s.autoConnectTimer = s.saveTimer = undefined;
}

export function setSnap(s: Session, patch: Partial<ChatSnapshot>): void {
  if (s.ended) return;
  s.snap = { ...s.snap, ...patch };
  s.hooks.emit();
}

/** Applies a reducer action and saves: streamed text batched, anything else before this task ends. */
export function dispatch(s: Session, action: ChatAction): void {
  if (s.ended) return;
  const state = chatReducer(s.snap.state, action);
  if (state === s.snap.state) return;
  setSnap(s, { state });
  if (action.type === 'appendContent') {
    saveSoon(s); // streamed text: batched, and written as any other change when the reply ends
  } else {
    saveThisTask(s);
    s.hooks.afterChange(s);
  }
}

export const findTab = (s: Session, tabId: string): ChatTab | undefined => s.snap.state.tabs.find((t) => t.id === tabId);

export const findMessage = (s: Session, tabId: string, messageId: string): ChatMessage | undefined =>
  s.snap.state.conversations[tabId]?.find((m) => m.id === messageId);

/** Counts a stream (reply or summary) as the tab's until the returned function is called. */
export function track(s: Session, tabId: string, controller: AbortController): () => void {
  let set = s.streams.get(tabId);
  if (!set) s.streams.set(tabId, (set = new Set()));
  set.add(controller);
  return () => {
    set.delete(controller);
    if (set.size === 0 && s.streams.get(tabId) === set) s.streams.delete(tabId);
  };
}

/** Aborts every stream of a tab. */
export function abortTab(s: Session, tabId: string): void {
  for (const c of s.streams.get(tabId) ?? []) c.abort();
  s.streams.delete(tabId);
}
