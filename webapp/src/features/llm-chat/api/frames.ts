// A reply's frames, as the message stream sends them (chat-stream.ts) and
// a conversation's history keeps them (conversations.ts,
// state/server-messages.ts): `data: {"content":"…"}`, optionally a usage
// frame, then `data: [DONE]`; errors `event: error` + `data: {"detail":"…"}`.
// A data line that is not JSON is content as it stands. With MCP tools,
// `{"tool_call":{…}}` when the model calls a tool, `{"tool_result":{…}}`
// with its outcome, `{"notice":"…"}` a note for the reader, and
// `event: tool_approval` when a call waits for the user's decision,
// `event: elicitation` when a server asks the user something mid-call
// (a pause when the stream then ends without [DONE]; otherwise the stream
// stays open while the user answers), and `{"tool_progress":{…}}` /
// `{"tool_log":{…}}` while a call runs; `{"tool_signin":{…}}` when a call's
// server wants the user to sign in again (the stream then ends). A
// message kept with a conversation opens with
// `{"message_ids":{"user":"…","assistant":"…"}}`, the ids the server keeps
// it and its reply under.

import { isRecord, num, str, strList } from '../../../lib/api/wire';

export const STREAM_ERROR = 'Stream error occurred';

export interface SseEvent {
  /** The `event:` field; 'message' when absent. */
  event: string;
  /** The `data:` lines joined with '\n'. */
  data: string;
}

/** `{"message_ids":{…}}`: the ids a kept message and its reply have on the server ('' for none). */
export interface StreamMessageIds {
  user: string;
  assistant: string;
}

export interface StreamUsage {
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  /** The local demo model answered (its tokens are estimated and cost nothing). */
  demo?: boolean;
}

/** `{"tool_call":{…}}`: the model called a tool of one of the user's MCP servers. */
export interface StreamToolCall {
  id: string;
  server_id: string;
  server_name: string;
  tool: string;
  /** The arguments as the model wrote them: a JSON object, or whatever else it produced. */
  arguments: unknown;
  /** The MCP connection the call runs on (a view of the tool reads and calls through it). */
  connection_id?: string;
  /** The tool declares a view (MCP Apps): its `ui://` resource, shown under the call. */
  ui?: { resource_uri: string };
}

/** One MCP content block of a tool result ({type:'text',text}, {type:'image',data,mimeType}, …). */
export interface ToolContentBlock {
  type: string;
  [field: string]: unknown;
}

/** `{"tool_result":{…}}`: how a call ended. */
export interface StreamToolResult {
  id: string;
  is_error: boolean;
  content: ToolContentBlock[];
  duration_ms: number;
  /** The user denied the call: it never ran. */
  denied?: boolean;
  /** The result was cut at the size the browser is sent. */
  truncated?: boolean;
  /** The server's structuredContent, as sent (for the tool's view), when it was small enough to keep. */
  structured_content?: unknown;
}

/** `event: tool_approval`: the reply paused until the user decides on `call`. */
export interface StreamApproval {
  /** What answers the approval; '' when read back from history, which keeps only `id`. */
  token: string;
  /** The approval's id (its token's hash): answers it too, with the user's session. */
  id?: string;
  /** RFC 3339. */
  expires_at: string;
  call: StreamToolCall & {
    description: string;
    annotations: { readOnlyHint: boolean; destructiveHint?: boolean };
    /** Where the tool is reached: host and path. */
    endpoint?: string;
    /**
     * The user always allowed this tool, but not as it is now: 'endpoint' (allowed at another
     * address), 'name', 'description', 'input_schema', 'annotations', or 'unrecorded' (allowed
     * before the address and definition were kept). Absent otherwise.
     */
    changed?: string[];
  };
}

/** `event: elicitation`: a server asks the user for input while `call` runs. */
export interface StreamElicitation {
  /** What answers it; '' when read back from history, which keeps only `id`. */
  token: string;
  /** Its id (kept in history in place of the token), when the server sends one. */
  id?: string;
  mode: 'form' | 'url';
  /** The server's message to the user. */
  message: string;
  /** Form mode: the flat JSON Schema of what to ask. */
  requested_schema?: Record<string, unknown>;
  /** URL mode: the page to open. */
  url?: string;
  /** URL mode: the server's id for it (its completion names it). */
  elicitation_id?: string;
  /** RFC 3339: the answer must come before this. */
  expires_at: string;
  call: StreamToolCall;
}

/** `{"tool_progress":{…}}`: how far a running call is, as its server said. */
export interface StreamToolProgress {
  id: string;
  progress: number;
  total?: number;
  message?: string;
}

/**
 * `{"tool_signin":{…}}`: the call's server refused it for the user's
 * sign-in (401, or 403 insufficient_scope); the stream ends after it
 * without [DONE] and a POST with `signin` resumes the reply.
 */
export interface StreamToolSignin {
  /** The call's id. */
  id: string;
  server_id: string;
  server_name: string;
  /** The MCP connection to sign in to again. */
  connection_id: string;
  endpoint_url: string;
  /** What the server asked for ('' when it named nothing). */
  scope: string;
  reason: string;
  /** '' when read back from history (it keeps only `signin_id`). */
  token: string;
  signin_id: string;
  expires_at: string;
}

/** `{"tool_log":{…}}`: a log line the server sent while the call ran. */
export interface StreamToolLog {
  id: string;
  level: string;
  /** Any JSON the server logged. */
  data: unknown;
}

/** A failed stream; `status` is the HTTP status for a non-OK answer. */
export class StreamError extends Error {
  readonly status: number | undefined;
  /** A non-OK answer's JSON `detail`, as the server wrote it. */
  readonly detail: string | undefined;
  constructor(message: string, status?: number, detail?: string) {
    super(message);
    this.name = 'StreamError';
    this.status = status;
    this.detail = detail;
  }
}

/** The JSON value of `text`; undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The message an error event carries: its JSON detail (or message / error), or its plain text. */
export function errorEventMessage(data: string): string {
  const parsed = parseJson(data);
  if (isRecord(parsed)) {
    for (const key of ['detail', 'message', 'error'] as const) {
      const value = parsed[key];
      if (typeof value === 'string' && value.trim()) return value;
    }
    return '';
  }
  return parsed === undefined ? data.trim() : '';
}

/** A usage frame's (or a kept message's) usage; null when there is none. */
export function readUsage(value: unknown): StreamUsage | null {
  if (!isRecord(value)) return null;
  const usage: StreamUsage = { input_tokens: num(value.input_tokens), output_tokens: num(value.output_tokens), cost_usd: num(value.cost_usd) };
  if (value.demo === true) usage.demo = true;
  return usage;
}

/** A view's resource: only `ui://` URIs name one. */
export const isViewUri = (uri: string): boolean => /^ui:\/\/\S+$/i.test(uri);

function readToolCall(value: unknown): StreamToolCall | null {
  if (!isRecord(value) || typeof value.id !== 'string' || !value.id) return null;
  const call: StreamToolCall = {
    id: value.id,
    server_id: str(value.server_id),
    server_name: str(value.server_name),
    tool: str(value.tool),
    arguments: value.arguments === undefined ? null : value.arguments,
  };
  if (str(value.connection_id)) call.connection_id = str(value.connection_id);
  const uri = isRecord(value.ui) ? str(value.ui.resource_uri) : '';
  if (isViewUri(uri)) call.ui = { resource_uri: uri };
  return call;
}

function readToolResult(value: unknown): StreamToolResult | null {
  if (!isRecord(value) || typeof value.id !== 'string' || !value.id) return null;
  const content = Array.isArray(value.content)
    ? value.content.filter((b): b is ToolContentBlock => isRecord(b) && typeof b.type === 'string')
    : [];
  const duration = typeof value.duration_ms === 'number' && Number.isFinite(value.duration_ms) && value.duration_ms > 0 ? Math.round(value.duration_ms) : 0;
  const result: StreamToolResult = { id: value.id, is_error: value.is_error === true, content, duration_ms: duration };
  if (value.denied === true) result.denied = true;
  if (value.truncated === true) result.truncated = true;
  if (value.structured_content !== undefined && value.structured_content !== null) result.structured_content = value.structured_content;
  return result;
}

/** The data of a tool_approval event; null when it is not one (no token or id, or no call). */
export function readApproval(data: string): StreamApproval | null {
  const parsed = parseJson(data);
  if (!isRecord(parsed) || !(str(parsed.token) || str(parsed.id))) return null;
  const raw = parsed.call;
  const call = readToolCall(raw);
  if (!call || !isRecord(raw)) return null;
  const notes = isRecord(raw.annotations) ? raw.annotations : {};
  const annotations: StreamApproval['call']['annotations'] = { readOnlyHint: notes.readOnlyHint === true };
  if (typeof notes.destructiveHint === 'boolean') annotations.destructiveHint = notes.destructiveHint;
  const approval: StreamApproval = { token: str(parsed.token), expires_at: str(parsed.expires_at), call: { ...call, description: str(raw.description), annotations } };
  if (str(parsed.id)) approval.id = str(parsed.id);
  if (str(raw.endpoint)) approval.call.endpoint = str(raw.endpoint);
  const changed = strList(raw.changed);
  if (changed.length > 0) approval.call.changed = changed;
  return approval;
}

/** The data of an elicitation event; null when it is not one (no token or id, no call, no known mode). */
export function readElicitation(data: string): StreamElicitation | null {
  const parsed = parseJson(data);
  if (!isRecord(parsed) || !(str(parsed.token) || str(parsed.id))) return null;
  const call = readToolCall(parsed.call);
  const mode = parsed.mode === 'url' ? 'url' : parsed.mode === 'form' || parsed.mode === undefined ? 'form' : null;
  if (!call || !mode) return null;
  const out: StreamElicitation = { token: str(parsed.token), mode, message: str(parsed.message), expires_at: str(parsed.expires_at), call };
  if (str(parsed.id)) out.id = str(parsed.id);
  if (isRecord(parsed.requested_schema)) out.requested_schema = parsed.requested_schema;
  if (str(parsed.url)) out.url = str(parsed.url);
  if (str(parsed.elicitation_id)) out.elicitation_id = str(parsed.elicitation_id);
  if (mode === 'url' && !out.url) return null;
  return out;
}

function readToolProgress(value: unknown): StreamToolProgress | null {
  if (!isRecord(value) || typeof value.id !== 'string' || !value.id || typeof value.progress !== 'number' || !Number.isFinite(value.progress)) return null;
  const out: StreamToolProgress = { id: value.id, progress: value.progress };
  if (typeof value.total === 'number' && Number.isFinite(value.total) && value.total > 0) out.total = value.total;
  if (str(value.message).trim()) out.message = str(value.message).trim();
  return out;
}

export function readToolSignin(value: unknown): StreamToolSignin | null {
  if (!isRecord(value) || typeof value.id !== 'string' || !value.id || !(str(value.token) || str(value.signin_id))) return null;
  return {
    id: value.id,
    server_id: str(value.server_id),
    server_name: str(value.server_name),
    connection_id: str(value.connection_id),
    endpoint_url: str(value.endpoint_url),
    scope: str(value.scope),
    reason: str(value.reason),
    token: str(value.token),
    signin_id: str(value.signin_id),
    expires_at: str(value.expires_at),
  };
}

function readToolLog(value: unknown): StreamToolLog | null {
  if (!isRecord(value) || typeof value.id !== 'string' || !value.id) return null;
  return { id: value.id, level: str(value.level) || 'info', data: value.data === undefined ? null : value.data };
}

/** What one event means; `approval` and `done` both end the stream (an elicitation may or may not). */
export interface EventMeaning {
  content?: string;
  usage?: StreamUsage;
  done?: true;
  toolCall?: StreamToolCall;
  toolResult?: StreamToolResult;
  notice?: string;
  approval?: StreamApproval;
  elicitation?: StreamElicitation;
  toolProgress?: StreamToolProgress;
  toolLog?: StreamToolLog;
  toolSignin?: StreamToolSignin;
  messageIds?: StreamMessageIds;
}

/**
 * What one event means: content to append, usage, a tool call or result, a
 * notice, the pause for an approval, the end, or an error (thrown as
 * StreamError).
 */
export function interpretEvent(event: SseEvent): EventMeaning {
  if (event.event === 'error') throw new StreamError(errorEventMessage(event.data) || STREAM_ERROR);
  if (event.event === 'tool_approval') {
    const approval = readApproval(event.data);
    if (!approval) throw new StreamError(STREAM_ERROR);
    return { approval };
  }
  if (event.event === 'elicitation') {
    const elicitation = readElicitation(event.data);
    if (!elicitation) throw new StreamError(STREAM_ERROR);
    return { elicitation };
  }
  if (event.data.trim() === '[DONE]') return { done: true };
  const parsed = parseJson(event.data);
  if (!isRecord(parsed)) return event.data ? { content: event.data } : {}; // plain text (or a bare JSON value) is content
  if (typeof parsed.error === 'string' || isRecord(parsed.error)) {
    const err = parsed.error;
    const message = typeof err === 'string' ? err : typeof err.message === 'string' ? err.message : '';
    throw new StreamError(message || STREAM_ERROR);
  }
  const out: EventMeaning = {};
  if (typeof parsed.content === 'string' && parsed.content) out.content = parsed.content;
  const usage = readUsage(parsed.usage);
  if (usage) out.usage = usage;
  const toolCall = readToolCall(parsed.tool_call);
  if (toolCall) out.toolCall = toolCall;
  const toolResult = readToolResult(parsed.tool_result);
  if (toolResult) out.toolResult = toolResult;
  const progress = readToolProgress(parsed.tool_progress);
  if (progress) out.toolProgress = progress;
  const log = readToolLog(parsed.tool_log);
  if (log) out.toolLog = log;
  const signin = readToolSignin(parsed.tool_signin);
  if (signin) out.toolSignin = signin;
  if (typeof parsed.notice === 'string' && parsed.notice.trim()) out.notice = parsed.notice.trim();
  if (isRecord(parsed.message_ids)) out.messageIds = { user: str(parsed.message_ids.user), assistant: str(parsed.message_ids.assistant) };
  return out;
}
