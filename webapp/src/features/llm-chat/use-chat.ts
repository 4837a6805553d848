// The chat page's view of the chat store (store/chat-store.ts): the signed-in
// account's tabs and conversations, the active tab's connection status,
// draft and running usage total. The store, not this hook, owns streams
// and timers, so unmounting the page stops nothing.

import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { ApprovalDecision, ElicitationAction } from './api/chat-stream';
import type { ChatConnection } from './api/connect';
import { connectionKey, connectionStatus, type ConnectionStatus } from './connection';
import type { ProviderId } from './providers';
import { activeTab } from './state/chat-state';
import { awaitingApproval, pauseOf } from './state/message-parts';
import type { ChatMessage, ChatState, ChatTab, MessageUsage } from './state/types';
import { chatStore, getChatSnapshot, pauseFirst, streamingReply, subscribeChat, type SendOptions } from './store/chat-store';
import { totalUsage } from './usage';

export { APPROVAL_FIRST, QUESTION_FIRST, type SendOptions } from './store/chat-store';

export interface ChatController {
  /** The signed-in account; null when nobody is. */
  userId: string | null;
  state: ChatState;
  tab: ChatTab;
  messages: ChatMessage[];
  status: ConnectionStatus;
  sending: boolean;
  draft: string;
  summarizing: ReadonlySet<string>;
  /** The active tab's tokens and cost so far; null before its first counted reply. */
  usageTotal: MessageUsage | null;
  /** A reply in the active tab waits for the user's decision on a tool call (until it expires). */
  awaitingApproval: boolean;
  /** Why a new message waits (a tool approval, or a server's question the reply paused for); null when it need not. */
  pauseText: string | null;
  /** The active tab's reply that is streaming (Stop ends it); null when none is. */
  streaming: ChatMessage | null;
  setDraft: (text: string, tabId?: string) => void;
  newTab: () => string | null;
  closeTab: (tabId: string) => void;
  selectTab: (tabId: string) => void;
  changeModel: (provider: ProviderId, model: string) => void;
  connect: (options?: { force?: boolean }) => Promise<ChatConnection | null>;
  send: (text: string, options?: SendOptions) => Promise<boolean>;
  setShowFull: (messageId: string, showFull: boolean) => void;
  answerApproval: (messageId: string, decision: ApprovalDecision) => Promise<boolean>;
  answerElicitation: (messageId: string, action: ElicitationAction, content?: Record<string, unknown>) => Promise<boolean>;
  setToolServer: (connectionId: string, on: boolean) => void;
  setConfirmReadOnly: (on: boolean) => void;
  stop: () => Promise<boolean>;
  retry: (messageId: string, options?: Omit<SendOptions, 'tabId' | 'replaces'>) => Promise<boolean>;
  reopenConversation: (conversationId: string) => Promise<void>;
  deleteConversation: (conversationId: string) => Promise<void>;
}

const NO_MESSAGES: ChatMessage[] = [];

export function useChat(): ChatController {
  const snap = useSyncExternalStore(subscribeChat, getChatSnapshot, getChatSnapshot);
  const { state } = snap;
  const tab = activeTab(state);
  const key = connectionKey(tab.provider, tab.model);
  const messages = state.conversations[tab.id] ?? NO_MESSAGES;
  const usageTotal = useMemo(() => totalUsage(messages), [messages]);

  // A waiting approval holds new messages back until it expires: render again then.
  const [now, setNow] = useState(() => Date.now());
  const waiting = awaitingApproval(messages, Date.now());
  const pause = waiting ? pauseOf(waiting) : undefined;
  const expiresAt = pause ? Date.parse(pause.expiresAt) : NaN;
  useEffect(() => {
    if (!Number.isFinite(expiresAt)) return;
    // Capped: setTimeout's delay is a 32-bit number; the effect runs again after.
    const timer = setTimeout(() => setNow(Date.now()), Math.min(Math.max(expiresAt - Date.now(), 0) + 50, 2 ** 30));
    return () => clearTimeout(timer);
  }, [expiresAt, now]);

  return {
    userId: snap.userId,
    state,
    tab,
    messages,
    status: connectionStatus(Boolean(snap.connecting[key]), snap.connections[key], tab.provider, tab.model),
    sending: Boolean(snap.sending[tab.id]),
    draft: snap.drafts[tab.id] ?? '',
    summarizing: snap.summarizing,
    usageTotal,
    awaitingApproval: waiting !== undefined,
    pauseText: waiting ? pauseFirst(waiting) : null,
    streaming: streamingReply(messages) ?? null,
    setDraft: chatStore.setDraft,
    newTab: chatStore.newTab,
    closeTab: chatStore.closeTab,
    selectTab: chatStore.selectTab,
    changeModel: chatStore.changeModel,
    connect: chatStore.connect,
    send: chatStore.send,
    setShowFull: chatStore.setShowFull,
    answerApproval: chatStore.answerApproval,
    answerElicitation: chatStore.answerElicitation,
    setToolServer: chatStore.setToolServer,
    setConfirmReadOnly: chatStore.setConfirmReadOnly,
    stop: chatStore.stop,
    retry: chatStore.retry,
    reopenConversation: chatStore.reopenConversation,
    deleteConversation: chatStore.deleteConversation,
  };
}
