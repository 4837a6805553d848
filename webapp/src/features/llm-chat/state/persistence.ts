// Tabs, active tab and conversations persist in localStorage (SPEC §4),
// per account: under userKey(STORAGE_KEYS.chatTabs / chatActiveTab /
// chatConversations, user id), never under the bare keys, so the next
// person on the same browser does not see them (clearUserData removes them
// when the session ends). What is read back is checked field by field:
// anything unusable is dropped, and with no usable tab the chat starts with
// a fresh 'Chat 1'.

import { readJson, readString, STORAGE_KEYS, userKey, writeJson, writeString } from '../../../lib/storage';
import { isProviderId, modelFor } from '../providers';
import { isLongMessage } from '../summary';
import { restoreUsage } from '../usage';
import { freshChatState } from './chat-state';
import type { ChatMessage, ChatState, ChatTab } from './types';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): v is string => typeof v === 'string';

function restoreTab(raw: unknown, index: number, now: string): ChatTab | null {
  if (!isRecord(raw) || !str(raw.id) || !raw.id) return null;
  const provider = isProviderId(raw.provider) ? raw.provider : 'openai';
  return {
    id: raw.id,
    title: str(raw.title) && raw.title.trim() ? raw.title : `Chat ${index + 1}`,
    provider,
    model: modelFor(provider, str(raw.model) ? raw.model : null),
    createdAt: str(raw.createdAt) ? raw.createdAt : now,
  };
}

function restoreMessage(raw: unknown, now: string): ChatMessage | null {
  if (!isRecord(raw) || !str(raw.id) || !str(raw.content)) return null;
  if (raw.role !== 'user' && raw.role !== 'assistant') return null;
  let complete = raw.complete !== false;
  if (!complete && raw.role === 'assistant') {
    // A reply cut off by a reload: drop it when empty, keep what arrived otherwise.
    if (!raw.content) return null;
    complete = true;
  }
  const message: ChatMessage = {
    id: raw.id,
    role: raw.role,
    content: raw.content,
    timestamp: str(raw.timestamp) ? raw.timestamp : now,
    complete,
    summary: str(raw.summary) && raw.summary ? raw.summary : null,
    truncated: false,
    showFull: raw.showFull === true,
    summaryRequested: raw.summaryRequested === true,
  };
  message.truncated = isLongMessage(message);
  const usage = restoreUsage(raw.usage);
  if (usage && message.role === 'assistant') message.usage = usage;
  const summaryUsage = restoreUsage(raw.summaryUsage);
  if (summaryUsage) message.summaryUsage = summaryUsage;
  return message;
}

/** The state from what storage held (pure). `freshId` names the tab made when none is usable. */
export function restoreChatState(rawTabs: unknown, rawActive: unknown, rawConversations: unknown, freshId: string, now: string): ChatState {
  const tabs: ChatTab[] = [];
  const ids = new Set<string>();
  if (Array.isArray(rawTabs)) {
    rawTabs.forEach((raw, i) => {
      const tab = restoreTab(raw, i, now);
      if (tab && !ids.has(tab.id)) {
        ids.add(tab.id);
        tabs.push(tab);
      }
    });
  }
  if (tabs.length === 0) return freshChatState(freshId, now);
  const conversations: Record<string, ChatMessage[]> = {};
  for (const tab of tabs) {
    const list = isRecord(rawConversations) ? rawConversations[tab.id] : undefined;
    conversations[tab.id] = Array.isArray(list) ? list.map((m) => restoreMessage(m, now)).filter((m): m is ChatMessage => m !== null) : [];
  }
  const activeTabId = str(rawActive) && ids.has(rawActive) ? rawActive : tabs[0].id;
  return { tabs, activeTabId, conversations };
}

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

export function saveChatState(userId: string, state: ChatState): void {
  const keys = chatStorageKeys(userId);
  writeJson(keys.tabs, state.tabs);
  writeString(keys.activeTab, state.activeTabId);
  writeJson(keys.conversations, state.conversations);
}
