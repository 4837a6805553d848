// POST /api/v1/mcp-connections/message as an event stream (SPEC §7,
// DESIGN §4): frames `data: {"content":"…"}`, optionally a usage frame,
// then `data: [DONE]`; errors `event: error` + `data: {"detail":"…"}`.
// A data line that is not JSON is content as it stands. Nothing arriving
// for 30 s fails with 'Stream timeout' (SPEC §8 texts throughout). After
// [DONE] the body is read to its end, so a finished stream is a completed
// request, not a cancelled one (no net::ERR_ABORTED in the network log).

import { authorizedFetch } from '../../../lib/api-client';
import { STREAM_STALL_MS } from '../constants';

export const STREAM_PATH = '/mcp-connections/message';
export const STREAM_TIMEOUT = 'Stream timeout';
export const NO_RESPONSE_BODY = 'No response body';
export const STREAM_ERROR = 'Stream error occurred';

export interface ChatContextMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface StreamRequest {
  connection_id: string;
  message: string;
  model: string;
  context: ChatContextMessage[];
}

export interface StreamUsage {
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
}

export interface StreamResult {
  /** Everything the content frames carried, in order. */
  content: string;
  usage: StreamUsage | null;
}

export interface StreamOptions {
  signal?: AbortSignal;
  /** Called with each content piece as it arrives. */
  onContent?: (chunk: string) => void;
  stallMs?: number;
  /** After [DONE], how long to wait for the body to end before cancelling it. */
  drainMs?: number;
}

/** The server closes the body right after [DONE]; this is only a safety net. */
export const DRAIN_MS = 2000;

/** A failed stream; `status` is the HTTP status for a non-OK answer. */
export class StreamError extends Error {
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.name = 'StreamError';
    this.status = status;
  }
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException ? error.name === 'AbortError' : error instanceof Error && error.name === 'AbortError';
}

const abortError = () => new DOMException('The stream was cancelled.', 'AbortError');

// ------------------------------------------------------------ SSE framing

export interface SseEvent {
  /** The `event:` field; 'message' when absent. */
  event: string;
  /** The `data:` lines joined with '\n'. */
  data: string;
}

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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

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

/**
 * The text of a non-OK answer: SPEC §8's 'HTTP error! status: {n}, message: {text}'
 * where {text} is the JSON body's detail (else the body as it came). A 429
 * (the chat limits) carries a sentence written for people: it is shown as is.
 */
export function httpErrorMessage(status: number, body: string): string {
  const parsed = parseJson(body);
  const detail = isRecord(parsed) && typeof parsed.detail === 'string' && parsed.detail.trim() ? parsed.detail.trim() : null;
  if (status === 429 && detail) return detail;
  return `HTTP error! status: ${status}, message: ${detail ?? body}`;
}

function readUsage(value: unknown): StreamUsage | null {
  if (!isRecord(value)) return null;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return { input_tokens: num(value.input_tokens), output_tokens: num(value.output_tokens), cost_usd: num(value.cost_usd) };
}

/**
 * What one event means: content to append, usage, the end, or an error
 * (thrown as StreamError).
 */
export function interpretEvent(event: SseEvent): { content?: string; usage?: StreamUsage; done?: true } {
  if (event.event === 'error') throw new StreamError(errorEventMessage(event.data) || STREAM_ERROR);
  if (event.data.trim() === '[DONE]') return { done: true };
  const parsed = parseJson(event.data);
  if (!isRecord(parsed)) return event.data ? { content: event.data } : {}; // plain text (or a bare JSON value) is content
  if (typeof parsed.error === 'string' || isRecord(parsed.error)) {
    const err = parsed.error;
    const message = typeof err === 'string' ? err : typeof err.message === 'string' ? err.message : '';
    throw new StreamError(message || STREAM_ERROR);
  }
  const out: { content?: string; usage?: StreamUsage } = {};
  if (typeof parsed.content === 'string' && parsed.content) out.content = parsed.content;
  const usage = readUsage(parsed.usage);
  if (usage) out.usage = usage;
  return out;
}

// ------------------------------------------------------------- the call

/**
 * Sends a message and reads the reply as it streams. Resolves with the
 * whole reply at [DONE] (or when the body ends); rejects with a StreamError
 * carrying a SPEC §8 text, or an AbortError when `signal` aborts.
 */
export async function streamChatMessage(request: StreamRequest, options: StreamOptions = {}): Promise<StreamResult> {
  const { signal, onContent, stallMs = STREAM_STALL_MS, drainMs = DRAIN_MS } = options;
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
    const response = await Promise.race([
      authorizedFetch(STREAM_PATH, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: JSON.stringify(request),
        signal: controller.signal,
      }),
      interrupt,
    ]);
    if (!response.ok) {
      const text = await Promise.race([response.text().catch(() => ''), interrupt]);
      throw new StreamError(httpErrorMessage(response.status, text), response.status);
    }
    if (!response.body) throw new StreamError(NO_RESPONSE_BODY);

    reader = response.body.getReader();
    const decoder = new TextDecoder();
    let content = '';
    let usage: StreamUsage | null = null;
    let done = false;
    const parser = createSseParser((event) => {
      if (done) return;
      const meaning = interpretEvent(event);
      if (meaning.done) done = true;
      if (meaning.usage) usage = meaning.usage;
      if (meaning.content) {
        content += meaning.content;
        onContent?.(meaning.content);
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
    return { content, usage };
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
