import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getNotifications } from '../../../components/notifications/notification-store';
import { installFakeApi, sseData, SSE_DONE, sseResponse, sseStream, type FakeApi } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { ADA, startSignedIn } from '../../../test/session';
import { createMessage } from '../state/chat-state';
import type { ChatMessage, PendingApproval } from '../state/types';
import { answerApproval, openApproval } from './approvals';
import { createSession, dispatch, endSession, findMessage, type Session } from './session';

const NOW = '2026-03-07T10:00:00.000Z';
const STREAM = 'POST /api/v1/mcp-connections/message';
const streamBodies = () => api.callsTo('POST', '/api/v1/mcp-connections/message').map((c) => c.body);
const toasts = () => getNotifications().map((n) => n.message);
const RESULT = { id: 'call_1', is_error: false, content: [{ type: 'text', text: 'Logging on.' }], duration_ms: 7 };
const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

let api: FakeApi;
let s: Session;
let tabId: string;
const reply = (): ChatMessage => findMessage(s, tabId, 'r1')!;
const block = () => reply().blocks?.find((b) => b.kind === 'tool' && b.id === 'call_1');

/** A reply in the tab paused for the user's decision on call_1. */
function pause(expiresAt = inMinutes(10), over: Partial<PendingApproval> = {}): void {
  const approval: PendingApproval = {
    token: 'tok_1',
    expiresAt,
    callId: 'call_1',
    serverId: 'srv',
    serverName: 'Everything',
    tool: 'toggle',
    arguments: {},
    description: 'Toggles logging.',
    readOnly: false,
    destructive: true,
    connectionId: 'conn-1',
    model: 'gpt-4o-mini',
    demo: true,
    status: 'pending',
    ...over,
  };
  dispatch(s, { type: 'addMessage', tabId, message: createMessage('u1', 'user', 'Turn logging on', NOW, true) });
  dispatch(s, { type: 'addMessage', tabId, message: createMessage('r1', 'assistant', 'Let me. ', NOW, false) });
  dispatch(s, { type: 'pauseForApproval', tabId, messageId: 'r1', approval });
}

beforeEach(() => {
  startSignedIn();
  api = installFakeApi();
  api.route(STREAM, () => sseResponse([sseData({ tool_result: RESULT }), sseData({ content: 'Done.' }), sseData({ usage: { input_tokens: 5, output_tokens: 2, cost_usd: 0 } }), SSE_DONE]));
  s = createSession(ADA.id, { emit: vi.fn(), afterChange: vi.fn() });
  tabId = s.snap.state.activeTabId;
});
afterEach(() => {
  endSession(s);
  vi.unstubAllGlobals();
});

describe('openApproval', () => {
  it('is the reply waiting for an answer', () => {
    expect(openApproval(s, tabId)).toBeUndefined();
    pause();
    expect(openApproval(s, tabId)?.id).toBe('r1');
  });

  it('closes an expired one on the way and gives none', () => {
    pause(inMinutes(-1));
    expect(openApproval(s, tabId)).toBeUndefined();
    expect(reply().complete).toBe(true);
  });
});

describe('answerApproval', () => {
  it('resumes the same reply with the token and the decision; the rest streams into the same message', async () => {
    pause();
    const done = answerApproval(s, tabId, 'r1', 'approve');
    expect(reply().approval?.status).toBe('answered');
    expect(block()).toMatchObject({ state: 'running' });
    expect(s.snap.sending).toEqual({ [tabId]: true });
    await expect(done).resolves.toBe(true);
    expect(streamBodies()).toEqual([{ connection_id: 'conn-1', message: '', model: 'gpt-4o-mini', context: [], approval: { token: 'tok_1', decision: 'approve' } }]);
    expect(reply()).toMatchObject({ content: 'Let me. Done.', complete: true, usage: { input_tokens: 5, output_tokens: 2, cost_usd: 0, demo: true } });
    expect(reply().approval).toBeUndefined(); // spent
    expect(block()).toMatchObject({ state: 'done', result: RESULT.content });
    expect(s.snap.state.conversations[tabId]).toHaveLength(2);
    expect(s.snap.sending).toEqual({});
  });

  it('a pause read back from history (no token kept there) is answered by its id', async () => {
    pause(inMinutes(10), { token: '', id: 'a5b1' });
    await expect(answerApproval(s, tabId, 'r1', 'approve')).resolves.toBe(true);
    expect((streamBodies()[0] as { approval: unknown }).approval).toEqual({ id: 'a5b1', decision: 'approve' });
    expect(reply()).toMatchObject({ content: 'Let me. Done.', complete: true });
  });

  it('a denial marks the call denied while the reply resumes', async () => {
    pause();
    const done = answerApproval(s, tabId, 'r1', 'deny');
    expect(block()).toMatchObject({ state: 'denied' });
    await done;
    expect((streamBodies()[0] as { approval: unknown }).approval).toEqual({ token: 'tok_1', decision: 'deny' });
  });

  it('the reply may pause again for another call', async () => {
    pause();
    const next = { token: 'tok_2', expires_at: inMinutes(10), call: { id: 'call_2', server_id: 'srv', server_name: 'Everything', tool: 'echo', arguments: {}, description: '', annotations: { readOnlyHint: true } } };
    api.route(STREAM, () => sseResponse([sseData({ tool_result: RESULT }), `event: tool_approval\ndata: ${JSON.stringify(next)}\n\n`]));
    await expect(answerApproval(s, tabId, 'r1', 'always')).resolves.toBe(true);
    expect(reply()).toMatchObject({ complete: false, approval: { token: 'tok_2', callId: 'call_2', status: 'pending', readOnly: true, destructive: false } });
  });

  it.each([
    [404, 'This approval is unknown.'],
    [409, 'This approval was already used.'],
  ])('a token the server refuses (%i) ends the reply with its detail on the card, no toast', async (status, detail) => {
    pause();
    api.route(STREAM, () => jsonResponse(status, { detail, code: 'conflict' }));
    await expect(answerApproval(s, tabId, 'r1', 'approve')).resolves.toBe(false);
    expect(reply()).toMatchObject({ complete: true, approval: { status: 'failed', detail } });
    expect(block()).toMatchObject({ state: 'failed', detail });
    expect(toasts()).toEqual([]);
  });

  it('a refusal before the stream started (a limit) leaves the card to try again, and toasts why', async () => {
    pause();
    api.route(STREAM, () => jsonResponse(429, { detail: 'Too many messages this minute; try again in 20 s.' }));
    await expect(answerApproval(s, tabId, 'r1', 'approve')).resolves.toBe(false);
    expect(reply()).toMatchObject({ complete: false, approval: { status: 'pending' } });
    expect(block()).toMatchObject({ state: 'waiting' });
    expect(toasts()).toEqual(['Too many messages this minute; try again in 20 s.']);
    // …and it can be answered again.
    api.route(STREAM, () => sseResponse([sseData({ content: 'Done.' }), SSE_DONE]));
    await expect(answerApproval(s, tabId, 'r1', 'approve')).resolves.toBe(true);
  });

  it('a failure after the rest started ends the reply with what came, and toasts why', async () => {
    pause();
    api.route(STREAM, () => sseResponse([sseData({ tool_result: RESULT }), 'event: error\ndata: {"detail":"Upstream gone"}\n\n']));
    await expect(answerApproval(s, tabId, 'r1', 'approve')).resolves.toBe(false);
    expect(reply()).toMatchObject({ complete: true });
    expect(reply().approval).toBeUndefined();
    expect(block()).toMatchObject({ state: 'done' });
    expect(toasts()).toEqual(['Upstream gone']);
  });

  it('an expired approval is closed instead of sent', async () => {
    pause(inMinutes(-1));
    await expect(answerApproval(s, tabId, 'r1', 'approve')).resolves.toBe(false);
    expect(streamBodies()).toEqual([]);
    expect(reply().complete).toBe(true);
  });

  it('does nothing for a message without a pending approval, or while the tab sends', async () => {
    await expect(answerApproval(s, tabId, 'nope', 'approve')).resolves.toBe(false);
    pause();
    await expect(answerApproval(s, tabId, 'u1', 'approve')).resolves.toBe(false);
    const body = sseStream();
    api.route(STREAM, () => body.response);
    const first = answerApproval(s, tabId, 'r1', 'approve');
    await expect(answerApproval(s, tabId, 'r1', 'approve')).resolves.toBe(false); // answered already
    body.push(sseData({ content: 'ok' }) + SSE_DONE);
    body.end();
    await expect(first).resolves.toBe(true);
    expect(streamBodies()).toHaveLength(1);
  });

  it('the stream given up (tab closing, session over) ends quietly', async () => {
    pause();
    const body = sseStream();
    api.route(STREAM, () => body.response);
    const pending = answerApproval(s, tabId, 'r1', 'approve');
    await vi.waitFor(() => expect(s.streams.get(tabId)?.size).toBe(1));
    for (const c of s.streams.get(tabId)!) c.abort();
    await expect(pending).resolves.toBe(false);
    expect(toasts()).toEqual([]);
    expect(s.streams.size).toBe(0);
  });
});
