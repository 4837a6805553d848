import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { getNotifications } from '../../../components/notifications/notification-store';
import { deferred, installFakeApi, type FakeApi } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { ADA, startSignedIn } from '../../../test/session';
import type { ChatConnection } from '../api/connect';
import { connectTo, reusableConnection, storeConnection } from './connections';
import { createSession, endSession, type Session } from './session';

const OPENAI = 'POST /api/v1/mcp-connections/openai';
const connectCalls = () => api.callsTo('POST', '/api/v1/mcp-connections/openai');
const toasts = () => getNotifications().map((n) => [n.kind, n.message]);
const answer = (model: string, id = 'conn-1') => jsonResponse(200, { id, server_name: 'OpenAI GPT (local demo)', model, demo: true });

let api: FakeApi;
let s: Session;
let afterChange: Mock<(s: Session) => void>;

beforeEach(() => {
  startSignedIn();
  api = installFakeApi();
  api.route(OPENAI, (req) => answer((req.body as { model: string }).model));
  afterChange = vi.fn<(s: Session) => void>();
  s = createSession(ADA.id, { emit: vi.fn(), afterChange });
});
afterEach(() => {
  endSession(s);
  vi.unstubAllGlobals();
});

describe('connectTo', () => {
  it('connects with the model, keeps the connection and says so', async () => {
    const connection = await connectTo(s, 'openai', 'gpt-4o');
    expect(connection).toEqual({ id: 'conn-1', model: 'gpt-4o', server_name: 'OpenAI GPT (local demo)', demo: true });
    expect(connectCalls().map((c) => c.body)).toEqual([{ model: 'gpt-4o' }]);
    expect(connectCalls()[0].auth).toMatch(/^Bearer /);
    expect(s.snap.connections).toEqual({ 'openai:gpt-4o': connection });
    expect(toasts()).toEqual([['success', 'Connected to OpenAI GPT (local demo)']]);
    expect(afterChange).toHaveBeenCalledWith(s); // a connection may start summaries
  });

  it('reuses the kept connection without asking the server again', async () => {
    const first = await connectTo(s, 'openai', 'gpt-4o');
    await expect(connectTo(s, 'openai', 'gpt-4o')).resolves.toBe(first);
    expect(connectCalls()).toHaveLength(1);
    expect(reusableConnection(s, 'openai', 'gpt-4o')).toBe(first);
    expect(reusableConnection(s, 'openai', 'gpt-4o-mini')).toBeNull();
  });

  it('does not reuse a connection the reuse rule refuses (another server name)', async () => {
    storeConnection(s, 'openai:gpt-4o', { id: 'old', model: 'gpt-4o', server_name: 'Meta Llama', demo: false });
    expect(reusableConnection(s, 'openai', 'gpt-4o')).toBeNull();
    expect((await connectTo(s, 'openai', 'gpt-4o'))?.id).toBe('conn-1');
    expect(connectCalls()).toHaveLength(1);
  });

  it('concurrent asks share one request, and count as connecting meanwhile', async () => {
    const held = deferred();
    api.route(OPENAI, async (req) => {
      await held.promise;
      return answer((req.body as { model: string }).model);
    });
    const a = connectTo(s, 'openai', 'gpt-4o');
    const b = connectTo(s, 'openai', 'gpt-4o');
    expect(b).toBe(a);
    expect(s.snap.connecting).toEqual({ 'openai:gpt-4o': 1 });
    held.resolve();
    const [ca, cb] = await Promise.all([a, b]);
    expect(ca).toBe(cb);
    expect(connectCalls()).toHaveLength(1);
    expect(s.snap.connecting).toEqual({});
    expect(s.inflight.size).toBe(0);
  });

  it('force connects afresh even with a usable connection', async () => {
    await connectTo(s, 'openai', 'gpt-4o');
    api.route(OPENAI, () => answer('gpt-4o', 'conn-2'));
    expect((await connectTo(s, 'openai', 'gpt-4o', true))?.id).toBe('conn-2');
    expect(s.snap.connections['openai:gpt-4o'].id).toBe('conn-2');
    expect(connectCalls()).toHaveLength(2);
  });

  it("a failure gives null and the server's detail in the toast; the kept connection stays", async () => {
    const kept = await connectTo(s, 'openai', 'gpt-4o');
    api.route('POST /api/v1/mcp-connections/meta', () => jsonResponse(503, { detail: 'Meta Llama is not available.', code: 'unavailable' }));
    await expect(connectTo(s, 'meta', 'llama-3.1-8b-instruct')).resolves.toBeNull();
    expect(toasts()).toEqual([['error', 'Meta Llama is not available.']]);
    expect(s.snap.connections).toEqual({ 'openai:gpt-4o': kept });
    expect(s.snap.connecting).toEqual({});
  });

  it("a failure without the server's detail says 'Connection failed'", async () => {
    api.route(OPENAI, () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(connectTo(s, 'openai', 'gpt-4o')).resolves.toBeNull();
    expect(toasts()).toEqual([['error', 'Connection failed']]);
  });

  it('a forced connect that fails forgets the old connection', async () => {
    await connectTo(s, 'openai', 'gpt-4o');
    api.route(OPENAI, () => jsonResponse(500, {}));
    await expect(connectTo(s, 'openai', 'gpt-4o', true)).resolves.toBeNull();
    expect(s.snap.connections).toEqual({});
  });

  it('the session ending aborts the connect; its answer is dropped without a toast', async () => {
    let signal: AbortSignal | null = null;
    api.route(OPENAI, (req) => {
      signal = req.signal;
      return new Promise<Response>((_, reject) => req.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    });
    const pending = connectTo(s, 'openai', 'gpt-4o');
    await vi.waitFor(() => expect(signal).not.toBeNull());
    endSession(s);
    expect(signal!.aborted).toBe(true);
    await expect(pending).resolves.toBeNull();
    expect(s.snap.connections).toEqual({});
    expect(toasts()).toEqual([]);
  });
});

describe('storeConnection', () => {
  const conn: ChatConnection = { id: 'c', model: 'gpt-4o', server_name: 'OpenAI GPT', demo: false };

  it('keeps and forgets; only a new connection looks for work', () => {
    storeConnection(s, 'openai:gpt-4o', conn);
    expect(s.snap.connections).toEqual({ 'openai:gpt-4o': conn });
    expect(afterChange).toHaveBeenCalledTimes(1);
    storeConnection(s, 'openai:gpt-4o', null);
    expect(s.snap.connections).toEqual({});
    expect(afterChange).toHaveBeenCalledTimes(1);
  });
});
