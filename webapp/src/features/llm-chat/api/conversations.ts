// Conversations kept with the account, under /api/v1/chat/conversations:
//   GET    ?archived=false|true&q=&limit=&cursor=  → {conversations, next_cursor, total}, newest first
//   POST   {title?, provider, model, agent_id?}    → 201 conversation (an agent's: on its provider and model, named by it)
//          … with messages and upload_key: an upload of past messages (201; the same key again: 200, the same one)
//   PATCH  /{id} {title?, provider?, model?, archived?} → 200 conversation
//   DELETE /{id}                                   → 204
//   GET    /{id}/messages                          → {messages: [...]}, in order
//   GET    /{id}/messages/{mid}/stream             → the reply's event stream again (chat-stream.ts)
//   POST   /{id}/messages/{mid}/stop               → 204
// Answers are read field by field (the Go side omits empty fields).
//
// The writes go out with `keepalive`: a tab opened, renamed or closed just
// before the page reloads still reaches the server (the browser finishes
// the request after the page is gone).

import { ApiError, apiRequest, authorizedFetch } from '../../../lib/api-client';
import { bool, isRecord, list, num, str } from '../../../lib/api/wire';
import type { ChatAgent, MessageAttachment } from '../state/types';
import { parseJson, readUsage, type StreamUsage } from './frames';

export const CONVERSATIONS_PATH = '/chat/conversations';
/** One page of the open conversations the chat asks for (the API's page limit). */
export const OPEN_PAGE_SIZE = 100;
/** The most pages of open conversations the chat reads (its tabs: 2,000 are more than anyone keeps open). */
export const MAX_OPEN_PAGES = 20;
/** One page of History. */
export const HISTORY_PAGE_SIZE = 20;

export interface ConversationInfo {
  id: string;
  title: string;
  /** As the server has it; the chat checks it against its providers. */
  provider: string;
  model: string;
  /** RFC 3339. */
  created_at: string;
  updated_at: string;
  archived: boolean;
  message_count: number;
  /** The marketplace agent it runs as; absent for none. */
  agent?: ChatAgent;
}

export interface ConversationPage {
  conversations: ConversationInfo[];
  /** '' on the last page. */
  next_cursor: string;
  /** Every conversation of the user, open and archived. */
  total: number;
}

/** A frame of a reply as history keeps it, placed after `at` bytes (UTF-8) of its text. */
export interface ServerBlock {
  at: number;
  frame: Record<string, unknown>;
}

export interface ServerMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  created_at: string;
  /** False while the reply is still being generated (or its generation died). */
  complete: boolean;
  /** Why the reply failed. */
  error: string;
  usage: StreamUsage | null;
  blocks: ServerBlock[];
  /** The text was cut at the stored limit. */
  truncated: boolean;
  /** The user pressed Stop. */
  stopped: boolean;
  /** A user's message: the resources attached to it. */
  attachments?: MessageAttachment[];
}

export function readConversation(raw: unknown): ConversationInfo | null {
  if (!isRecord(raw) || !str(raw.id)) return null;
  return {
    id: str(raw.id),
    title: str(raw.title),
    provider: str(raw.provider),
    model: str(raw.model),
    created_at: str(raw.created_at),
    updated_at: str(raw.updated_at),
    archived: bool(raw.archived),
    message_count: Math.max(0, Math.floor(num(raw.message_count))),
    ...(isRecord(raw.agent) && str(raw.agent.id) ? { agent: { id: str(raw.agent.id), name: str(raw.agent.name) || str(raw.agent.id) } } : {}),
  };
}

export function readConversationPage(raw: unknown): ConversationPage {
  const body = isRecord(raw) ? raw : {};
  return {
    conversations: list(body.conversations)
      .map(readConversation)
      .filter((c): c is ConversationInfo => c !== null),
    next_cursor: str(body.next_cursor),
    total: Math.max(0, Math.floor(num(body.total))),
  };
}

export function readMessage(raw: unknown): ServerMessage | null {
  if (!isRecord(raw) || !str(raw.id) || (raw.role !== 'user' && raw.role !== 'assistant')) return null;
  return {
    id: str(raw.id),
    role: raw.role,
    content: str(raw.content),
    created_at: str(raw.created_at),
    complete: raw.complete !== false,
    error: str(raw.error),
    usage: readUsage(raw.usage),
    blocks: list(raw.blocks)
      .filter(isRecord)
      .filter((b) => isRecord(b.frame))
      .map((b) => ({ at: Math.max(0, Math.floor(num(b.at))), frame: b.frame as Record<string, unknown> })),
    truncated: bool(raw.truncated),
    stopped: bool(raw.stopped),
    ...readAttachments(raw.attachments),
  };
}

/** A user message's attachments, when it has any. */
function readAttachments(raw: unknown): { attachments?: MessageAttachment[] } {
  const attachments = list(raw)
    .filter(isRecord)
    .filter((a) => str(a.uri))
    .map((a) => ({
      connection_id: str(a.connection_id),
      uri: str(a.uri),
      name: str(a.name) || str(a.uri),
      mime_type: str(a.mime_type),
      size: Math.max(0, num(a.size)),
    }));
  return attachments.length > 0 ? { attachments } : {};
}

export const conversationPath = (id: string): string => `${CONVERSATIONS_PATH}/${encodeURIComponent(id)}`;
export const messagePath = (id: string, messageId: string): string => `${conversationPath(id)}/messages/${encodeURIComponent(messageId)}`;
export const reattachPath = (id: string, messageId: string): string => `${messagePath(id, messageId)}/stream`;

export interface ListQuery {
  archived: boolean;
  q?: string;
  limit?: number;
  cursor?: string;
}

export function listQueryPath({ archived, q, limit, cursor }: ListQuery): string {
  const params = new URLSearchParams({ archived: String(archived) });
  if (q?.trim()) params.set('q', q.trim());
  if (limit !== undefined) params.set('limit', String(limit));
  if (cursor) params.set('cursor', cursor);
  return `${CONVERSATIONS_PATH}?${params.toString()}`;
}

export async function listConversations(query: ListQuery, signal?: AbortSignal): Promise<ConversationPage> {
  return readConversationPage(await apiRequest(listQueryPath(query), { signal }));
}

export async function listMessages(id: string, signal?: AbortSignal): Promise<ServerMessage[]> {
  const body = await apiRequest(`${conversationPath(id)}/messages`, { signal });
  return list(isRecord(body) ? body.messages : undefined)
    .map(readMessage)
    .filter((m): m is ServerMessage => m !== null);
}

/**
 * A write that outlives the page (keepalive, unless told otherwise: a
 * keepalive body may hold at most 64 KiB); its failure is an ApiError as
 * apiRequest's.
 */
async function write(path: string, method: 'POST' | 'PATCH' | 'DELETE', body: unknown, signal?: AbortSignal, keepalive = true): Promise<unknown> {
  let response: Response;
  try {
    response = await authorizedFetch(path, {
      method,
      keepalive,
      signal,
      headers: body === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    if (signal?.aborted) throw new ApiError(0, 'Request aborted', { code: 'aborted' });
    throw new ApiError(0, err instanceof Error && err.message ? `Network error: ${err.message}` : 'Network error', { code: 'network_error' });
  }
  const text = await response.text().catch(() => '');
  const parsed = parseJson(text);
  if (!response.ok) {
    const detail = isRecord(parsed) && str(parsed.detail).trim() ? str(parsed.detail).trim() : null;
    throw new ApiError(response.status, detail ?? `Request failed with status ${response.status}`, {
      code: isRecord(parsed) && str(parsed.code) ? str(parsed.code) : undefined,
      fromServer: detail !== null,
    });
  }
  return parsed;
}

function conversationOrThrow(raw: unknown): ConversationInfo {
  const c = readConversation(raw);
  if (!c) throw new ApiError(200, 'Unexpected response from server', { code: 'bad_response' });
  return c;
}

export async function createConversation(input: { title: string; provider: string; model: string; agent_id?: string }, signal?: AbortSignal): Promise<ConversationInfo> {
  return conversationOrThrow(await write(CONVERSATIONS_PATH, 'POST', input, signal));
}

/** A past message of an upload. */
export interface UploadedMessage {
  role: 'user' | 'assistant';
  content: string;
  /** RFC 3339. */
  created_at: string;
  /** Why the reply failed. */
  error?: string;
  usage?: StreamUsage;
}

/** The most messages one upload may hold (the API's limit). */
export const MAX_UPLOADED_MESSAGES = 500;
/** What an upload's messages may take, as JSON (the API takes a 4 MiB body; the rest is room). */
export const MAX_UPLOAD_BYTES = 4 * 1024 * 1024 - 64 * 1024;
/** The most text the server keeps of one message (1 MiB, UTF-8). */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

export interface ConversationUpload {
  title: string;
  provider: string;
  model: string;
  /** Makes the upload once: the same key again answers the conversation it made. */
  upload_key: string;
  messages: UploadedMessage[];
}

/** Makes a conversation with its past messages (not keepalive: it can be large). */
export async function uploadConversation(input: ConversationUpload, signal?: AbortSignal): Promise<ConversationInfo> {
  return conversationOrThrow(await write(CONVERSATIONS_PATH, 'POST', input, signal, false));
}

export interface ConversationPatch {
  title?: string;
  provider?: string;
  model?: string;
  archived?: boolean;
}

export async function patchConversation(id: string, patch: ConversationPatch, signal?: AbortSignal): Promise<ConversationInfo> {
  return conversationOrThrow(await write(conversationPath(id), 'PATCH', patch, signal));
}

export async function deleteConversation(id: string, signal?: AbortSignal): Promise<void> {
  await write(conversationPath(id), 'DELETE', undefined, signal);
}

/** Asks the server to end a reply; the stream then ends as a finished one. */
export async function stopReply(id: string, messageId: string, signal?: AbortSignal): Promise<void> {
  await write(`${messagePath(id, messageId)}/stop`, 'POST', undefined, signal);
}
