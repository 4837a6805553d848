// A small stand-in for the backend in page tests: handlers keyed by
// "METHOD /api/v1/path" (query string excluded) and a log of every call.
// Unknown routes answer 404 like the real API.

import { vi } from 'vitest';
import { jsonResponse } from './jwt-fixtures';

export interface FakeRequest {
  url: URL;
  /** Parsed JSON body, or undefined. */
  body: unknown;
  headers: Record<string, string>;
}

export type FakeHandler = (req: FakeRequest) => Response | Promise<Response>;

export interface FakeCall {
  method: string;
  path: string;
  search: string;
  body: unknown;
  /** The Authorization header, or null. */
  auth: string | null;
}

export interface FakeApi {
  /** Set (or replace) the handler for "METHOD path". */
  route(key: string, handler: FakeHandler): void;
  calls: FakeCall[];
  /** Calls matching a method and path. */
  callsTo(method: string, path: string): FakeCall[];
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
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      const headers = (init.headers ?? {}) as Record<string, string>;
      calls.push({ method, path: url.pathname, search: url.search, body, auth: headers.Authorization ?? null });
      const handler = routes[`${method} ${url.pathname}`];
      return handler ? handler({ url, body, headers }) : jsonResponse(404, { detail: 'Not found', code: 'not_found' });
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
