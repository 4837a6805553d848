import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { installFakeApi, type FakeApi } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { startSignedIn } from '../../../test/session';
import {
  createConversation,
  deleteConversation,
  listConversations,
  listMessages,
  listQueryPath,
  patchConversation,
  readConversationPage,
  readMessage,
  reattachPath,
  stopReply,
} from './conversations';

const CONV = {
  id: 'c1',
  title: 'Tides',
  provider: 'openai',
  model: 'gpt-4o-mini',
  created_at: '2026-03-07T10:00:00Z',
  updated_at: '2026-03-07T10:05:00Z',
  archived: false,
  message_count: 2,
};

let api: FakeApi;
beforeEach(() => {
  startSignedIn();
  api = installFakeApi();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('reading answers', () => {
  it('reads a page field by field: unusable conversations dropped, missing fields empty', () => {
    expect(readConversationPage({ conversations: [CONV, { title: 'no id' }, { id: 'c2', message_count: -3 }], next_cursor: 'abc', total: 7 })).toEqual({
      conversations: [CONV, { id: 'c2', title: '', provider: '', model: '', created_at: '', updated_at: '', archived: false, message_count: 0 }],
      next_cursor: 'abc',
      total: 7,
    });
    expect(readConversationPage(null)).toEqual({ conversations: [], next_cursor: '', total: 0 });
  });

  it('reads a message: blocks with their frames, usage, flags; complete unless it says false', () => {
    expect(
      readMessage({
        id: 'm1',
        role: 'assistant',
        content: 'Hi',
        created_at: 'T',
        complete: false,
        error: 'gone',
        usage: { input_tokens: 1, output_tokens: 2, cost_usd: 0.5, demo: true },
        blocks: [{ at: 2, frame: { notice: 'n' } }, { at: 1 }, 'junk'],
        truncated: true,
        stopped: true,
      }),
    ).toEqual({
      id: 'm1',
      role: 'assistant',
      content: 'Hi',
      created_at: 'T',
      complete: false,
      error: 'gone',
      usage: { input_tokens: 1, output_tokens: 2, cost_usd: 0.5, demo: true },
      blocks: [{ at: 2, frame: { notice: 'n' } }],
      truncated: true,
      stopped: true,
    });
    expect(readMessage({ id: 'u', role: 'user', content: 'x' })).toMatchObject({ complete: true, error: '', usage: null, blocks: [] });
    expect(readMessage({ id: 'x', role: 'system' })).toBeNull();
  });

  it('builds the list query and the paths', () => {
    expect(listQueryPath({ archived: true, q: '  tides ', limit: 20, cursor: 'x y' })).toBe('/chat/conversations?archived=true&q=tides&limit=20&cursor=x+y');
    expect(listQueryPath({ archived: false })).toBe('/chat/conversations?archived=false');
    expect(reattachPath('c/1', 'm 2')).toBe('/chat/conversations/c%2F1/messages/m%202/stream');
  });
});

describe('requests', () => {
  it('lists conversations and messages', async () => {
    api.route('GET /api/v1/chat/conversations', () => jsonResponse(200, { conversations: [CONV], next_cursor: '', total: 1 }));
    api.route('GET /api/v1/chat/conversations/c1/messages', () => jsonResponse(200, { messages: [{ id: 'u1', role: 'user', content: 'Hi' }, { bad: true }] }));
    await expect(listConversations({ archived: false, limit: 100 })).resolves.toEqual({ conversations: [CONV], next_cursor: '', total: 1 });
    expect(api.calls[0].search).toBe('?archived=false&limit=100');
    await expect(listMessages('c1')).resolves.toEqual([expect.objectContaining({ id: 'u1', content: 'Hi' })]);
  });

  it('writes with JSON and keepalive (a write just before a reload still arrives), and the bearer token', async () => {
    api.route('POST /api/v1/chat/conversations', () => jsonResponse(201, CONV));
    api.route('PATCH /api/v1/chat/conversations/c1', () => jsonResponse(200, { ...CONV, archived: true }));
    api.route('DELETE /api/v1/chat/conversations/c1', () => new Response(null, { status: 204 }));
    api.route('POST /api/v1/chat/conversations/c1/messages/m1/stop', () => new Response(null, { status: 204 }));
    await expect(createConversation({ title: 'Tides', provider: 'openai', model: 'gpt-4o-mini' })).resolves.toEqual(CONV);
    await expect(patchConversation('c1', { archived: true })).resolves.toMatchObject({ archived: true });
    await expect(deleteConversation('c1')).resolves.toBeUndefined();
    await expect(stopReply('c1', 'm1')).resolves.toBeUndefined();
    expect(api.calls.map((c) => [c.method, c.path, c.body ?? null, c.auth?.startsWith('Bearer ')])).toEqual([
      ['POST', '/api/v1/chat/conversations', { title: 'Tides', provider: 'openai', model: 'gpt-4o-mini' }, true],
      ['PATCH', '/api/v1/chat/conversations/c1', { archived: true }, true],
      ['DELETE', '/api/v1/chat/conversations/c1', null, true],
      ['POST', '/api/v1/chat/conversations/c1/messages/m1/stop', null, true],
    ]);
    const init = vi.mocked(fetch).mock.calls[0][1] as RequestInit;
    expect(init.keepalive).toBe(true);
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('a refusal is an ApiError with the server detail; a network failure has status 0', async () => {
    api.route('POST /api/v1/chat/conversations', () => jsonResponse(400, { detail: 'Unknown model "x"', code: 'invalid' }));
    const refused = await createConversation({ title: '', provider: 'openai', model: 'x' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 400, detail: 'Unknown model "x"', code: 'invalid', fromServer: true });
    api.route('PATCH /api/v1/chat/conversations/c1', () => new Response('oops', { status: 502 }));
    await expect(patchConversation('c1', { title: 'x' })).rejects.toMatchObject({ status: 502, fromServer: false });
    api.route('DELETE /api/v1/chat/conversations/c1', () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(deleteConversation('c1')).rejects.toMatchObject({ status: 0, code: 'network_error' });
    api.route('POST /api/v1/chat/conversations', () => jsonResponse(201, { nothing: 'useful' }));
    await expect(createConversation({ title: '', provider: 'openai', model: 'gpt-4o-mini' })).rejects.toMatchObject({ code: 'bad_response' });
  });
});
