import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getNotifications } from '../../../components/notifications/notification-store';
import { fakeConversations, installFakeApi, sseData, SSE_DONE, sseMessageIds, sseResponse, sseStream, type FakeApi, type FakeConversations } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { ADA, startSignedIn } from '../../../test/session';
import { createMessage } from '../state/chat-state';
import type { PendingApproval } from '../state/types';
import { CONVERSATION_FAILED } from './conversations';
import { setDraft } from './drafts';
import { retry, send } from './sending';
import { abortTab, createSession, dispatch, endSession, findTab, type Session } from './session';
import { stop } from './stop';
import { APPROVAL_FIRST } from './toasts';

const NOW = '2026-03-07T10:00:00.000Z';
const CONNECT = 'POST /api/v1/mcp-connections/openai';
const STREAM = 'POST /api/v1/mcp-connections/message';
const connectCalls = () => api.callsTo('POST', '/api/v1/mcp-connections/openai');
const streamBodies = () => api.callsTo('POST', '/api/v1/mcp-connections/message').map((c) => c.body as Record<string, unknown>);
const toasts = () => getNotifications().map((n) => n.message);
const CALL = { id: 'call_1', server_id: 'srv', server_name: 'Everything', tool: 'get-sum', arguments: {} };

let api: FakeApi;
let convs: FakeConversations;
let s: Session;
let tabId: string;
const messages = (id = tabId) => s.snap.state.conversations[id] ?? [];
const shape = (id = tabId) => messages(id).map((m) => [m.role, m.content, m.complete]);
/** The message stream answers with `answer`, kept with its conversation as the server does (message_ids first). */
const route = (answer: () => Response) => api.route(STREAM, (req) => convs.keepStream(req.body, answer()));
const conversationId = (id = tabId) => findTab(s, id)?.conversationId;

beforeEach(() => {
  startSignedIn();
  api = installFakeApi();
  let n = 0;
  api.route(CONNECT, (req) => jsonResponse(200, { id: `conn-${++n}`, server_name: 'OpenAI GPT (local demo)', model: (req.body as { model: string }).model, demo: true }));
  convs = fakeConversations(api);
  route(() => sseResponse([sseData({ content: 'Hello' }), sseData({ content: ' there' }), SSE_DONE]));
  s = createSession(ADA.id, { emit: vi.fn(), afterChange: vi.fn() });
  tabId = s.snap.state.activeTabId;
});
afterEach(() => {
  endSession(s);
  vi.unstubAllGlobals();
});

describe('send', () => {
  it('connects, makes the conversation, adds the message and an empty reply, and streams the reply into it', async () => {
    await expect(send(s, '  Tell me about tides  ', {})).resolves.toBe(true);
    expect(connectCalls().map((c) => c.body)).toEqual([{ model: 'gpt-4o-mini' }]);
    expect(api.callsTo('POST', '/api/v1/chat/conversations').map((c) => c.body)).toEqual([{ title: 'Chat 1', provider: 'openai', model: 'gpt-4o-mini' }]);
    const [conversation] = convs.all;
    expect(conversationId()).toBe(conversation.id);
    expect(streamBodies()).toEqual([{ connection_id: 'conn-1', message: 'Tell me about tides', model: 'gpt-4o-mini', context: [], conversation_id: conversation.id }]);
    expect(shape()).toEqual([
      ['user', 'Tell me about tides', true],
      ['assistant', 'Hello there', true],
    ]);
    // The server's ids, from the stream's first frame.
    expect(messages().map((m) => m.serverId)).toEqual(convs.messages[conversation.id].map((m) => m.id));
    expect(convs.messages[conversation.id].map((m) => [m.role, m.content, m.complete])).toEqual(shape());
    // The first message names the tab, and the conversation.
    expect(s.snap.state.tabs[0].title).toBe('Tell me about tides');
    await vi.waitFor(() => expect(conversation.title).toBe('Tell me about tides'));
    expect(s.snap.sending).toEqual({});
  });

  it("makes the tab's conversation once; a refusal sends nothing and says why", async () => {
    api.route('POST /api/v1/chat/conversations', () => jsonResponse(503, { detail: 'Service busy' }));
    await expect(send(s, 'hello', {})).resolves.toBe(false);
    expect(messages()).toEqual([]);
    expect(streamBodies()).toEqual([]);
    expect(toasts()).toContain('Service busy');
    api.route('POST /api/v1/chat/conversations', () => new Response('x', { status: 500 }));
    await expect(send(s, 'hello', {})).resolves.toBe(false);
    expect(toasts()).toContain(CONVERSATION_FAILED);
    expect(conversationId()).toBeUndefined();
  });

  it('sends nothing for empty or blank text', async () => {
    await expect(send(s, '', {})).resolves.toBe(false);
    await expect(send(s, ' \n\t ', {})).resolves.toBe(false);
    expect(api.calls).toEqual([]);
    expect(messages()).toEqual([]);
  });

  it('reuses the connection and sends the complete messages so far as context', async () => {
    await send(s, 'first', {});
    await send(s, 'second', {});
    expect(connectCalls()).toHaveLength(1);
    expect(streamBodies().map((b) => [b.message, b.context])).toEqual([
      ['first', []],
      [
        'second',
        [
          { role: 'user', content: 'first' },
          { role: 'assistant', content: 'Hello there' },
        ],
      ],
    ]);
    expect(api.callsTo('POST', '/api/v1/chat/conversations')).toHaveLength(1);
    expect(new Set(streamBodies().map((b) => b.conversation_id)).size).toBe(1);
  });

  it('offers the tools of the enabled MCP servers, with the read-only setting; none: no tool fields', async () => {
    await send(s, 'with tools', { tools: { connectionIds: ['mcp-a', 'mcp-b'], confirmReadOnly: true } });
    await send(s, 'without', { tools: { connectionIds: [], confirmReadOnly: true } });
    expect(streamBodies()[0]).toMatchObject({ mcp_connection_ids: ['mcp-a', 'mcp-b'], confirm_read_only: true });
    expect(streamBodies()[1]).not.toHaveProperty('mcp_connection_ids');
    expect(streamBodies()[1]).not.toHaveProperty('confirm_read_only');
  });

  it('sends in the tab named, not the active one', async () => {
    dispatch(s, { type: 'newTab', id: 'tab-2', now: NOW });
    await send(s, 'to the first', { tabId });
    expect(shape()).toHaveLength(2);
    expect(messages('tab-2')).toEqual([]);
  });

  it("clears the tab's draft once the message is on its way, when asked", async () => {
    setDraft(s, 'kept', tabId);
    await send(s, 'kept', {});
    expect(s.snap.drafts[tabId]).toBe('kept');
    await send(s, 'kept', { clearDraft: true });
    expect(s.snap.drafts[tabId]).toBe('');
  });

  it('is the tab sending while it connects and streams; a second send meanwhile is refused', async () => {
    const body = sseStream();
    route(() => body.response);
    const first = send(s, 'go', {});
    expect(s.snap.sending).toEqual({ [tabId]: true });
    await vi.waitFor(() => expect(streamBodies()).toHaveLength(1));
    await expect(send(s, 'again', {})).resolves.toBe(false);
    body.push(sseData({ content: 'Done' }) + SSE_DONE);
    body.end();
    await expect(first).resolves.toBe(true);
    expect(streamBodies()).toHaveLength(1);
    expect(s.snap.sending).toEqual({});
  });

  describe('a reply waiting for a tool approval', () => {
    const paused = (expiresAt: string) => {
      const reply = createMessage('r0', 'assistant', 'Let me check.', NOW, false);
      const approval: PendingApproval = {
        token: 'tok',
        expiresAt,
        callId: 'call_1',
        serverId: 'srv',
        serverName: 'Everything',
        tool: 'toggle',
        arguments: {},
        description: '',
        readOnly: false,
        destructive: true,
        connectionId: 'conn-x',
        model: 'gpt-4o-mini',
        demo: true,
        status: 'pending',
      };
      dispatch(s, { type: 'addMessage', tabId, message: reply });
      dispatch(s, { type: 'pauseForApproval', tabId, messageId: 'r0', approval });
    };

    it('holds a new message back, and says so', async () => {
      paused(new Date(Date.now() + 60_000).toISOString());
      await expect(send(s, 'next', {})).resolves.toBe(false);
      expect(toasts()).toEqual([APPROVAL_FIRST]);
      expect(api.calls).toEqual([]);
      expect(messages()).toHaveLength(1);
    });

    it('once expired, is closed and the message goes', async () => {
      paused(new Date(Date.now() - 1000).toISOString());
      await expect(send(s, 'next', {})).resolves.toBe(true);
      expect(messages()[0]).toMatchObject({ id: 'r0', complete: true });
      expect(shape().slice(1)).toEqual([
        ['user', 'next', true],
        ['assistant', 'Hello there', true],
      ]);
    });
  });

  it('a failed stream leaves the reply saying why (for Retry), and toasts why', async () => {
    route(() => jsonResponse(413, { detail: 'too long', code: 'too_large' }));
    await expect(send(s, 'hello', {})).resolves.toBe(false);
    expect(shape()).toEqual([
      ['user', 'hello', true],
      ['assistant', '', true],
    ]);
    expect(messages()[1].error).toBe('HTTP error! status: 413, message: too long');
    expect(toasts()).toEqual(['HTTP error! status: 413, message: too long']);
    expect(s.snap.sending).toEqual({});
  });

  it('a reply that called tools before failing keeps its record, completed, with the error', async () => {
    route(() => sseResponse([sseData({ tool_call: CALL }), 'event: error\ndata: {"detail":"Upstream gone"}\n\n']));
    await expect(send(s, 'hello', {})).resolves.toBe(false);
    expect(messages()[1]).toMatchObject({ role: 'assistant', complete: true, error: 'Upstream gone', blocks: [expect.objectContaining({ id: 'call_1', state: 'interrupted' })] });
    expect(toasts()).toEqual(['Upstream gone']);
    // The server kept it failed too.
    expect(convs.messages[conversationId()!][1]).toMatchObject({ complete: true, error: 'Upstream gone' });
  });

  it('a conversation deleted elsewhere (404) is forgotten: Retry makes a new one', async () => {
    await send(s, 'one', {});
    const first = conversationId()!;
    api.route(`DELETE /api/v1/chat/conversations/${first}`, () => new Response(null, { status: 204 }));
    convs.all.splice(0, 1);
    await expect(send(s, 'two', {})).resolves.toBe(false);
    expect(toasts()).toContain('HTTP error! status: 404, message: Conversation not found.');
    expect(conversationId()).toBeUndefined();
    expect(Object.keys(s.snap.connections)).toEqual(['openai:gpt-4o-mini']); // the connection is fine
    await expect(retry(s, tabId, messages()[3].id, {})).resolves.toBe(true);
    expect(conversationId()).toBeDefined();
    expect(conversationId()).not.toBe(first);
    expect(shape().slice(2)).toEqual([
      ['user', 'two', true],
      ['assistant', 'Hello there', true],
    ]);
  });

  it('a connection the server forgot (404) is dropped: the next send connects afresh', async () => {
    await send(s, 'one', {});
    route(() => jsonResponse(404, { detail: 'Connection not found' }));
    await send(s, 'two', {});
    expect(s.snap.connections).toEqual({});
    route(() => sseResponse([sseData({ content: 'ok' }), SSE_DONE]));
    await expect(send(s, 'three', {})).resolves.toBe(true);
    expect(connectCalls()).toHaveLength(2);
    expect(streamBodies().at(-1)?.connection_id).toBe('conn-2');
  });

  it('other stream failures keep the connection', async () => {
    await send(s, 'one', {});
    route(() => jsonResponse(500, { detail: 'boom' }));
    await send(s, 'two', {});
    expect(Object.keys(s.snap.connections)).toEqual(['openai:gpt-4o-mini']);
  });

  it('no connection: nothing is added and nothing streamed', async () => {
    api.route(CONNECT, () => jsonResponse(503, { detail: 'No provider' }));
    await expect(send(s, 'hello', {})).resolves.toBe(false);
    expect(messages()).toEqual([]);
    expect(streamBodies()).toEqual([]);
    expect(toasts()).toEqual(['No provider']);
    expect(s.snap.sending).toEqual({});
  });

  it('a reply given up (its tab closing) ends quietly', async () => {
    const body = sseStream();
    route(() => body.response);
    const pending = send(s, 'go', {});
    await vi.waitFor(() => expect(s.streams.get(tabId)?.size).toBe(1));
    body.push(sseData({ content: 'Part' }));
    await vi.waitFor(() => expect(messages()[1]?.content).toBe('Part'));
    abortTab(s, tabId);
    await expect(pending).resolves.toBe(false);
    expect(toasts()).toEqual(['Connected to OpenAI GPT (local demo)']);
    expect(s.streams.size).toBe(0);
    await vi.waitFor(() => expect(body.cancelled).toBe(true));
  });

  it('the session ending mid-reply: nothing more is written, no toast', async () => {
    const body = sseStream();
    route(() => body.response);
    const pending = send(s, 'go', {});
    await vi.waitFor(() => expect(streamBodies()).toHaveLength(1));
    const snap = s.snap;
    endSession(s);
    await expect(pending).resolves.toBe(false);
    expect(s.snap).toBe(snap);
    expect(toasts()).toEqual(['Connected to OpenAI GPT (local demo)']);
  });
});

describe('retry', () => {
  it("sends the failed reply's message again in its place: no orphan message, the same conversation", async () => {
    route(() => sseResponse(['event: error\ndata: {"detail":"Upstream gone"}\n\n']));
    await send(s, 'first try', {});
    const failed = messages()[1];
    expect(failed.error).toBe('Upstream gone');
    route(() => sseResponse([sseData({ content: 'Worked' }), SSE_DONE]));
    await expect(retry(s, tabId, failed.id, { tools: { connectionIds: ['mcp-a'], confirmReadOnly: false } })).resolves.toBe(true);
    expect(shape()).toEqual([
      ['user', 'first try', true],
      ['assistant', 'Worked', true],
    ]);
    expect(messages()[1].error).toBeUndefined();
    expect(streamBodies().map((b) => [b.message, b.conversation_id, b.context])).toEqual([
      ['first try', conversationId(), []],
      ['first try', conversationId(), []],
    ]);
    expect(streamBodies()[1].mcp_connection_ids).toEqual(['mcp-a']);
  });

  it('only for the last message, a failed reply, while the tab does not send; nothing is lost when the retry cannot go', async () => {
    await send(s, 'fine', {});
    await expect(retry(s, tabId, messages()[1].id, {})).resolves.toBe(false); // not failed
    route(() => jsonResponse(500, { detail: 'boom' }));
    await send(s, 'broken', {});
    const failed = messages()[3];
    await expect(retry(s, tabId, 'nope', {})).resolves.toBe(false);
    api.route(CONNECT, () => jsonResponse(503, { detail: 'No provider' }));
    s.snap = { ...s.snap, connections: {} };
    await expect(retry(s, tabId, failed.id, {})).resolves.toBe(false);
    expect(shape().slice(2)).toEqual([
      ['user', 'broken', true],
      ['assistant', '', true],
    ]);
    expect(messages()[3].error).toBe('HTTP error! status: 500, message: boom');
  });
});

describe('stop', () => {
  it('asks the server to stop the reply; the stream ends as a finished one and the reply is marked stopped', async () => {
    const body = sseStream();
    route(() => body.response);
    const pending = send(s, 'go on and on', {});
    body.push(sseData({ content: 'Part' }));
    await vi.waitFor(() => expect(messages()[1]?.serverId).toBeDefined());
    await expect(stop(s, tabId)).resolves.toBe(true);
    expect(convs.stops).toEqual([[conversationId(), messages()[1].serverId]]);
    await expect(stop(s, tabId)).resolves.toBe(false); // asked already
    body.push(SSE_DONE);
    body.end();
    await expect(pending).resolves.toBe(true);
    expect(messages()[1]).toMatchObject({ content: 'Part', complete: true, stopped: true });
  });

  it('pressed before the server named the reply: asked as soon as it does', async () => {
    const held = sseStream();
    api.route(STREAM, () => held.response);
    const pending = send(s, 'go', {});
    await vi.waitFor(() => expect(messages()).toHaveLength(2));
    await expect(stop(s, tabId)).resolves.toBe(true);
    expect(convs.stops).toEqual([]);
    const ids = convs.keep(conversationId()!, 'go')!;
    held.push(sseMessageIds(ids));
    await vi.waitFor(() => expect(convs.stops).toEqual([[conversationId(), ids.assistant]]));
    held.push(SSE_DONE);
    held.end();
    await pending;
    expect(messages()[1].stopped).toBe(true);
  });

  it('a refused Stop says why, and the reply goes on', async () => {
    const body = sseStream();
    route(() => body.response);
    const pending = send(s, 'go', {});
    await vi.waitFor(() => expect(messages()[1]?.serverId).toBeDefined());
    api.route(`POST /api/v1/chat/conversations/${conversationId()}/messages/${messages()[1].serverId}/stop`, () => jsonResponse(404, { detail: 'Message not found.' }));
    await expect(stop(s, tabId)).resolves.toBe(false);
    expect(toasts()).toContain('Message not found.');
    body.push(sseData({ content: 'More' }) + SSE_DONE);
    body.end();
    await pending;
    expect(messages()[1]).toMatchObject({ content: 'More', complete: true });
    expect(messages()[1].stopped).toBeUndefined();
  });

  it('nothing to stop without a streaming reply', async () => {
    await expect(stop(s, tabId)).resolves.toBe(false);
    await send(s, 'done', {});
    await expect(stop(s, tabId)).resolves.toBe(false);
    expect(convs.stops).toEqual([]);
  });
});
