import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, errorMessage } from './api-client';
import { getAuthState, initAuth, resetAuthForTests, setSession, type User } from './auth-session';
import { installFakeApi, type FakeApi } from '../test/fake-api';
import { jsonResponse, tokenExpiringIn } from '../test/jwt-fixtures';
import { STORAGE_KEYS, userKey } from './storage';

const user: User = { id: '1', email: 'a@example.com', username: 'ada', full_name: 'Ada L', is_admin: false, is_verified: true };

let api: FakeApi;

beforeEach(() => {
  resetAuthForTests();
  initAuth();
  api = installFakeApi();
});

afterEach(() => {
  vi.unstubAllGlobals();
  resetAuthForTests();
});

function lastRequest(): { url: string; method: string; body: unknown; headers: Record<string, string> } {
  const call = api.calls.at(-1)!;
  return { url: call.path + call.search, method: call.method, body: call.body, headers: call.headers };
}

describe('apiRequest', () => {
  it('prefixes /api/v1 and parses JSON', async () => {
    api.route('GET /api/v1/auth/health', () => jsonResponse(200, { status: 'ok' }));
    await expect(apiRequest('/auth/health')).resolves.toEqual({ status: 'ok' });
    expect(lastRequest().url).toBe('/api/v1/auth/health');
    expect(lastRequest().method).toBe('GET');
  });

  it('attaches the bearer token of the session', async () => {
    const token = tokenExpiringIn(3600);
    setSession(user, token);
    api.route('GET /api/v1/users/activities', () => jsonResponse(200, []));
    await apiRequest('/users/activities');
    expect(lastRequest().headers.Authorization).toBe(`Bearer ${token}`);
  });

  it('sends no Authorization header without a session or with token: null', async () => {
    api.route('GET /api/v1/auth/health', () => jsonResponse(200, {}));
    api.route('POST /api/v1/auth/login', () => jsonResponse(200, {}));
    await apiRequest('/auth/health');
    expect(lastRequest().headers.Authorization).toBeUndefined();

    setSession(user, tokenExpiringIn(3600));
    await apiRequest('/auth/login', { method: 'POST', body: {}, token: null });
    expect(lastRequest().headers.Authorization).toBeUndefined();
  });

  it('uses an explicit token over the session one', async () => {
    setSession(user, tokenExpiringIn(3600));
    api.route('GET /api/v1/auth/me', () => jsonResponse(200, {}));
    await apiRequest('/auth/me', { token: 'x.y.z' });
    expect(lastRequest().headers.Authorization).toBe('Bearer x.y.z');
  });

  it('JSON-encodes bodies and defaults to POST', async () => {
    api.route('POST /api/v1/auth/login', () => jsonResponse(201, { ok: true }));
    await apiRequest('/auth/login', { body: { email: 'a@example.com', password: 'p' } });
    const { method, headers, body } = lastRequest();
    expect(method).toBe('POST');
    expect(headers['Content-Type']).toBe('application/json');
    expect(body).toEqual({ email: 'a@example.com', password: 'p' }); // parsed from the JSON text sent
  });

  it('throws ApiError with status, detail and code from the JSON body', async () => {
    api.route('POST /api/v1/auth/register', () => jsonResponse(409, { detail: 'Email already registered', code: 'conflict' }, { statusText: 'Conflict' }));
    const err = await apiRequest('/auth/register', { body: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 409, detail: 'Email already registered', code: 'conflict', fromServer: true });
    expect((err as ApiError).message).toBe('Email already registered');
  });

  it('keeps the JSON body of an error, so a 409 can carry the current state', async () => {
    api.route('PATCH /api/v1/admin/prompts/p1', () => jsonResponse(409, { detail: 'Changed since you opened it.', code: 'conflict', current: { id: 'p1', version: 3 } }));
    const err = await apiRequest('/admin/prompts/p1', { method: 'PATCH', body: {} }).catch((e: unknown) => e);
    expect((err as ApiError).body).toEqual({ detail: 'Changed since you opened it.', code: 'conflict', current: { id: 'p1', version: 3 } });
    api.route('GET /api/v1/x', () => new Response('oops', { status: 500 }));
    expect(((await apiRequest('/x').catch((e: unknown) => e)) as ApiError).body).toBeUndefined();
  });

  it('uses the status text as detail when the body is not JSON', async () => {
    api.route('GET /api/v1/prompts/', () => new Response('<html>Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    const err = await apiRequest('/prompts/').catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 502, detail: 'Bad Gateway', fromServer: false });
  });

  it('uses the status text when the JSON body has no detail, and a generic text without status text', async () => {
    api.route('GET /api/v1/x', () => jsonResponse(500, { oops: true }, { statusText: 'Internal Server Error' }));
    await expect(apiRequest('/x')).rejects.toMatchObject({ status: 500, detail: 'Internal Server Error', fromServer: false });

    api.route('GET /api/v1/x', () => new Response('', { status: 503 }));
    await expect(apiRequest('/x')).rejects.toMatchObject({ status: 503, detail: 'Request failed with status 503' });
  });

  it('joins FastAPI-style validation details', async () => {
    api.route('GET /api/v1/x', () => jsonResponse(422, { detail: [{ msg: 'field required' }, { msg: 'bad email' }] }));
    await expect(apiRequest('/x')).rejects.toMatchObject({ status: 422, detail: 'field required; bad email', fromServer: true });
  });

  it('clears the session on any 401', async () => {
    setSession(user, tokenExpiringIn(3600));
    expect(localStorage.getItem('auth-storage')).not.toBeNull();
    api.route('GET /api/v1/auth/me', () => jsonResponse(401, { detail: 'Could not validate credentials', code: 'unauthorized' }));
    await expect(apiRequest('/auth/me')).rejects.toMatchObject({ status: 401, detail: 'Could not validate credentials' });
    expect(getAuthState()).toMatchObject({ status: 'unauthenticated', user: null, token: null });
    expect(localStorage.getItem('auth-storage')).toBeNull();
  });

  it("a 401 also removes the account's per-user data and the chat hand-off", async () => {
    setSession(user, tokenExpiringIn(3600));
    localStorage.setItem(userKey(STORAGE_KEYS.chatConversations, user.id), '{"t":[{"content":"My private note"}]}');
    localStorage.setItem(userKey(STORAGE_KEYS.mcpConnections, user.id), '[]');
    sessionStorage.setItem(STORAGE_KEYS.chatPrefill, 'My private note');
    api.route('GET /api/v1/users/usage', () => jsonResponse(401, { detail: 'Could not validate credentials', code: 'unauthorized' }));
    await expect(apiRequest('/users/usage')).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem(userKey(STORAGE_KEYS.chatConversations, user.id))).toBeNull();
    expect(localStorage.getItem(userKey(STORAGE_KEYS.mcpConnections, user.id))).toBeNull();
    expect(sessionStorage.getItem(STORAGE_KEYS.chatPrefill)).toBeNull();
  });

  it('keeps the session when a request deliberately sent without a token gets a 401', async () => {
    setSession(user, tokenExpiringIn(3600));
    api.route('POST /api/v1/auth/login', () => jsonResponse(401, { detail: 'Incorrect email or password' }));
    await expect(apiRequest('/auth/login', { body: {}, token: null })).rejects.toMatchObject({ status: 401 });
    expect(getAuthState().status).toBe('authenticated');
  });

  it('keeps the session when a 401 answers a token that is no longer the session\'s', async () => {
    const current = tokenExpiringIn(3600);
    setSession(user, current);
    api.route('POST /api/v1/auth/logout', () => jsonResponse(401, { detail: 'Your session has ended. Please log in again.' }));
    // e.g. a logout's own request, or an answer arriving after another sign-in.
    await expect(apiRequest('/auth/logout', { method: 'POST', token: tokenExpiringIn(60) })).rejects.toMatchObject({ status: 401 });
    expect(getAuthState()).toMatchObject({ status: 'authenticated', token: current });
  });

  it('does not clear the session on other errors', async () => {
    setSession(user, tokenExpiringIn(3600));
    api.route('GET /api/v1/x', () => jsonResponse(403, { detail: 'Forbidden' }));
    await expect(apiRequest('/x')).rejects.toMatchObject({ status: 403 });
    expect(getAuthState().status).toBe('authenticated');
  });

  it('reports network failures as status 0', async () => {
    api.route('GET /api/v1/auth/google/login', () => {
      throw new TypeError('Failed to fetch');
    });
    const err = await apiRequest('/auth/google/login').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 0, code: 'network_error', fromServer: false });
    expect((err as ApiError).isNetworkError).toBe(true);
  });

  it('reports a timeout as status 0 with code timeout', async () => {
    api.route(
      'GET /api/v1/auth/health',
      ({ signal }) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    await expect(apiRequest('/auth/health', { timeoutMs: 10 })).rejects.toMatchObject({ status: 0, code: 'timeout' });
  });

  it('returns undefined for an empty success body and rejects a non-JSON success body', async () => {
    api.route('DELETE /api/v1/x', () => new Response(null, { status: 204 }));
    await expect(apiRequest('/x', { method: 'DELETE' })).resolves.toBeUndefined();
    api.route('GET /api/v1/x', () => new Response('<html></html>', { status: 200 }));
    await expect(apiRequest('/x')).rejects.toMatchObject({ status: 200, code: 'bad_response' });
  });
});

describe('errorMessage', () => {
  it('prefers the server detail and falls back otherwise', () => {
    expect(errorMessage(new ApiError(400, 'Invalid email address', { fromServer: true }), 'Login failed')).toBe('Invalid email address');
    expect(errorMessage(new ApiError(502, 'Bad Gateway'), 'Login failed')).toBe('Login failed');
    expect(errorMessage(new Error('boom'), 'Login failed')).toBe('Login failed');
    expect(errorMessage(undefined, 'Registration failed')).toBe('Registration failed');
  });
});
