import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getNotifications } from '../../../components/notifications/notification-store';
import { installFakeApi, sseData, SSE_DONE, sseResponse, sseStream, type FakeApi } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { ADA, startSignedIn } from '../../../test/session';
import { createMessage } from '../state/chat-state';
import type { PendingApproval } from '../state/types';
import { setDraft } from './drafts';
import { send } from './sending';
import { abortTab, createSession, dispatch, endSession, type Session } from './session';
import { APPROVAL_FIRST } from './toasts';

const NOW = '2026-03-07T10:00:00.000Z';
const CONNECT = 'POST /api/v1/mcp-connections/openai';
const STREAM = 'POST /api/v1/mcp-connections/message';
const connectCalls = () => api.callsTo('POST', '/api/v1/mcp-connections/openai');
const streamBodies = () => api.callsTo('POST', '/api/v1/mcp-connections/message').map((c) => c.body as Record<string, unknown>);
const toasts = () => getNotifications().map((n) => n.message);
const CALL = { id: 'call_1', server_id: 'srv', server_name: 'Everything', tool: 'get-sum', arguments: {} };

let api: FakeApi;
let s: Session;
let tabId: string;
const messages = (id = tabId) => s.snap.state.conversations[id] ?? [];
const shape = (id = tabId) => messages(id).map((m) => [m.role, m.content, m.complete]);

beforeEach(() => {
  startSignedIn();
  api = installFakeApi();
  let n = 0;
  api.route(CONNECT, (req) => jsonResponse(200, { id: `conn-${++n}`, server_name: 'OpenAI GPT (local demo)', model: (req.body as { model: string }).model, demo: true }));
  api.route(STREAM, () => sseResponse([sseData({ content: 'Hello' }), sseData({ content: ' there' }), SSE_DONE]));
  s = createSession(ADA.id, { emit: vi.fn(), afterChange: vi.fn() });
  tabId = s.snap.state.activeTabId;
});
afterEach(() => {
  endSession(s);
  vi.unstubAllGlobals();
});

describe('send', () => {
  it('connects, adds the message and an empty reply, and streams the reply into it', async () => {
    await expect(send(s, '  Tell me about tides  ', {})).resolves.toBe(true);
    expect(connectCalls().map((c) => c.body)).toEqual([{ model: 'gpt-4o-mini' }]);
    expect(streamBodies()).toEqual([{ connection_id: 'conn-1', message: 'Tell me about tides', model: 'gpt-4o-mini', context: [] }]);
    expect(shape()).toEqual([
      ['user', 'Tell me about tides', true],
      ['assistant', 'Hello there', true],
    ]);
    expect(s.snap.state.tabs[0].title).toBe('Tell me about tides');
    expect(s.snap.sending).toEqual({});
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
    api.route(STREAM, () => body.response);
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

  it('a failed stream removes the empty reply and toasts why', async () => {
    api.route(STREAM, () => jsonResponse(413, { detail: 'too long', code: 'too_large' }));
    await expect(send(s, 'hello', {})).resolves.toBe(false);
    expect(shape()).toEqual([['user', 'hello', true]]);
    expect(toasts()).toEqual(['HTTP error! status: 413, message: too long']);
    expect(s.snap.sending).toEqual({});
  });

  it('a reply that called tools before failing keeps its record, completed', async () => {
    api.route(STREAM, () => sseResponse([sseData({ tool_call: CALL }), 'event: error\ndata: {"detail":"Upstream gone"}\n\n']));
    await expect(send(s, 'hello', {})).resolves.toBe(false);
    expect(messages()[1]).toMatchObject({ role: 'assistant', complete: true, blocks: [expect.objectContaining({ id: 'call_1', state: 'interrupted' })] });
    expect(toasts()).toEqual(['Upstream gone']);
  });

  it('a connection the server forgot (404) is dropped: the next send connects afresh', async () => {
    await send(s, 'one', {});
    api.route(STREAM, () => jsonResponse(404, { detail: 'Connection not found' }));
    await send(s, 'two', {});
    expect(s.snap.connections).toEqual({});
    api.route(STREAM, () => sseResponse([sseData({ content: 'ok' }), SSE_DONE]));
    await expect(send(s, 'three', {})).resolves.toBe(true);
    expect(connectCalls()).toHaveLength(2);
    expect(streamBodies().at(-1)?.connection_id).toBe('conn-2');
  });

  it('other stream failures keep the connection', async () => {
    await send(s, 'one', {});
    api.route(STREAM, () => jsonResponse(500, { detail: 'boom' }));
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
    api.route(STREAM, () => body.response);
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
    api.route(STREAM, () => body.response);
    const pending = send(s, 'go', {});
    await vi.waitFor(() => expect(streamBodies()).toHaveLength(1));
    const snap = s.snap;
    endSession(s);
    await expect(pending).resolves.toBe(false);
    expect(s.snap).toBe(snap);
    expect(toasts()).toEqual(['Connected to OpenAI GPT (local demo)']);
  });
});
