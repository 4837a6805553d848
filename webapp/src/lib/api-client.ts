// The one fetch wrapper (DESIGN §11): attaches the bearer token, turns every
// failure into an ApiError with `status` and `detail`, and clears the
// session on a 401 (SPEC §7).

import { clearSession, getToken } from './auth-session';

export const API_BASE = '/api/v1';

export class ApiError extends Error {
  /** HTTP status; 0 when the request never got an HTTP answer. */
  readonly status: number;
  /** Human message: the server's `detail`, else the status text, else a generic text. */
  readonly detail: string;
  /** Machine code from the body (`code`), or 'network_error' / 'timeout' / 'aborted'. */
  readonly code: string | undefined;
  /** True when `detail` came from the server's JSON body. */
  readonly fromServer: boolean;
  /** The error's parsed JSON body (e.g. a 409's `current`), or undefined. */
  readonly body: unknown;

  constructor(status: number, detail: string, options: { code?: string; fromServer?: boolean; body?: unknown } = {}) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.code = options.code;
    this.fromServer = options.fromServer ?? false;
    this.body = options.body;
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

/** The server's detail when it sent one, else the caller's fallback text (SPEC §8). */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.fromServer && error.detail) return error.detail;
  return fallback;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON-encoded when not already a string/FormData. */
  body?: unknown;
  signal?: AbortSignal;
  /** Abort after this many milliseconds (ApiError code 'timeout'). */
  timeoutMs?: number;
  /** Use this token instead of the session's (e.g. right after login). null: send none. */
  token?: string | null;
  headers?: Record<string, string>;
}

function extractDetail(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const detail = (body as Record<string, unknown>).detail;
  if (typeof detail === 'string' && detail.trim()) return detail;
  // FastAPI-style validation lists: [{msg: "..."}]
  if (Array.isArray(detail)) {
    const msgs = detail
      .map((d) => (d && typeof d === 'object' ? (d as Record<string, unknown>).msg : d))
      .filter((m): m is string => typeof m === 'string' && m.length > 0);
    if (msgs.length) return msgs.join('; ');
  }
  return null;
}

function extractCode(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const code = (body as Record<string, unknown>).code;
  return typeof code === 'string' ? code : undefined;
}

function anySignal(signals: AbortSignal[]): AbortSignal {
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(signals);
  const controller = new AbortController();
  for (const s of signals) {
    if (s.aborted) {
      controller.abort(s.reason);
      break;
    }
    s.addEventListener('abort', () => controller.abort(s.reason), { once: true });
  }
  return controller.signal;
}

function resolveUrl(path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  if (path.startsWith(API_BASE + '/') || path === API_BASE) return path;
  return API_BASE + (path.startsWith('/') ? path : '/' + path);
}

export interface AuthorizedFetchInit extends Omit<RequestInit, 'headers'> {
  headers?: Record<string, string>;
  /** Use this token instead of the session's. null: send none. */
  token?: string | null;
}

/**
 * Raw fetch under the API's rules, for callers that read the body
 * themselves (the chat's event stream): resolves the path under /api/v1,
 * attaches the session's bearer token, and clears the session when a
 * request that carried the token gets a 401. Network failures reject as
 * fetch does; the caller handles the response.
 */
export async function authorizedFetch(path: string, init: AuthorizedFetchInit = {}): Promise<Response> {
  const { token: explicitToken, headers = {}, ...rest } = init;
  const token = explicitToken === undefined ? getToken() : explicitToken;
  const h: Record<string, string> = { ...headers };
  if (token) h.Authorization = `Bearer ${token}`;
  const response = await fetch(resolveUrl(path), { ...rest, headers: h });
  // A 401 on a request that carried a bearer token means that token is no
  // longer accepted: drop the stored session (SPEC §7). Requests sent on
  // purpose without a token (login, register, warm-up pings) have no
  // session to judge, nor has a token that is no longer the session's (a
  // logout's own request, an answer arriving after another sign-in).
  if (response.status === 401 && token && token === getToken()) clearSession();
  return response;
}

export async function apiRequest<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = options.body === undefined ? 'GET' : 'POST', body, timeoutMs, headers = {} } = options;
  const token = options.token === undefined ? getToken() : options.token;

  const h: Record<string, string> = { Accept: 'application/json', ...headers };
  const init: AuthorizedFetchInit = { method, headers: h, token };
  if (body !== undefined) {
    if (typeof body === 'string' || body instanceof FormData) {
      init.body = body;
    } else {
      init.body = JSON.stringify(body);
      h['Content-Type'] = 'application/json';
    }
  }

  const signals: AbortSignal[] = [];
  if (options.signal) signals.push(options.signal);
  let timeoutSignal: AbortSignal | undefined;
  if (timeoutMs !== undefined) {
    timeoutSignal = AbortSignal.timeout(timeoutMs);
    signals.push(timeoutSignal);
  }
  if (signals.length === 1) init.signal = signals[0];
  else if (signals.length > 1) init.signal = anySignal(signals);

  let response: Response;
  try {
    response = await authorizedFetch(path, init);
  } catch (err) {
    if (timeoutSignal?.aborted) throw new ApiError(0, 'Request timed out', { code: 'timeout' });
    if (options.signal?.aborted) throw new ApiError(0, 'Request aborted', { code: 'aborted' });
    throw new ApiError(0, err instanceof Error && err.message ? `Network error: ${err.message}` : 'Network error', {
      code: 'network_error',
    });
  }

  const text = await response.text().catch(() => '');
  let parsed: unknown = undefined;
  let isJson = false;
  if (text) {
    try {
      parsed = JSON.parse(text);
      isJson = true;
    } catch {
      isJson = false;
    }
  }

  if (!response.ok) {
    const detail = isJson ? extractDetail(parsed) : null;
    throw new ApiError(
      response.status,
      detail ?? (response.statusText || `Request failed with status ${response.status}`),
      { code: isJson ? extractCode(parsed) : undefined, fromServer: detail !== null, body: isJson ? parsed : undefined },
    );
  }

  if (!text) return undefined as T;
  if (!isJson) {
    throw new ApiError(response.status, 'Unexpected response from server', { code: 'bad_response' });
  }
  return parsed as T;
}

/** SWR fetcher: the key is the API path (or [path, ...scope]). */
export function swrFetcher<T>(key: string | readonly [string, ...unknown[]]): Promise<T> {
  const path = typeof key === 'string' ? key : key[0];
  return apiRequest<T>(path);
}
