// Tabs, active tab and conversations persist in localStorage (SPEC §4)
// under STORAGE_KEYS.chatTabs / chatActiveTab / chatConversations. What is
// read back is checked field by field: anything unusable is dropped, and
// with no usable tab the chat starts with a fresh 'Chat 1'.

import { readJson, readString, STORAGE_KEYS, writeJson, writeString } from '../../../lib/storage';
import { isProviderId, modelFor } from '../providers';
import { isLongMessage } from '../summary';
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

export function loadChatState(freshId: string, now: string): ChatState {
  return restoreChatState(
    readJson<unknown>(STORAGE_KEYS.chatTabs),
    readString(STORAGE_KEYS.chatActiveTab),
    readJson<unknown>(STORAGE_KEYS.chatConversations),
    freshId,
    now,
  );
}

export function saveChatState(state: ChatState): void {
  writeJson(STORAGE_KEYS.chatTabs, state.tabs);
  writeString(STORAGE_KEYS.chatActiveTab, state.activeTabId);
  writeJson(STORAGE_KEYS.chatConversations, state.conversations);
}
