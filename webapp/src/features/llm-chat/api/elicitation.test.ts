// A server's question (event: elicitation) and a running call's progress
// and log frames, as the stream carries them: the two ways a question comes
// (the stream ends after it: a pause; the stream stays open: it goes on),
// and the answer's two kinds of response (a resumed stream, or a JSON ack).

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeApi, sseData, sseResponse, sseStream, SSE_DONE, type FakeApi } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { CALL, RESULT } from '../test-fixtures';
import { answerElicitation, streamChatMessage, type StreamRequest } from './chat-stream';
import { interpretEvent, readElicitation, StreamError, type StreamElicitation } from './frames';

const REQUEST: StreamRequest = { connection_id: 'c1', message: 'Hi', model: 'gpt-4o-mini', context: [] };
const STREAM = 'POST /api/v1/mcp-connections/message';
const SCHEMA = { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] };
const QUESTION = { token: 'el_1', id: 'hash_1', mode: 'form', message: 'Who are you?', requested_schema: SCHEMA, expires_at: '2026-03-07T10:10:00Z', call: CALL };
const asked = (v: unknown = QUESTION) => `event: elicitation\ndata: ${JSON.stringify(v)}\n\n`;

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('reading the frames', () => {
  it('an elicitation event is a question with its call; form or url, by token or by id', () => {
    const { elicitation } = interpretEvent({ event: 'elicitation', data: JSON.stringify(QUESTION) });
    expect(elicitation).toEqual({
      token: 'el_1',
      id: 'hash_1',
      mode: 'form',
      message: 'Who are you?',
      requested_schema: SCHEMA,
      expires_at: '2026-03-07T10:10:00Z',
      call: CALL,
    } satisfies StreamElicitation);
    const url = readElicitation(JSON.stringify({ id: 'hash_2', mode: 'url', message: 'Pay', url: 'https://pay.example.com/x', elicitation_id: 'e-9', expires_at: '', call: CALL }));
    expect(url).toMatchObject({ token: '', id: 'hash_2', mode: 'url', url: 'https://pay.example.com/x', elicitation_id: 'e-9' });
    // Not a question: no token or id, no call, a URL question without its URL, an unknown mode.
    expect(readElicitation(JSON.stringify({ ...QUESTION, token: '', id: '' }))).toBeNull();
    expect(readElicitation(JSON.stringify({ ...QUESTION, call: null }))).toBeNull();
    expect(readElicitation(JSON.stringify({ ...QUESTION, mode: 'url' }))).toBeNull();
    expect(readElicitation(JSON.stringify({ ...QUESTION, mode: 'voice' }))).toBeNull();
    expect(() => interpretEvent({ event: 'elicitation', data: '{}' })).toThrow(StreamError);
  });

  it('tool_progress and tool_log frames name their call', () => {
    expect(interpretEvent({ event: 'message', data: JSON.stringify({ tool_progress: { id: 'call_1', progress: 2, total: 5, message: 'Step 2' } }) }).toolProgress).toEqual({
      id: 'call_1',
      progress: 2,
      total: 5,
      message: 'Step 2',
    });
    // No total (or a useless one): the bar cannot show a share.
    expect(interpretEvent({ event: 'message', data: JSON.stringify({ tool_progress: { id: 'call_1', progress: 7, total: 0 } }) }).toolProgress).toEqual({ id: 'call_1', progress: 7 });
    expect(interpretEvent({ event: 'message', data: JSON.stringify({ tool_progress: { id: 'call_1' } }) }).toolProgress).toBeUndefined();
    expect(interpretEvent({ event: 'message', data: JSON.stringify({ tool_log: { id: 'call_1', level: 'warning', data: { disk: '90%' } } }) }).toolLog).toEqual({
      id: 'call_1',
      level: 'warning',
      data: { disk: '90%' },
    });
    expect(interpretEvent({ event: 'message', data: JSON.stringify({ tool_log: { id: 'call_1', data: 'hi' } }) }).toolLog).toEqual({ id: 'call_1', level: 'info', data: 'hi' });
  });
});

describe('the stream', () => {
  it('a stream that ends right after a question (no [DONE]) is paused for it', async () => {
    api.route(STREAM, () => sseResponse([sseData({ tool_call: CALL }), asked()]));
    const onElicitation = vi.fn();
    const result = await streamChatMessage(REQUEST, { onElicitation });
    expect(onElicitation).toHaveBeenCalledWith(expect.objectContaining({ token: 'el_1', mode: 'form' }));
    expect(result.elicitation).toMatchObject({ token: 'el_1', call: CALL });
    expect(result.approval).toBeNull();
  });

  it('a question asked while the stream stays open: the stream goes on to its end, and nothing is paused', async () => {
    const stream = sseStream();
    api.route(STREAM, () => stream.response);
    const seen: string[] = [];
    const promise = streamChatMessage(REQUEST, {
      onToolCall: () => seen.push('call'),
      onElicitation: () => seen.push('asked'),
      onToolProgress: (p) => seen.push(`progress ${p.progress}/${p.total}`),
      onToolLog: (l) => seen.push(`log ${l.level}`),
      onToolResult: () => seen.push('result'),
      onContent: (c) => seen.push(c),
    });
    stream.push(sseData({ tool_call: CALL }));
    stream.push(sseData({ tool_progress: { id: 'call_1', progress: 1, total: 2 } }));
    stream.push(asked());
    await vi.waitFor(() => expect(seen).toContain('asked'));
    stream.push(': waiting for the user\n\n');
    stream.push(sseData({ tool_log: { id: 'call_1', level: 'info', data: 'answered' } }));
    stream.push(sseData({ tool_result: RESULT }));
    stream.push(sseData({ content: 'Thanks, Lin.' }));
    stream.push(SSE_DONE);
    stream.end();
    const result = await promise;
    expect(seen).toEqual(['call', 'progress 1/2', 'asked', 'log info', 'result', 'Thanks, Lin.']);
    expect(result.elicitation).toBeUndefined();
    expect(result.content).toBe('Thanks, Lin.');
  });

  it('a stream that ends without [DONE] after more frames than the question is not a pause', async () => {
    api.route(STREAM, () => sseResponse([asked(), sseData({ tool_result: RESULT })]));
    expect((await streamChatMessage(REQUEST)).elicitation).toBeUndefined();
  });
});

describe('the answer', () => {
  const ANSWER: StreamRequest = { ...REQUEST, message: '', elicitation: { token: 'el_1', action: 'accept', content: { name: 'Lin' } } };

  it('answered with a JSON ack (the reply streams on elsewhere): acknowledged, nothing read as a reply', async () => {
    api.route(STREAM, () => jsonResponse(202, { accepted: true }));
    const onContent = vi.fn();
    const result = await answerElicitation(ANSWER, { onContent });
    expect(result).toEqual({ content: '', usage: null, approval: null, acknowledged: true });
    expect(onContent).not.toHaveBeenCalled();
    expect(api.callsTo('POST', '/api/v1/mcp-connections/message')[0].body).toEqual(ANSWER);
  });

  it('answered with a stream (the reply was paused): the rest of the reply', async () => {
    api.route(STREAM, () => sseResponse([sseData({ tool_result: RESULT }), sseData({ content: 'Done.' }), SSE_DONE]));
    const result = await answerElicitation(ANSWER);
    expect(result.acknowledged).toBeUndefined();
    expect(result.content).toBe('Done.');
  });

  it('a replayed or expired token (409) and an unknown one (404) reject with their status', async () => {
    api.route(STREAM, () => jsonResponse(409, { detail: 'This question was already answered.' }));
    await expect(answerElicitation(ANSWER)).rejects.toMatchObject({ status: 409 });
    api.route(STREAM, () => jsonResponse(404, { detail: 'Not found.' }));
    await expect(answerElicitation(ANSWER)).rejects.toMatchObject({ status: 404 });
  });
});
