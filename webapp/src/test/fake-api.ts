// A small stand-in for the backend in page tests: handlers keyed by
// "METHOD /api/v1/path" (query string excluded) and a log of every call.
// Unknown routes answer 404 like the real API. A handler that throws is a
// network failure (fetch rejects); one that never settles is a server that
// never answers (it gets the request's signal, to reject when aborted).
// sseResponse/sseStream build the chat's event-stream answers.

import { vi } from 'vitest';
import { jsonResponse } from './jwt-fixtures';

export interface FakeRequest {
  url: URL;
  /** Parsed JSON body (a body that is not JSON as it came), or undefined. */
  body: unknown;
  headers: Record<string, string>;
  /** The request's AbortSignal, if it had one. */
  signal: AbortSignal | null;
}

export type FakeHandler = (req: FakeRequest) => Response | Promise<Response>;

export interface FakeCall {
  method: string;
  path: string;
  search: string;
  body: unknown;
  /** The Authorization header, or null. */
  auth: string | null;
  headers: Record<string, string>;
  signal: AbortSignal | null;
  /** The page's address when the call was made (what a Referer would carry). */
  href: string;
}

export interface FakeApi {
  /** Set (or replace) the handler for "METHOD path". */
  route(key: string, handler: FakeHandler): void;
  calls: FakeCall[];
  /** Calls matching a method and path. */
  callsTo(method: string, path: string): FakeCall[];
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Stubs global fetch with a route table; undo with vi.unstubAllGlobals(). */
export function installFakeApi(): FakeApi {
  const routes: Record<string, FakeHandler> = {};
  const calls: FakeCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? parseBody(init.body) : undefined;
      const headers = (init.headers ?? {}) as Record<string, string>;
      const signal = init.signal ?? null;
      calls.push({ method, path: url.pathname, search: url.search, body, auth: headers.Authorization ?? null, headers, signal, href: window.location.href });
      const handler = routes[`${method} ${url.pathname}`];
      return handler ? handler({ url, body, headers, signal }) : jsonResponse(404, { detail: 'Not found', code: 'not_found' });
    }),
  );
  return {
    route: (key, handler) => {
      routes[key] = handler;
    },
    calls,
    callsTo: (method, path) => calls.filter((c) => c.method === method && c.path === path),
  };
}

/** A promise plus its resolver, to hold an answer until the test releases it. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const enc = new TextEncoder();

/** One event-stream data frame carrying `value` as JSON. */
export const sseData = (value: unknown): string => `data: ${JSON.stringify(value)}\n\n`;
export const SSE_DONE = 'data: [DONE]\n\n';

const SSE_INIT: ResponseInit = { status: 200, headers: { 'Content-Type': 'text/event-stream' } };

/** An event-stream answer: the frames as they stand, then the body ends. */
export function sseResponse(frames: string[]): Response {
  return new Response(
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const f of frames) c.enqueue(enc.encode(f));
        c.close();
      },
    }),
    SSE_INIT,
  );
}

/** An event-stream answer the test writes as it goes; `cancelled` turns true when the reader gives it up. */
export function sseStream(): { response: Response; push: (frame: string) => void; end: () => void; readonly cancelled: boolean } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled = false;
  const response = new Response(
    new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
      cancel() {
        cancelled = true;
      },
    }),
    SSE_INIT,
  );
  return {
    response,
    push: (frame) => controller.enqueue(enc.encode(frame)),
    end: () => controller.close(),
    get cancelled() {
      return cancelled;
    },
  };
}
