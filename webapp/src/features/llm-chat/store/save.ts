// A session's chat in storage, under keys of the account's own (what is
// kept and how it is read back: state/persistence.ts), so the next person
// on the same browser does not see it (clearUserData removes the keys when
// the session ends). Every change is written before the task that made it
// ends (saveThisTask: the changes one action makes together are written
// once), except streamed text, which is batched to at most one write per
// SAVE_DELAY_MS (and written as any other change when the reply ends); a
// page hiding writes what waits at once. Only ever the
// signed-in account's own keys, and nothing once its session ended:
// clearUserData may just have removed them.

import { signedInUserId } from '../../../lib/auth-session';
import { readJson, readString, STORAGE_KEYS, userKey, writeJson, writeString } from '../../../lib/storage';
import { restoreChatState, storableState } from '../state/persistence';
import type { ChatMessage, ChatState } from '../state/types';

/** Streamed text is written to storage at most this often; everything else at once. */
export const SAVE_DELAY_MS = 250;

/** The storage keys of one account's chat. */
export function chatStorageKeys(userId: string): { tabs: string; activeTab: string; conversations: string } {
  return {
    tabs: userKey(STORAGE_KEYS.chatTabs, userId),
    activeTab: userKey(STORAGE_KEYS.chatActiveTab, userId),
    conversations: userKey(STORAGE_KEYS.chatConversations, userId),
  };
}

/** The account's stored chat, or a fresh 'Chat 1' (named `freshId`) when it has none. */
export function loadChatState(userId: string, freshId: string, now: string): ChatState {
  const keys = chatStorageKeys(userId);
  return restoreChatState(readJson<unknown>(keys.tabs), readString(keys.activeTab), readJson<unknown>(keys.conversations), freshId, now);
}

/**
 * Each stored message's JSON, by the message. Messages are immutable (a
 * change makes a new object), so a write serializes only the messages
 * changed since the last one: a conversation of a thousand messages is
 * written at every change (a streamed reply's text every SAVE_DELAY_MS),
 * and serializing all of it each time was a long task of the page.
 */
const messageJson = new WeakMap<ChatMessage, string>();

function jsonOf(message: ChatMessage): string {
  let json = messageJson.get(message);
  if (json === undefined) {
    json = JSON.stringify(message);
    messageJson.set(message, json);
  }
  return json;
}

/** JSON.stringify(conversations), from each message's kept JSON. */
export function conversationsJson(conversations: Record<string, ChatMessage[]>): string {
  const tabs = Object.entries(conversations).map(([tabId, list]) => `${JSON.stringify(tabId)}:[${list.map(jsonOf).join(',')}]`);
  return `{${tabs.join(',')}}`;
}

export function saveChatState(userId: string, state: ChatState): void {
  const keys = chatStorageKeys(userId);
  const { tabs, conversations } = storableState(state);
  writeJson(keys.tabs, tabs);
  writeString(keys.activeTab, state.activeTabId);
  writeString(keys.conversations, conversationsJson(conversations));
}

/** The part of a session saving needs (a Session is one). */
export interface Saveable {
  readonly userId: string;
  snap: { state: ChatState };
  ended: boolean;
  saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** A write is queued for the end of this task (saveThisTask). */
  saveQueued?: boolean;
}

/** Writes the state now (a write waiting, batched or queued, is done by this one). */
export function saveNow(s: Saveable): void {
  if (s.saveTimer !== undefined) clearTimeout(s.saveTimer);
  s.saveTimer = undefined;
  s.saveQueued = false;
  if (!s.ended && signedInUserId() === s.userId) saveChatState(s.userId, s.snap.state);
}

/**
 * Writes the state before the current task ends (a microtask), once for
 * every change made until then: sending a message adds it and its reply,
 * a stream's first frame names both, and a long conversation's write is
 * the costly part of each.
 */
export function saveThisTask(s: Saveable): void {
  if (s.saveQueued || s.ended) return;
  s.saveQueued = true;
  queueMicrotask(() => {
    if (s.saveQueued) saveNow(s);
  });
}

/** Writes the state within SAVE_DELAY_MS: the calls until then share one write. */
export function saveSoon(s: Saveable): void {
  if (s.saveTimer !== undefined || s.ended) return;
  s.saveTimer = setTimeout(() => {
    s.saveTimer = undefined;
    saveNow(s);
  }, SAVE_DELAY_MS);
}
