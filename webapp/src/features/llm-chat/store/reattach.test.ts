import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getNotifications } from '../../../components/notifications/notification-store';
import { fakeConversations, installFakeApi, sseData, SSE_DONE, sseResponse, sseStream, type FakeApi, type FakeConversations } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { ADA, startSignedIn } from '../../../test/session';
import { createMessage } from '../state/chat-state';
import type { ChatMessage } from '../state/types';
import { reattach } from './reattach';
import { setSending } from './reply';
import { createSession, dispatch, endSession, findMessage, type Session } from './session';
import { stop } from './stop';

const NOW = '2026-03-07T10:00:00.000Z';
const CALL = { id: 'call_1', server_id: 'srv', server_name: 'Everything', tool: 'get-sum', arguments: { a: 2, b: 3 } };
const RESULT = { id: 'call_1', is_error: false, content: [{ type: 'text', text: '5' }], duration_ms: 12 };

let api: FakeApi;
let convs: FakeConversations;
let s: Session;
let cid: string;
let serverId: string;
const streamKey = () => `GET /api/v1/chat/conversations/${cid}/messages/${serverId}/stream`;
const reply = (): ChatMessage => findMessage(s, 't1', 'r1')!;

/** A tab showing a reply the server is still generating, as a reload leaves it. */
function showing(message: Partial<ChatMessage> = {}): void {
  dispatch(s, { type: 'addMessage', tabId: 't1', message: { ...createMessage('r1', 'assistant', 'Par', NOW, false), serverId, ...message } });
}

beforeEach(() => {
  startSignedIn();
  api = installFakeApi();
  convs = fakeConversations(api);
  const c = convs.seed({ title: 'T', messages: [{ role: 'user', content: 'Q' }, { role: 'assistant', content: 'Par', complete: false }] });
  cid = c.id;
  serverId = convs.messages[cid][1].id;
  s = createSession(ADA.id, { emit: vi.fn(), afterChange: vi.fn() });
  const tab = { id: 't1', title: 'T', provider: 'openai' as const, model: 'gpt-4o-mini', createdAt: NOW, conversationId: cid };
  s.snap = { ...s.snap, state: { tabs: [tab], activeTabId: 't1', conversations: { t1: [] } } };
});
afterEach(() => {
  endSession(s);
  vi.unstubAllGlobals();
});

describe('reattach', () => {
  it('the stream starts again from the beginning: what was shown is replaced as it comes, and the reply ends complete', async () => {
    showing();
    api.route(streamKey(), () =>
      sseResponse([': generating\n\n', sseData({ content: 'Part one, ' }), sseData({ tool_call: CALL }), sseData({ tool_result: RESULT }), sseData({ content: 'part two.' }), SSE_DONE]),
    );
    await expect(reattach(s, 't1', 'r1')).resolves.toBe(true);
    expect(reply()).toMatchObject({ content: 'Part one, part two.', complete: true, serverId });
    expect(reply().blocks).toEqual([expect.objectContaining({ id: 'call_1', at: 10, state: 'done' })]);
    expect(api.calls.at(-1)?.headers.Accept).toBe('text/event-stream');
  });

  it('holds the tab as sending while it streams (no new message meanwhile); not twice', async () => {
    showing();
    const body = sseStream();
    api.route(streamKey(), () => body.response);
    const running = reattach(s, 't1', 'r1');
    expect(s.snap.sending).toEqual({ t1: true });
    await expect(reattach(s, 't1', 'r1')).resolves.toBe(false);
    body.push(sseData({ content: 'Part' }) + SSE_DONE);
    body.end();
    await expect(running).resolves.toBe(true);
    expect(s.snap.sending).toEqual({});
    expect(api.calls.filter((c) => c.path.endsWith('/stream'))).toHaveLength(1);
  });

  it('a call answered after a pause keeps what the tab showed of it', async () => {
    showing({ blocks: [{ kind: 'tool', at: 3, id: 'call_2', serverId: 'srv', serverName: 'Everything', tool: 'toggle', arguments: {}, state: 'running' }] });
    api.route(streamKey(), () => sseResponse([sseData({ content: 'Par' }), sseData({ tool_result: { ...RESULT, id: 'call_2' } }), SSE_DONE]));
    await reattach(s, 't1', 'r1');
    expect(reply().blocks).toEqual([expect.objectContaining({ id: 'call_2', tool: 'toggle', serverName: 'Everything', state: 'done' })]);
  });

  it('a reply that paused for an approval pauses again', async () => {
    showing();
    const approval = {
      token: 'tok',
      expires_at: '2099-01-01T00:00:00Z',
      call: { ...CALL, id: 'call_2', tool: 'toggle', description: '', annotations: { readOnlyHint: false } },
    };
    api.route(streamKey(), () => sseResponse([sseData({ content: 'Let me.' }), `event: tool_approval\ndata: ${JSON.stringify(approval)}\n\n`]));
    await expect(reattach(s, 't1', 'r1')).resolves.toBe(true);
    expect(reply()).toMatchObject({ complete: false, approval: { token: 'tok', status: 'pending' } });
  });

  it('Stop: the server ends it; it completes marked stopped', async () => {
    showing();
    const body = sseStream();
    api.route(streamKey(), () => body.response);
    const running = reattach(s, 't1', 'r1');
    await expect(stop(s, 't1')).resolves.toBe(true);
    expect(convs.stops).toEqual([[cid, serverId]]);
    body.push(sseData({ content: 'Part' }) + SSE_DONE);
    body.end();
    await running;
    expect(reply()).toMatchObject({ complete: true, stopped: true });
  });

  it('a failure ends the reply with its error (Retry offered), without a toast; a 404 too', async () => {
    showing();
    api.route(streamKey(), () => jsonResponse(404, { detail: 'Message not found.' }));
    await expect(reattach(s, 't1', 'r1')).resolves.toBe(false);
    expect(reply()).toMatchObject({ complete: true, content: 'Par', error: 'HTTP error! status: 404, message: Message not found.' });
    expect(getNotifications()).toEqual([]);
  });

  it('nothing for a reply complete, unknown to the server, or while the tab sends', async () => {
    showing({ serverId: undefined });
    await expect(reattach(s, 't1', 'r1')).resolves.toBe(false);
    dispatch(s, { type: 'setServerId', tabId: 't1', messageId: 'r1', serverId });
    setSending(s, 't1', true);
    await expect(reattach(s, 't1', 'r1')).resolves.toBe(false);
    setSending(s, 't1', false);
    dispatch(s, { type: 'completeMessage', tabId: 't1', messageId: 'r1' });
    await expect(reattach(s, 't1', 'r1')).resolves.toBe(false);
    expect(api.calls).toEqual([]);
  });

  it('the session ending aborts it quietly', async () => {
    showing();
    const body = sseStream();
    api.route(streamKey(), () => body.response);
    const running = reattach(s, 't1', 'r1');
    await vi.waitFor(() => expect(api.calls).toHaveLength(1));
    endSession(s);
    await expect(running).resolves.toBe(false);
    await vi.waitFor(() => expect(body.cancelled).toBe(true));
  });
});
