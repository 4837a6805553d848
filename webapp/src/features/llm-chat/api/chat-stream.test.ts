import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getAuthState, resetAuthForTests } from '../../../lib/auth-session';
import { installFakeApi, type FakeApi } from '../../../test/fake-api';
import { startSignedIn } from '../../../test/session';
import { APPROVAL, CALL, frame, RESULT } from '../test-fixtures';
import { createSseParser, httpErrorMessage, isAbortError, reattachReply, streamChatMessage, type StreamRequest } from './chat-stream';
import { StreamError, type SseEvent } from './frames';

const enc = new TextEncoder();
const REQUEST: StreamRequest = { connection_id: 'c1', message: 'Hi', model: 'gpt-4o-mini', context: [{ role: 'user', content: 'before' }] };

/** A streaming body that delivers the given chunks (strings or raw bytes), then ends unless `open`. */
function sseResponse(chunks: (string | Uint8Array)[], { open = false, status = 200 } = {}): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === 'string' ? enc.encode(chunk) : chunk);
      if (!open) controller.close();
    },
  });
  return new Response(body, { status, headers: { 'Content-Type': 'text/event-stream' } });
}

const STREAM = 'POST /api/v1/mcp-connections/message';
let api: FakeApi;
/** What the message stream answers. */
function answer(response: Response | (() => Response | Promise<Response>)) {
  api.route(STREAM, async () => (typeof response === 'function' ? response() : response));
}

/**
 * Streams REQUEST from a body the test writes to (push) and ends (close);
 * settled() is undefined while the stream runs, then null or its error.
 */
function streamOpen(stallMs: number) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  answer(new Response(new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) })));
  let outcome: Error | null | undefined;
  const promise = streamChatMessage(REQUEST, { stallMs }).then(
    (r) => ((outcome = null), r),
    (e: Error) => (outcome = e),
  );
  return {
    push: (text: string) => controller.enqueue(enc.encode(text)),
    close: () => controller.close(),
    promise,
    settled: () => outcome,
  };
}

beforeEach(() => {
  api = installFakeApi();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  resetAuthForTests();
});

async function run(options: Parameters<typeof streamChatMessage>[1] = {}) {
  const chunks: string[] = [];
  const result = await streamChatMessage(REQUEST, { ...options, onContent: (c) => chunks.push(c) });
  return { ...result, chunks };
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}

describe('createSseParser', () => {
  const collect = (pieces: string[], end = true) => {
    const events: SseEvent[] = [];
    const parser = createSseParser((e) => events.push(e));
    for (const p of pieces) parser.push(p);
    if (end) parser.end();
    return events;
  };

  it('emits one event per blank-line-terminated frame', () => {
    expect(collect(['data: a\n\ndata: b\n\n'])).toEqual([
      { event: 'message', data: 'a' },
      { event: 'message', data: 'b' },
    ]);
  });

  it('reassembles frames split anywhere across chunks, CRLF included', () => {
    const text = 'data: {"content":"Hel"}\r\n\r\ndata: {"content":"lo"}\n\nevent: error\ndata: {"detail":"x"}\n\n';
    for (let cut = 1; cut < text.length; cut++) {
      expect(collect([text.slice(0, cut), text.slice(cut)])).toEqual([
        { event: 'message', data: '{"content":"Hel"}' },
        { event: 'message', data: '{"content":"lo"}' },
        { event: 'error', data: '{"detail":"x"}' },
      ]);
    }
  });

  it('joins multi-line data, strips one leading space, ignores comments and other fields', () => {
    expect(collect([': ping\nid: 1\ndata:  two spaces\ndata:x\n\n'])).toEqual([{ event: 'message', data: ' two spaces\nx' }]);
  });

  it('emits an unterminated last frame at the end only', () => {
    expect(collect(['data: tail'], false)).toEqual([]);
    expect(collect(['data: tail'])).toEqual([{ event: 'message', data: 'tail' }]);
  });

  it('emits an error event even without data, and skips empty non-error frames', () => {
    expect(collect(['event: error\n\nevent: ping\n\n'])).toEqual([{ event: 'error', data: '' }]);
  });
});

describe('streamChatMessage', () => {
  it('posts the request with the bearer token and streams content in order', async () => {
    const token = startSignedIn();
    answer(
      sseResponse(['data: {"content":"Hel', 'lo"}\n\ndata: {"content":", wor', 'ld"}\n', '\ndata: {"usage":{"input_tokens":1,"output_tokens":2,"cost_usd":0}}\n\ndata: [DONE]\n\n']),
    );
    const got = await run();
    expect(got.chunks).toEqual(['Hello', ', world']);
    expect(got.content).toBe('Hello, world');
    expect(got.usage).toEqual({ input_tokens: 1, output_tokens: 2, cost_usd: 0 });
    const [call] = api.calls;
    expect(call.path + call.search).toBe('/api/v1/mcp-connections/message');
    expect(call.method).toBe('POST');
    expect(call.body).toEqual(REQUEST);
    expect(call.auth).toBe(`Bearer ${token}`);
  });

  it('decodes multi-byte characters split across chunks', async () => {
    const bytes = enc.encode('data: {"content":"héllo ✓"}\n\ndata: [DONE]\n\n');
    const cut = bytes.indexOf(0xc3) + 1;
    answer(sseResponse([bytes.slice(0, cut), bytes.slice(cut)]));
    expect((await run()).content).toBe('héllo ✓');
  });

  it('appends plain-text data lines as content', async () => {
    answer(sseResponse(['data: plain\n\ndata: {"content":" json"}\n\ndata: [DONE]\n\n']));
    expect((await run()).content).toBe('plain json');
  });

  it('stops at [DONE] and ignores anything after it', async () => {
    answer(sseResponse(['data: {"content":"a"}\n\ndata: [DONE]\n\ndata: {"content":"b"}\n\n'], { open: true }));
    expect((await streamChatMessage(REQUEST, { drainMs: 20 })).content).toBe('a');
  });

  it('reads the usage frame before [DONE]', async () => {
    answer(sseResponse(['data: {"content":"a"}\n\ndata: {"usage":{"input_tokens":412,"output_tokens":1093,"cost_usd":0.0021}}\n\ndata: [DONE]\n\n']));
    expect(await run()).toMatchObject({ content: 'a', usage: { input_tokens: 412, output_tokens: 1093, cost_usd: 0.0021 } });
  });

  /**
   * A body that records whether the reader cancelled it. With closeWhenDrained
   * it ends when the reader, having read every frame, asks for more (the
   * stream's second pull: the first comes as the frames are taken), as a
   * server closing right after [DONE] does; otherwise it stays open.
   */
  function watchedBody(frames: string[], { closeWhenDrained = false } = {}) {
    const seen = { cancelled: false };
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const f of frames) c.enqueue(enc.encode(f));
      },
      pull(c) {
        pulls += 1;
        if (closeWhenDrained && pulls === 2) c.close();
      },
      cancel() {
        seen.cancelled = true;
      },
    });
    return { response: new Response(body, { status: 200 }), seen };
  }

  it('after [DONE] reads the body to its end instead of cancelling it (no aborted request)', async () => {
    const { response, seen } = watchedBody(['data: {"content":"a"}\n\ndata: [DONE]\n\n'], { closeWhenDrained: true });
    answer(response);
    expect((await streamChatMessage(REQUEST)).content).toBe('a');
    expect(seen.cancelled).toBe(false);
    expect(response.bodyUsed).toBe(true);
    expect(response.body?.locked).toBe(false); // the reader let go of it
  });

  it('cancels a body that stays open after [DONE] once the drain time is up', async () => {
    const { response, seen } = watchedBody(['data: {"content":"a"}\n\ndata: [DONE]\n\n']);
    answer(response);
    expect((await streamChatMessage(REQUEST, { drainMs: 20 })).content).toBe('a');
    expect(seen.cancelled).toBe(true);
  });

  it('resolves when the body ends without [DONE]', async () => {
    answer(sseResponse(['data: {"content":"a"}\n\ndata: {"content":"b"}']));
    expect((await run()).content).toBe('ab');
  });

  it('rejects with the error event detail', async () => {
    answer(sseResponse(['data: {"content":"partial"}\n\nevent: error\ndata: {"detail":"Stream timeout"}\n\n']));
    const err = await failure(run());
    expect(err).toBeInstanceOf(StreamError);
    expect(err.message).toBe('Stream timeout');
  });

  it('rejects with Stream error occurred when the error event has no detail', async () => {
    answer(sseResponse(['event: error\ndata: {}\n\n']));
    expect((await failure(run())).message).toBe('Stream error occurred');
  });

  it('rejects a non-OK answer with its status and the JSON body\'s detail', async () => {
    answer(new Response('{"detail":"Message is required","code":"invalid"}', { status: 400 }));
    const err = await failure(run());
    expect(err.message).toBe('HTTP error! status: 400, message: Message is required');
    expect((err as StreamError).status).toBe(400);
  });

  it('rejects a non-OK answer that is not JSON with its body text', async () => {
    answer(new Response('upstream exploded', { status: 502 }));
    expect((await failure(run())).message).toBe('HTTP error! status: 502, message: upstream exploded');
  });

  it('shows a 429 detail as is', async () => {
    const detail = "You have used today's chat allowance of 200,000 tokens; it resets at 00:00 UTC.";
    answer(new Response(JSON.stringify({ detail, code: 'rate_limited' }), { status: 429, headers: { 'Retry-After': '3600' } }));
    const err = await failure(run());
    expect(err.message).toBe(detail);
    expect((err as StreamError).status).toBe(429);
  });

  it('clears the session on a 401', async () => {
    startSignedIn();
    answer(new Response('{"detail":"Not authenticated"}', { status: 401 }));
    expect((await failure(run())).message).toBe('HTTP error! status: 401, message: Not authenticated');
    expect(getAuthState().status).toBe('unauthenticated');
  });

  it('rejects with No response body', async () => {
    answer(new Response(null, { status: 200 }));
    expect((await failure(run())).message).toBe('No response body');
  });

  it('times out with Stream timeout after 30 s without data, not before', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    answer(sseResponse(['data: {"content":"a"}\n\n'], { open: true }));
    const chunks: string[] = [];
    let settled: Error | null | undefined;
    streamChatMessage(REQUEST, { onContent: (c) => chunks.push(c) }).then(
      () => (settled = null),
      (e: Error) => (settled = e),
    );
    await vi.advanceTimersByTimeAsync(29_999);
    expect(chunks).toEqual(['a']);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBeInstanceOf(StreamError);
    expect(settled?.message).toBe('Stream timeout');
  });

  it('restarts the stall clock on every chunk', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { push, close, promise, settled } = streamOpen(1000);
    for (let i = 0; i < 5; i++) {
      await vi.advanceTimersByTimeAsync(900);
      push(`data: {"content":"${i}"}\n\n`);
    }
    await vi.advanceTimersByTimeAsync(900);
    expect(settled()).toBeUndefined();
    push('data: [DONE]\n\n');
    close();
    await vi.advanceTimersByTimeAsync(0);
    expect(await promise).toMatchObject({ content: '01234' });
  });

  it('times out a request that never answers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    api.route(STREAM, () => new Promise<Response>(() => undefined));
    let settled: Error | undefined;
    streamChatMessage(REQUEST, { stallMs: 500 }).catch((e: Error) => (settled = e));
    await vi.advanceTimersByTimeAsync(500);
    expect(settled?.message).toBe('Stream timeout');
  });

  it('rejects with an AbortError when the caller aborts, and aborts the fetch', async () => {
    answer(sseResponse(['data: {"content":"a"}\n\n'], { open: true }));
    const controller = new AbortController();
    const promise = streamChatMessage(REQUEST, { signal: controller.signal, onContent: () => controller.abort() });
    const err = await failure(promise);
    expect(isAbortError(err)).toBe(true);
    expect(api.calls[0].signal?.aborted).toBe(true);
  });

  it('passes a network failure on', async () => {
    api.route(STREAM, () => {
      throw new TypeError('Failed to fetch');
    });
    expect((await failure(run())).message).toBe('Failed to fetch');
  });
});

describe('httpErrorMessage', () => {
  it.each([
    [500, '{"detail":"boom","code":"internal"}', 'HTTP error! status: 500, message: boom'],
    [500, '{"detail":"  "}', 'HTTP error! status: 500, message: {"detail":"  "}'],
    [500, '{"message":"x"}', 'HTTP error! status: 500, message: {"message":"x"}'],
    [502, 'Bad gateway', 'HTTP error! status: 502, message: Bad gateway'],
    [503, '', 'HTTP error! status: 503, message: '],
    [429, '{"detail":"Too many messages this minute; try again in 20 s."}', 'Too many messages this minute; try again in 20 s.'],
    [429, 'slow down', 'HTTP error! status: 429, message: slow down'],
  ])('%i %s', (status, body, want) => expect(httpErrorMessage(status, body)).toBe(want));
});

// ------------------------------------------------------- MCP tool frames

describe('streamChatMessage: tools', () => {
  it('sends the tool fields and reports calls, results and notices in stream order', async () => {
    answer(
      sseResponse([
        frame({ content: 'Calling. ' }),
        ': tool running\n\n',
        frame({ tool_call: CALL }),
        ': tool running\n\n',
        frame({ tool_result: RESULT }),
        frame({ content: 'It is 5.' }),
        frame({ notice: 'Note.' }),
        frame({ usage: { input_tokens: 10, output_tokens: 4, cost_usd: 0, demo: true } }),
        'data: [DONE]\n\n',
      ]),
    );
    const seen: string[] = [];
    const request: StreamRequest = { ...REQUEST, mcp_connection_ids: ['conn_a'], confirm_read_only: true };
    const result = await streamChatMessage(request, {
      onContent: (c) => seen.push(`content:${c}`),
      onToolCall: (c) => seen.push(`call:${c.tool}`),
      onToolResult: (r) => seen.push(`result:${r.id}`),
      onNotice: (n) => seen.push(`notice:${n}`),
    });
    expect(seen).toEqual(['content:Calling. ', 'call:get-sum', 'result:call_1', 'content:It is 5.', 'notice:Note.']);
    expect(result).toEqual({ content: 'Calling. It is 5.', usage: { input_tokens: 10, output_tokens: 4, cost_usd: 0, demo: true }, approval: null });
    expect(api.calls[0].body).toEqual(request);
  });

  it('a tool_approval ending the stream without [DONE] is a pause, not an error', async () => {
    const { response, seen } = (() => {
      const state = { cancelled: false };
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(enc.encode(frame({ content: 'Let me check.' }) + frame({ tool_call: APPROVAL.call })));
          c.enqueue(enc.encode(`event: tool_approval\ndata: ${JSON.stringify(APPROVAL)}\n\n`));
          c.close();
        },
        cancel() {
          state.cancelled = true;
        },
      });
      return { response: new Response(body, { status: 200 }), seen: state };
    })();
    answer(response);
    const calls: string[] = [];
    const result = await streamChatMessage(REQUEST, { onToolCall: (c) => calls.push(c.id) });
    expect(result).toEqual({ content: 'Let me check.', usage: null, approval: APPROVAL });
    expect(calls).toEqual(['call_1']);
    expect(seen.cancelled).toBe(false); // read to its end, not cut off
  });

  it('posts an approval to resume and streams the rest of the reply', async () => {
    answer(sseResponse([frame({ tool_result: { ...RESULT, id: 'call_1' } }), frame({ content: 'Done.' }), 'data: [DONE]\n\n']));
    const request: StreamRequest = { connection_id: 'c1', message: '', model: 'gpt-4o-mini', context: [], approval: { token: 'tok_1', decision: 'approve' } };
    const results: string[] = [];
    const got = await streamChatMessage(request, { onToolResult: (r) => results.push(r.id) });
    expect(got.content).toBe('Done.');
    expect(results).toEqual(['call_1']);
    expect(api.calls[0].body).toEqual(request);
  });

  it('a refused approval (409) carries the server detail on its own', async () => {
    answer(new Response('{"detail":"This approval was already used.","code":"conflict"}', { status: 409 }));
    const err = (await failure(run())) as StreamError;
    expect(err.status).toBe(409);
    expect(err.detail).toBe('This approval was already used.');
    expect(err.message).toBe('HTTP error! status: 409, message: This approval was already used.');
  });

  it('keep-alive comments while a tool runs restart the stall clock', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { push, close, promise, settled } = streamOpen(1000);
    push(frame({ tool_call: CALL }));
    for (let i = 0; i < 4; i++) {
      await vi.advanceTimersByTimeAsync(900);
      push(': tool running\n\n');
    }
    await vi.advanceTimersByTimeAsync(900);
    expect(settled()).toBeUndefined();
    push(frame({ tool_result: RESULT }) + 'data: [DONE]\n\n');
    close();
    await vi.advanceTimersByTimeAsync(0);
    expect(await promise).toMatchObject({ content: '', approval: null });
  });
});

describe('conversations kept with the account', () => {
  it('sends conversation_id and reports the message_ids frame before the reply', async () => {
    answer(sseResponse([`data: ${JSON.stringify({ message_ids: { user: 'mU', assistant: 'mA' } })}\n\n`, 'data: {"content":"Hi"}\n\n', 'data: [DONE]\n\n']));
    const order: string[] = [];
    const result = await streamChatMessage(
      { ...REQUEST, conversation_id: 'c9' },
      { onMessageIds: (ids) => order.push(`ids ${ids.user} ${ids.assistant}`), onContent: (c) => order.push(`content ${c}`) },
    );
    expect(api.callsTo('POST', '/api/v1/mcp-connections/message')[0].body).toEqual({ ...REQUEST, conversation_id: 'c9' });
    expect(order).toEqual(['ids mU mA', 'content Hi']);
    expect(result.content).toBe('Hi');
  });

  it('reattachReply GETs the reply again with the bearer token and reads it as a stream (comments first)', async () => {
    startSignedIn();
    api.route('GET /api/v1/chat/conversations/c%201/messages/m1/stream', () =>
      sseResponse([': generating\n\n', 'data: {"content":"Once"}\n\n', 'data: {"usage":{"input_tokens":1,"output_tokens":2,"cost_usd":0}}\n\n', 'data: [DONE]\n\n']),
    );
    const chunks: string[] = [];
    const result = await reattachReply('c 1', 'm1', { onContent: (c) => chunks.push(c) });
    expect(chunks).toEqual(['Once']);
    expect(result).toEqual({ content: 'Once', usage: { input_tokens: 1, output_tokens: 2, cost_usd: 0 }, approval: null });
    const [call] = api.calls;
    expect(call.method).toBe('GET');
    expect(call.auth).toMatch(/^Bearer /);
    expect(call.headers.Accept).toBe('text/event-stream');
    resetAuthForTests();
  });

  it('reattachReply rejects as the stream does: a 404 with its detail, an error event', async () => {
    api.route('GET /api/v1/chat/conversations/c1/messages/m1/stream', () => new Response(JSON.stringify({ detail: 'Message not found.' }), { status: 404 }));
    await expect(reattachReply('c1', 'm1')).rejects.toMatchObject({ status: 404, detail: 'Message not found.' });
    api.route('GET /api/v1/chat/conversations/c1/messages/m1/stream', () => sseResponse(['event: error\ndata: {"detail":"This conversation was deleted."}\n\n']));
    await expect(reattachReply('c1', 'm1')).rejects.toThrow('This conversation was deleted.');
  });
});
