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
  /** Connection ids of the MCP servers whose tools this tab does not offer (every other connected server's are on). */
  toolsOff?: string[];
  /** Ask before read-only tools too (sent as confirm_read_only). */
  confirmReadOnly?: boolean;
  /**
   * The marketplace agent the tab's conversation runs as: its provider and
   * model are the agent's and do not change, the server adds its
   * instructions, and only its servers' tools are offered.
   */
  agent?: ChatAgent;
  /**
   * The server conversation this tab is. Absent until it is made:
   * a fresh 'Chat 1' is made with its first message, a new tab at once.
   */
  conversationId?: string;
  /** Messages the server holds for it, as its last listing said (closing an empty one deletes it). */
  messageCount?: number;
  /**
   * The tab came from the browser's storage of before conversations were
   * kept with the account, and is not uploaded yet (memory only).
   */
  legacy?: boolean;
}

/** A conversation's agent, as the conversation names it. */
export interface ChatAgent {
  id: string;
  name: string;
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

/** Where a tool call stands: waiting for the user's approval, its server asking the user something, running, or how it ended. */
export type ToolCallState = 'waiting' | 'asking' | 'signin' | 'running' | 'done' | 'failed' | 'denied' | 'interrupted';

/** A running call's progress, as its server last said. */
export interface ToolProgress {
  progress: number;
  /** Known only when the server says how much there is: the bar shows a share then. */
  total?: number;
  message?: string;
}

/** One log line a server sent while its call ran. */
export interface ToolLogLine {
  level: string;
  /** The logged data as text. */
  text: string;
}

/** One MCP content block of a tool result, as the stream sent it. */
export interface ToolContent {
  type: string;
  [field: string]: unknown;
}

/** A call the model made to a tool of one of the user's MCP servers, and its outcome. */
export interface ToolBlock {
  kind: 'tool';
  /** The content length when the call came: the block sits after that much text. */
  at: number;
  /** The call id (from the tool_call frame). */
  id: string;
  serverId: string;
  serverName: string;
  tool: string;
  arguments: unknown;
  state: ToolCallState;
  durationMs?: number;
  /** The MCP connection the call ran on (a view reads and calls through it). */
  connectionId?: string;
  /** The tool's view (MCP Apps `ui://` resource), shown under the call. */
  uiResourceUri?: string;
  /** The result's content blocks, once it came. */
  result?: ToolContent[];
  /** The result's structuredContent (for the view), when the server sent it. */
  structuredContent?: unknown;
  /** The result was cut (by the server, or when kept in browser storage). */
  truncated?: boolean;
  /** Why it failed when there is no result to say so (e.g. its approval could not be used). */
  detail?: string;
  /** The server's latest progress while the call ran. */
  progress?: ToolProgress;
  /** The server's log lines while the call ran (the newest TOOL_LOG_LINES). */
  logs?: ToolLogLine[];
}

/** A note from the server in the reply (e.g. the tool-round limit was reached). */
export interface NoticeBlock {
  kind: 'notice';
  at: number;
  text: string;
}

export type MessageBlock = ToolBlock | NoticeBlock;

/** What a reply's parts are, in stream order: text, tool calls and notes. */
export type MessagePart = { kind: 'text'; text: string } | ToolBlock | NoticeBlock;

/**
 * The reply paused for the user's decision on a tool call (the stream's
 * tool_approval event), kept with the message so it survives a reload.
 */
export interface PendingApproval {
  /** What the stream gave to answer it; '' for a pause read back from history (it keeps only `id`). */
  token: string;
  /** The approval's id (its token's hash): answers it too, with the user's session. */
  id?: string;
  /** RFC 3339: after this the server no longer accepts the token. */
  expiresAt: string;
  /** The call it is about (its ToolBlock has the same id). */
  callId: string;
  serverId: string;
  serverName: string;
  tool: string;
  arguments: unknown;
  /** The tool's own description. */
  description: string;
  /** The tool says it does not modify anything. */
  readOnly: boolean;
  /** destructiveHint true, or absent on a tool that is not read-only. */
  destructive: boolean;
  /** Where the tool is reached: host and path. */
  endpoint?: string;
  /** What no longer matches the user's "always allow" of this tool (StreamApproval's `changed`). */
  changed?: string[];
  /** The chat connection and model the reply runs on: the resume must name them again. */
  connectionId: string;
  model: string;
  /** The connection is the local demo model (for the usage shown). */
  demo: boolean;
  /** pending: buttons; answered: the decision is on its way; failed: the server refused it (detail says why). */
  status: 'pending' | 'answered' | 'failed';
  detail?: string;
}

/**
 * A server asked the user something while a tool call ran (the stream's
 * elicitation event), kept with the message so the card survives a reload.
 */
export interface PendingElicitation {
  /** What the stream gave to answer it; '' for one read back from history (it keeps only `id`). */
  token: string;
  id?: string;
  mode: 'form' | 'url';
  /** The server's message to the user. */
  message: string;
  /** Form mode: the flat JSON Schema of the form. */
  schema?: Record<string, unknown>;
  /** URL mode: the page the server needs the user on. */
  url?: string;
  elicitationId?: string;
  /** RFC 3339: after this the server no longer takes an answer. */
  expiresAt: string;
  /** The call it is about (its ToolBlock has the same id). */
  callId: string;
  serverId: string;
  serverName: string;
  tool: string;
  /** The stream that carried it is still open (the server waits inside the call): the answer is only acknowledged, the stream goes on. */
  live: boolean;
  /** The chat connection and model the reply runs on: a paused reply's resume names them again. */
  connectionId: string;
  model: string;
  demo: boolean;
  /** pending: the card; answered: the answer is on its way; failed: the server refused it (detail says why). */
  status: 'pending' | 'answered' | 'failed';
  detail?: string;
}

/**
 * A tool call's server wants the user to sign in again (the stream's
 * tool_signin frame): the reply waits, kept with the message so it is there
 * after the sign-in's full-page round trip.
 */
export interface PendingSignIn {
  /** What the stream gave to resume it; '' for one read back from history (it keeps only `id`). */
  token: string;
  /** The frame's signin_id (the token's hash): resumes it too, with the user's session. */
  id: string;
  expiresAt: string;
  /** The call it is about (its ToolBlock has the same id). */
  callId: string;
  serverId: string;
  serverName: string;
  /** The MCP connection to sign in to again, and its endpoint. */
  mcpConnectionId: string;
  endpointUrl: string;
  /** What the server asked for ('' when it named nothing). */
  scope: string;
  reason: string;
  /** The chat connection and model the reply runs on: the resume names them again ('' when read back from history). */
  connectionId: string;
  model: string;
  demo: boolean;
  /** pending: Sign in / Continue; signing: off to the server's page; resumed: the reply goes on; failed: detail says why. */
  status: 'pending' | 'signing' | 'resumed' | 'failed';
  detail?: string;
}

/** A resource of one of the user's MCP servers given to the model with a user's message (named, never its contents). */
export interface MessageAttachment {
  connection_id: string;
  uri: string;
  name: string;
  mime_type: string;
  /** Bytes (0: not known). */
  size: number;
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
  /** An assistant reply's tool calls and notes, each placed by its offset into `content`. */
  blocks?: MessageBlock[];
  /** The reply is paused until the user decides on a tool call (or was, when not pending). */
  approval?: PendingApproval;
  /** A server asks the user something for one of the reply's tool calls (or did, when not pending). */
  elicitation?: PendingElicitation;
  /** A tool call's server wants the user to sign in again before it runs (or did, when not pending). */
  signin?: PendingSignIn;
  /** The id the server keeps the message under (from the stream's message_ids, or history). */
  serverId?: string;
  /** The reply failed: why (shown with Retry). */
  error?: string;
  /** The user stopped the reply. */
  stopped?: boolean;
  /** The server cut the stored text at its limit. */
  cut?: boolean;
  /** A user's message: the resources attached to it. */
  attachments?: MessageAttachment[];
  /**
   * A message of a tab uploaded from the browser's old storage: the server
   * does not have it, so it is shown in this session only and never stored.
   */
  legacy?: boolean;
}

export interface ChatState {
  tabs: ChatTab[];
  activeTabId: string;
  /** Tab id → its messages. */
  conversations: Record<string, ChatMessage[]>;
}
