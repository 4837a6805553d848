import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeApi, sseData, SSE_DONE, sseResponse, sseStream, type FakeApi } from '../../../test/fake-api';
import { ADA, startSignedIn } from '../../../test/session';
import type { StreamRequest } from '../api/chat-stream';
import type { StreamApproval } from '../api/frames';
import { createMessage } from '../state/chat-state';
import { approvalFrom, setSending, settleReply, streamReply, type ReplyTarget } from './reply';
import { createSession, dispatch, endSession, findMessage, type Session } from './session';

const NOW = '2026-03-07T10:00:00.000Z';
const STREAM = 'POST /api/v1/mcp-connections/message';
const CALL = { id: 'call_1', server_id: 'srv', server_name: 'Everything', tool: 'get-sum', arguments: { a: 2, b: 3 } };
const RESULT = { id: 'call_1', is_error: false, content: [{ type: 'text', text: '5' }], duration_ms: 12 };
const APPROVAL: StreamApproval = {
  token: 'tok_1',
  expires_at: '2026-03-07T10:10:00Z',
  call: { ...CALL, tool: 'toggle', arguments: {}, description: 'Toggles logging.', annotations: { readOnlyHint: false } },
};

let api: FakeApi;
let s: Session;
let target: ReplyTarget;
const request: StreamRequest = { connection_id: 'conn-1', message: 'Hi', model: 'gpt-4o-mini', context: [] };
const reply = () => findMessage(s, target.tabId, target.messageId)!;

beforeEach(() => {
  startSignedIn();
  api = installFakeApi();
  s = createSession(ADA.id, { emit: vi.fn(), afterChange: vi.fn() });
  const tabId = s.snap.state.activeTabId;
  dispatch(s, { type: 'addMessage', tabId, message: createMessage('r1', 'assistant', '', NOW, false) });
  target = { tabId, messageId: 'r1', connectionId: 'conn-1', model: 'gpt-4o-mini', demo: false };
});
afterEach(() => {
  endSession(s);
  vi.unstubAllGlobals();
});

describe('streamReply', () => {
  it('applies text, tool calls, results and notes to the message in stream order, telling `started` each time', async () => {
    api.route(STREAM, () =>
      sseResponse([sseData({ content: 'Let me add. ' }), sseData({ tool_call: CALL }), sseData({ tool_result: RESULT }), sseData({ content: 'It is 5.' }), sseData({ notice: 'Note.' }), SSE_DONE]),
    );
    const started = vi.fn();
    const result = await streamReply(s, target, request, new AbortController().signal, started);
    expect(api.callsTo('POST', '/api/v1/mcp-connections/message').map((c) => c.body)).toEqual([request]);
    expect(result).toEqual({ content: 'Let me add. It is 5.', usage: null, approval: null });
    expect(started).toHaveBeenCalledTimes(5);
    expect(reply().content).toBe('Let me add. It is 5.');
    expect(reply().blocks).toEqual([
      { kind: 'tool', at: 12, id: 'call_1', serverId: 'srv', serverName: 'Everything', tool: 'get-sum', arguments: { a: 2, b: 3 }, state: 'done', durationMs: 12, result: RESULT.content },
      { kind: 'notice', at: 20, text: 'Note.' },
    ]);
    expect(reply().complete).toBe(false); // settling is settleReply's
  });

  it('rejects as the stream does; what arrived before stays', async () => {
    api.route(STREAM, () => sseResponse([sseData({ content: 'partial' }), 'event: error\ndata: {"detail":"Stream timeout"}\n\n']));
    await expect(streamReply(s, target, request, new AbortController().signal, vi.fn())).rejects.toThrow('Stream timeout');
    expect(reply().content).toBe('partial');
  });

  it('stops when its signal aborts, and gives the body up', async () => {
    const body = sseStream();
    api.route(STREAM, () => body.response);
    body.push(sseData({ content: 'a' }));
    const controller = new AbortController();
    const promise = streamReply(s, target, request, controller.signal, () => controller.abort());
    await expect(promise).rejects.toMatchObject({ name: 'AbortError' });
    expect(reply().content).toBe('a');
    await vi.waitFor(() => expect(body.cancelled).toBe(true));
  });
});

describe('settleReply', () => {
  it('completes the message with its usage', () => {
    settleReply(s, target, { content: '', usage: { input_tokens: 412, output_tokens: 1093, cost_usd: 0.0021 }, approval: null });
    expect(reply()).toMatchObject({ complete: true, usage: { input_tokens: 412, output_tokens: 1093, cost_usd: 0.0021 } });
  });

  it('counts the usage as demo (no cost) when the connection or the frame says demo', () => {
    settleReply(s, { ...target, demo: true }, { content: '', usage: { input_tokens: 1, output_tokens: 2, cost_usd: 0.5 }, approval: null });
    expect(reply().usage).toEqual({ input_tokens: 1, output_tokens: 2, cost_usd: 0, demo: true });
  });

  it('a usage frame marked demo is demo on a real connection too', () => {
    settleReply(s, target, { content: '', usage: { input_tokens: 1, output_tokens: 2, cost_usd: 0.5, demo: true }, approval: null });
    expect(reply().usage).toEqual({ input_tokens: 1, output_tokens: 2, cost_usd: 0, demo: true });
  });

  it('completes without usage when the stream sent none', () => {
    settleReply(s, target, { content: '', usage: null, approval: null });
    expect(reply().complete).toBe(true);
    expect(reply().usage).toBeUndefined();
  });

  it('a pause keeps the message open with its approval and the call waiting', () => {
    settleReply(s, target, { content: '', usage: null, approval: APPROVAL });
    expect(reply().complete).toBe(false);
    expect(reply().approval).toEqual(approvalFrom(APPROVAL, target));
    expect(reply().blocks).toEqual([expect.objectContaining({ kind: 'tool', id: 'call_1', tool: 'toggle', state: 'waiting' })]);
  });
});

describe('approvalFrom', () => {
  it('keeps what the card shows and what the resume must send', () => {
    expect(approvalFrom(APPROVAL, { ...target, demo: true })).toEqual({
      token: 'tok_1',
      expiresAt: '2026-03-07T10:10:00Z',
      callId: 'call_1',
      serverId: 'srv',
      serverName: 'Everything',
      tool: 'toggle',
      arguments: {},
      description: 'Toggles logging.',
      readOnly: false,
      destructive: true, // no destructiveHint on a tool that is not read-only
      connectionId: 'conn-1',
      model: 'gpt-4o-mini',
      demo: true,
      status: 'pending',
    });
  });

  it("reads the tool's hints: read-only is not destructive; an explicit hint wins", () => {
    const withHints = (annotations: StreamApproval['call']['annotations']) => approvalFrom({ ...APPROVAL, call: { ...APPROVAL.call, annotations } }, target);
    expect(withHints({ readOnlyHint: true })).toMatchObject({ readOnly: true, destructive: false });
    expect(withHints({ readOnlyHint: false, destructiveHint: false })).toMatchObject({ readOnly: false, destructive: false });
  });
});

describe('setSending', () => {
  it('marks a tab as sending and clears it; a repeat changes nothing', () => {
    setSending(s, 't1', true);
    expect(s.snap.sending).toEqual({ t1: true });
    const snap = s.snap;
    setSending(s, 't1', true);
    expect(s.snap).toBe(snap);
    setSending(s, 't2', true);
    setSending(s, 't1', false);
    expect(s.snap.sending).toEqual({ t2: true });
  });
});
