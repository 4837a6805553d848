// The chat page's view of the chat store (chat-store.ts): the signed-in
// account's tabs and conversations, the active tab's connection status,
// draft and running usage total. The store, not this hook, owns streams
// and timers, so unmounting the page stops nothing.

import { useMemo, useSyncExternalStore } from 'react';
import type { ChatConnection } from './api/connect';
import { chatStore, getChatSnapshot, subscribeChat, type SendOptions } from './chat-store';
import { connectionKey, connectionStatus, type ConnectionStatus } from './connection';
import type { ProviderId } from './providers';
import { activeTab } from './state/chat-state';
import type { ChatMessage, ChatState, ChatTab, MessageUsage } from './state/types';
import { totalUsage } from './usage';

export { STREAM_FAILED, type SendOptions } from './chat-store';

export interface ChatController {
  state: ChatState;
  tab: ChatTab;
  messages: ChatMessage[];
  status: ConnectionStatus;
  sending: boolean;
  draft: string;
  summarizing: ReadonlySet<string>;
  /** The active tab's tokens and cost so far; null before its first counted reply. */
  usageTotal: MessageUsage | null;
  setDraft: (text: string, tabId?: string) => void;
  newTab: () => string | null;
  closeTab: (tabId: string) => void;
  selectTab: (tabId: string) => void;
  changeModel: (provider: ProviderId, model: string) => void;
  connect: (options?: { force?: boolean }) => Promise<ChatConnection | null>;
  send: (text: string, options?: SendOptions) => Promise<boolean>;
  setShowFull: (messageId: string, showFull: boolean) => void;
}

const NO_MESSAGES: ChatMessage[] = [];

export function useChat(): ChatController {
  const snap = useSyncExternalStore(subscribeChat, getChatSnapshot, getChatSnapshot);
  const { state } = snap;
  const tab = activeTab(state);
  const key = connectionKey(tab.provider, tab.model);
  const messages = state.conversations[tab.id] ?? NO_MESSAGES;
  const usageTotal = useMemo(() => totalUsage(messages), [messages]);

  return {
    state,
    tab,
    messages,
    status: connectionStatus(Boolean(snap.connecting[key]), snap.connections[key], tab.provider, tab.model),
    sending: Boolean(snap.sending[tab.id]),
    draft: snap.drafts[tab.id] ?? '',
    summarizing: snap.summarizing,
    usageTotal,
    setDraft: chatStore.setDraft,
    newTab: chatStore.newTab,
    closeTab: chatStore.closeTab,
    selectTab: chatStore.selectTab,
    changeModel: chatStore.changeModel,
    connect: chatStore.connect,
    send: chatStore.send,
    setShowFull: chatStore.setShowFull,
  };
}
