// SPEC §3 "Chat tab", "Conversation", "Message".

import type { ProviderId } from '../providers';

export interface ChatTab {
  id: string;
  /** 'Chat {n}' until the first user message names it. */
  title: string;
  provider: ProviderId;
  model: string;
  /** ISO time. */
  createdAt: string;
}

export type MessageRole = 'user' | 'assistant';

/** What one model call cost, from the stream's usage frame. */
export interface MessageUsage {
  input_tokens: number;
  output_tokens: number;
  /** USD; 0 for the local demo model. */
  cost_usd: number;
  /** The reply came from the local demo model: there is no real cost to show. */
  demo?: boolean;
}

export interface ChatMessage {
  id: string;
  role: MessageRole;
  content: string;
  /** ISO time. */
  timestamp: string;
  /** False while an assistant reply is still streaming. */
  complete: boolean;
  /** The (at most 35-word) summary of a long message, once made. */
  summary: string | null;
  /** The message is long and shown as an excerpt with its summary. */
  truncated: boolean;
  /** The user chose View Full: show the whole message. */
  showFull: boolean;
  /** A summary was asked for (it is asked for once). */
  summaryRequested: boolean;
  /** An assistant reply's tokens and cost, once it finished (absent in older stored chats). */
  usage?: MessageUsage;
  /** What summarising this message cost; counted in the tab's total. */
  summaryUsage?: MessageUsage;
}

export interface ChatState {
  tabs: ChatTab[];
  activeTabId: string;
  /** Tab id → its messages. */
  conversations: Record<string, ChatMessage[]>;
}
