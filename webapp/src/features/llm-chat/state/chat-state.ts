// The tab and conversation rules of SPEC §4 as a pure reducer. Ids and
// times come in with the actions, so every rule is testable as is.

import { TAB_TITLE_CHARS } from '../constants';
import { displayText } from '../menu/display';
import { DEFAULT_PROVIDER, firstModel, modelFor, type ProviderId } from '../providers';
import { isLongMessage } from '../summary';
import type { ChatMessage, ChatState, ChatTab, MessageRole, MessageUsage } from './types';

const DEFAULT_TITLE = /^Chat \d+$/;

export function isDefaultTitle(title: string): boolean {
  return DEFAULT_TITLE.test(title);
}

/** 'Chat {n}': n is one more than the number of tabs, moved on past titles in use. */
export function nextTabTitle(tabs: readonly ChatTab[]): string {
  const taken = new Set(tabs.map((t) => t.title));
  let n = tabs.length + 1;
  while (taken.has(`Chat ${n}`)) n++;
  return `Chat ${n}`;
}

/**
 * A tab title from the first user message: its first 30 characters as
 * shown (menu block removed, whitespace runs as single spaces).
 */
export function titleFromMessage(content: string): string {
  const shown = displayText(content, 'user').replace(/\s+/g, ' ').trim();
  const text = shown || content.replace(/\s+/g, ' ').trim();
  return Array.from(text).slice(0, TAB_TITLE_CHARS).join('');
}

export function createTab(id: string, title: string, provider: ProviderId, model: string, now: string): ChatTab {
  return { id, title, provider, model: modelFor(provider, model), createdAt: now };
}

/** SPEC §4: 'Chat 1' on openai with its first model, as the only tab. */
export function freshChatState(id: string, now: string): ChatState {
  return {
    tabs: [createTab(id, 'Chat 1', DEFAULT_PROVIDER, firstModel(DEFAULT_PROVIDER), now)],
    activeTabId: id,
    conversations: { [id]: [] },
  };
}

export function createMessage(id: string, role: MessageRole, content: string, now: string, complete: boolean): ChatMessage {
  const message: ChatMessage = {
    id,
    role,
    content,
    timestamp: now,
    complete,
    summary: null,
    truncated: false,
    showFull: false,
    summaryRequested: false,
  };
  message.truncated = isLongMessage(message);
  return message;
}

export function activeTab(state: ChatState): ChatTab {
  return state.tabs.find((t) => t.id === state.activeTabId) ?? state.tabs[0];
}

export type ChatAction =
  /** A new tab with the active tab's provider and model, made active. */
  | { type: 'newTab'; id: string; now: string }
  /** `id`/`now` make the fresh 'Chat 1' when the last tab closes. */
  | { type: 'closeTab'; tabId: string; id: string; now: string }
  | { type: 'selectTab'; tabId: string }
  | { type: 'setTabModel'; tabId: string; provider: ProviderId; model: string }
  | { type: 'addMessage'; tabId: string; message: ChatMessage }
  | { type: 'appendContent'; tabId: string; messageId: string; chunk: string }
  /** The reply finished; `usage` is what the stream's usage frame said, when it sent one. */
  | { type: 'completeMessage'; tabId: string; messageId: string; usage?: MessageUsage }
  | { type: 'removeMessage'; tabId: string; messageId: string }
  | { type: 'patchMessage'; tabId: string; messageId: string; patch: Partial<Pick<ChatMessage, 'summary' | 'showFull' | 'summaryRequested' | 'summaryUsage'>> };

function mapMessage(state: ChatState, tabId: string, messageId: string, fn: (m: ChatMessage) => ChatMessage): ChatState {
  const list = state.conversations[tabId];
  if (!list) return state;
  let changed = false;
  const next = list.map((m) => {
    if (m.id !== messageId) return m;
    const updated = fn(m);
    if (updated !== m) changed = true;
    return updated;
  });
  return changed ? { ...state, conversations: { ...state.conversations, [tabId]: next } } : state;
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'newTab': {
      const current = activeTab(state);
      const provider = current?.provider ?? DEFAULT_PROVIDER;
      const tab = createTab(action.id, nextTabTitle(state.tabs), provider, current?.model ?? firstModel(provider), action.now);
      return { tabs: [...state.tabs, tab], activeTabId: tab.id, conversations: { ...state.conversations, [tab.id]: [] } };
    }
    case 'closeTab': {
      if (!state.tabs.some((t) => t.id === action.tabId)) return state;
      const tabs = state.tabs.filter((t) => t.id !== action.tabId);
      if (tabs.length === 0) return freshChatState(action.id, action.now);
      const conversations = { ...state.conversations };
      delete conversations[action.tabId];
      const activeTabId = state.activeTabId === action.tabId ? tabs[tabs.length - 1].id : state.activeTabId;
      return { tabs, activeTabId, conversations };
    }
    case 'selectTab':
      return state.tabs.some((t) => t.id === action.tabId) && state.activeTabId !== action.tabId ? { ...state, activeTabId: action.tabId } : state;
    case 'setTabModel': {
      const model = modelFor(action.provider, action.model);
      return {
        ...state,
        tabs: state.tabs.map((t) => (t.id === action.tabId ? { ...t, provider: action.provider, model } : t)),
      };
    }
    case 'addMessage': {
      const tab = state.tabs.find((t) => t.id === action.tabId);
      if (!tab) return state;
      const list = state.conversations[action.tabId] ?? [];
      const firstUser = action.message.role === 'user' && !list.some((m) => m.role === 'user');
      const tabs =
        firstUser && isDefaultTitle(tab.title)
          ? state.tabs.map((t) => (t.id === tab.id ? { ...t, title: titleFromMessage(action.message.content) || t.title } : t))
          : state.tabs;
      return { ...state, tabs, conversations: { ...state.conversations, [action.tabId]: [...list, action.message] } };
    }
    case 'appendContent':
      return mapMessage(state, action.tabId, action.messageId, (m) => (action.chunk ? { ...m, content: m.content + action.chunk } : m));
    case 'completeMessage':
      return mapMessage(state, action.tabId, action.messageId, (m) => {
        const done: ChatMessage = { ...m, complete: true };
        if (action.usage) done.usage = action.usage;
        return { ...done, truncated: isLongMessage(done) };
      });
    case 'removeMessage': {
      const list = state.conversations[action.tabId];
      if (!list || !list.some((m) => m.id === action.messageId)) return state;
      return { ...state, conversations: { ...state.conversations, [action.tabId]: list.filter((m) => m.id !== action.messageId) } };
    }
    case 'patchMessage':
      return mapMessage(state, action.tabId, action.messageId, (m) => ({ ...m, ...action.patch }));
  }
}

/** SPEC §4: the context sent with a message is the tab's complete messages so far. */
export function contextFor(messages: readonly ChatMessage[]): { role: MessageRole; content: string }[] {
  return messages.filter((m) => m.complete).map((m) => ({ role: m.role, content: m.content }));
}
