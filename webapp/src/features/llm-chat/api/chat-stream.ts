// POST /api/v1/mcp-connections/message as an event stream (SPEC §7,
// DESIGN §4), and GET …/messages/{id}/stream (reattachReply), which sends a
// reply still being generated again, from its start, with the same frames
// (what each means: frames.ts), after `: generating` comments while nothing
// is new. Nothing arriving for 30 s fails with 'Stream timeout' (SPEC §8
// texts throughout); lines starting with ':' (kept alive while a tool runs)
// are comments and only restart the stall clock. After [DONE] the body is
// read to its end, so a finished stream is a completed request, not a
// cancelled one (no net::ERR_ABORTED in the network log). A reply waiting
// for the user's decision on a tool call ends WITHOUT [DONE]: that is a
// pause, not an error; the result carries the approval, and a POST with
// `approval` resumes the same reply. A server's question (event:
// elicitation) either pauses the reply the same way (the stream ends after
// it) or comes while the stream stays open (the server asked inside a tool
// call still running): the POST with `elicitation` then answers with a
// JSON ack (202) and the open stream carries on (answerElicitation).

import { authorizedFetch } from '../../../lib/api-client';
import { isRecord } from '../../../lib/api/wire';
import { STREAM_STALL_MS } from '../constants';
import { reattachPath } from './conversations';
import {
  interpretEvent,
  parseJson,
  StreamError,
  type SseEvent,
  type StreamApproval,
  type StreamElicitation,
  type StreamMessageIds,
  type StreamToolCall,
  type StreamToolLog,
  type StreamToolProgress,
  type StreamToolSignin,
  type StreamToolResult,
  type StreamUsage,
} from './frames';

export const STREAM_PATH = '/mcp-connections/message';
export const STREAM_TIMEOUT = 'Stream timeout';
export const NO_RESPONSE_BODY = 'No response body';

export interface ChatContextMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** The user's decision on a tool call the reply paused for. */
export type ApprovalDecision = 'approve' | 'always' | 'deny';

/** The user's answer to a server's question: accept (with the form's content), decline or cancel. */
export type ElicitationAction = 'accept' | 'decline' | 'cancel';

/** The message route's `elicitation`: by token, or by id for one read back from history. */
export type ElicitationAnswer = ({ token: string } | { id: string }) & { action: ElicitationAction; content?: Record<string, unknown> };

export interface StreamRequest {
  connection_id: string;
  message: string;
  model: string;
  context: ChatContextMessage[];
  /** The user's MCP connections whose tools the model may call (at most 10); omitted for none. */
  mcp_connection_ids?: string[];
  /** Resources of the user's MCP connections given to the model with the message (at most 10); omitted for none. */
  attachments?: { connection_id: string; uri: string; name: string }[];
  /** Ask before read-only tools too. */
  confirm_read_only?: boolean;
  /** Resumes a reply paused for a tool call (then `message` may be ''). */
  approval?: { token: string; decision: ApprovalDecision } | { id: string; decision: ApprovalDecision };
  /** Answers a server's question (then `message` may be ''). */
  elicitation?: ElicitationAnswer;
  /** Resumes a reply paused until the user signed in to a call's server (then `message` may be ''). */
  signin?: { token: string } | { id: string };
  /** Keeps the message and its reply with this conversation of the user's (omitted: not kept, e.g. summaries). */
  conversation_id?: string;
  /** The marketplace agent the message runs as (its conversation's: the server refuses another). */
  agent_id?: string;
}

export interface StreamResult {
  /** Everything the content frames carried, in order. */
  content: string;
  usage: StreamUsage | null;
  /** Set when the reply paused for the user's approval of a tool call (no [DONE] came). */
  approval: StreamApproval | null;
  /** Set when the stream ended (without [DONE]) right after a server's question: the reply is paused for it. */
  elicitation?: StreamElicitation;
  /** Set when the reply paused until the user signs in to a call's server (a tool_signin frame ended it). */
  signin?: StreamToolSignin;
  /** An answer the server took while the reply's own stream is still open (a JSON ack, not a stream). */
  acknowledged?: true;
}

export interface StreamOptions {
  signal?: AbortSignal;
  /** Called with each content piece as it arrives. */
  onContent?: (chunk: string) => void;
  /** Called when the model calls a tool. */
  onToolCall?: (call: StreamToolCall) => void;
  /** Called with a tool call's outcome. */
  onToolResult?: (result: StreamToolResult) => void;
  /** Called with a note for the reader (e.g. the tool-round limit was reached). */
  onNotice?: (notice: string) => void;
  /** Called when a server asks the user something (the stream may end after it, or go on). */
  onElicitation?: (elicitation: StreamElicitation) => void;
  /** Called with a running call's progress. */
  onToolProgress?: (progress: StreamToolProgress) => void;
  /** Called with a log line of a running call. */
  onToolLog?: (log: StreamToolLog) => void;
  /** Called with the server's ids of a kept message and its reply (the first frame). */
  onMessageIds?: (ids: StreamMessageIds) => void;
  stallMs?: number;
  /** After [DONE], how long to wait for the body to end before cancelling it. */
  drainMs?: number;
}

/** The server closes the body right after [DONE]; this is only a safety net. */
export const DRAIN_MS = 2000;

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException ? error.name === 'AbortError' : error instanceof Error && error.name === 'AbortError';
}

const abortError = () => new DOMException('The stream was cancelled.', 'AbortError');

// ------------------------------------------------------------ SSE framing

export interface SseParser {
  /** Feed decoded text; complete events are emitted as soon as they end. */
  push(text: string): void;
  /** The body ended: emit what is left. */
  end(): void;
}

/** An incremental parser of text/event-stream framing (fields data and event; comments ignored). */
export function createSseParser(onEvent: (event: SseEvent) => void): SseParser {
  let buffer = '';
  let eventType = '';
  let data: string[] = [];

  const dispatch = () => {
    // An error event is reported even without data; other events need data.
    if (data.length > 0 || eventType === 'error') onEvent({ event: eventType || 'message', data: data.join('\n') });
    eventType = '';
    data = [];
  };

  const line = (raw: string) => {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text === '') {
      dispatch();
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') eventType = value;
  };

  return {
    push(text) {
      buffer += text;
      let nl = buffer.indexOf('\n');
      while (nl !== -1) {
        const current = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        line(current);
        nl = buffer.indexOf('\n');
      }
    },
    end() {
      if (buffer !== '') line(buffer);
      buffer = '';
      dispatch();
    },
  };
}

/**
 * The text of a non-OK answer: SPEC §8's 'HTTP error! status: {n}, message: {text}'
 * where {text} is the JSON body's detail (else the body as it came). A 429
 * (the chat limits) carries a sentence written for people: it is shown as is.
 */
export function httpErrorMessage(status: number, body: string): string {
  const detail = bodyDetail(body);
  if (status === 429 && detail) return detail;
  return `HTTP error! status: ${status}, message: ${detail ?? body}`;
}

/** A JSON error body's `detail`, trimmed; null when it has none. */
export function bodyDetail(body: string): string | null {
  const parsed = parseJson(body);
  return isRecord(parsed) && typeof parsed.detail === 'string' && parsed.detail.trim() ? parsed.detail.trim() : null;
}

// ------------------------------------------------------------- the call

/**
 * Sends a message and reads the reply as it streams. Resolves with the
 * whole reply at [DONE] (or when the body ends), or, when the reply paused
 * for a tool approval, with `approval` set; rejects with a StreamError
 * carrying a SPEC §8 text, or an AbortError when `signal` aborts.
 */
export function streamChatMessage(request: StreamRequest, options: StreamOptions = {}): Promise<StreamResult> {
  return readReply(
    (signal) =>
      authorizedFetch(STREAM_PATH, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: JSON.stringify(request),
        signal,
      }),
    options,
  );
}

/**
 * Answers a server's question. A reply paused for it streams on in this
 * answer (as streamChatMessage resolves); a question asked while the
 * reply's own stream is open is answered with a JSON ack, resolved as
 * `acknowledged` (that stream carries on). 404/409 reject as StreamError.
 */
export function answerElicitation(request: StreamRequest, options: StreamOptions = {}): Promise<StreamResult> {
  return readReply(
    (signal) =>
      authorizedFetch(STREAM_PATH, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream, application/json' },
        body: JSON.stringify(request),
        signal,
      }),
    options,
    true,
  );
}

/**
 * Re-attaches to a reply kept with conversation `conversationId`: the
 * server sends it again from its start, then what is generated, ending as
 * the reply ends (the same result and errors as streamChatMessage).
 */
export function reattachReply(conversationId: string, messageId: string, options: StreamOptions = {}): Promise<StreamResult> {
  return readReply((signal) => authorizedFetch(reattachPath(conversationId, messageId), { headers: { Accept: 'text/event-stream' }, signal }), options);
}

/** Opens the stream with `open` and reads the reply (stall clock, abort, [DONE], pause). */
async function readReply(open: (signal: AbortSignal) => Promise<Response>, options: StreamOptions, jsonAck = false): Promise<StreamResult> {
  const { signal, onContent, onToolCall, onToolResult, onNotice, onMessageIds, onElicitation, onToolProgress, onToolLog, stallMs = STREAM_STALL_MS, drainMs = DRAIN_MS } =
    options;
  if (signal?.aborted) throw abortError();

  const controller = new AbortController();
  let interruptWith: (error: Error) => void = () => undefined;
  const interrupt = new Promise<never>((_, reject) => {
    interruptWith = reject;
  });
  interrupt.catch(() => undefined);

  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      interruptWith(new StreamError(STREAM_TIMEOUT));
      controller.abort();
    }, stallMs);
  };
  const onAbort = () => {
    interruptWith(abortError());
    controller.abort();
  };
  signal?.addEventListener('abort', onAbort, { once: true });

  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let ended = false;
  try {
    arm();
    const response = await Promise.race([open(controller.signal), interrupt]);
    if (!response.ok) {
      const body = await Promise.race([response.text().catch(() => ''), interrupt]);
      throw new StreamError(httpErrorMessage(response.status, body), response.status, bodyDetail(body) ?? undefined);
    }
    if (jsonAck && !/text\/event-stream/i.test(response.headers.get('Content-Type') ?? '')) {
      // The reply's own stream is still open and carries on: this is only the server's receipt.
      ended = true;
      await Promise.race([response.text().catch(() => ''), interrupt]);
      return { content: '', usage: null, approval: null, acknowledged: true };
    }
    if (!response.body) throw new StreamError(NO_RESPONSE_BODY);

    reader = response.body.getReader();
    const decoder = new TextDecoder();
    let content = '';
    let usage: StreamUsage | null = null;
    let approval: StreamApproval | null = null;
    let signin: StreamToolSignin | null = null;
    // The newest question, until anything else comes: a stream ending right after it paused for it.
    let asked: StreamElicitation | null = null;
    let done = false;
    const parser = createSseParser((event) => {
      if (done) return;
      const meaning = interpretEvent(event);
      asked = meaning.elicitation ?? null;
      if (meaning.done) done = true;
      if (meaning.messageIds) onMessageIds?.(meaning.messageIds);
      if (meaning.usage) usage = meaning.usage;
      if (meaning.content) {
        content += meaning.content;
        onContent?.(meaning.content);
      }
      if (meaning.toolCall) onToolCall?.(meaning.toolCall);
      if (meaning.toolResult) onToolResult?.(meaning.toolResult);
      if (meaning.notice) onNotice?.(meaning.notice);
      if (meaning.toolProgress) onToolProgress?.(meaning.toolProgress);
      if (meaning.toolLog) onToolLog?.(meaning.toolLog);
      if (meaning.elicitation) onElicitation?.(meaning.elicitation);
      if (meaning.approval) {
        // The reply is paused: the server ends the body right after this event.
        approval = meaning.approval;
        done = true;
      }
      if (meaning.toolSignin) {
        // Paused until the user signs in: the body ends right after it.
        signin = meaning.toolSignin;
        done = true;
      }
    });
    while (!done) {
      arm();
      const chunk = await Promise.race([reader.read(), interrupt]);
      if (chunk.done) {
        ended = true;
        parser.push(decoder.decode());
        parser.end();
        break;
      }
      parser.push(decoder.decode(chunk.value, { stream: true }));
    }
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (!ended) ended = await drain(reader, drainMs);
    const paused: StreamElicitation | null = done ? null : asked;
    // Set in the parser's callback (TypeScript does not follow it there).
    const signedOut = signin as StreamToolSignin | null;
    if (signedOut) return { content, usage, approval, signin: signedOut };
    return paused ? { content, usage, approval, elicitation: paused } : { content, usage, approval };
  } catch (error) {
    if (signal?.aborted) throw abortError();
    throw error;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    // A body read to its end is let go; only an unfinished one is cancelled.
    if (ended) reader?.releaseLock();
    else reader?.cancel().catch(() => undefined);
  }
}

/** Reads and drops what follows [DONE] until the body ends (true) or `ms` pass (false). */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  try {
    for (;;) {
      const chunk = await Promise.race([reader.read(), late]);
      if (chunk === 'late') return false;
      if (chunk.done) return true;
    }
  } catch {
    return false; // the reply is complete; a body that fails after [DONE] changes nothing
  } finally {
    clearTimeout(timer);
  }
}
