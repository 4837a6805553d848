// A small stand-in for the backend in page tests: handlers keyed by
// "METHOD /api/v1/path" (query string excluded) and a log of every call.
// Unknown routes answer 404 like the real API. A handler that throws is a
// network failure (fetch rejects); one that never settles is a server that
// never answers (it gets the request's signal, to reject when aborted).
// sseResponse/sseStream build the chat's event-stream answers.

import { vi } from 'vitest';
import { jsonResponse } from './jwt-fixtures';

export interface FakeRequest {
  url: URL;
  /** Parsed JSON body (a body that is not JSON as it came), or undefined. */
  body: unknown;
  headers: Record<string, string>;
  /** The request's AbortSignal, if it had one. */
  signal: AbortSignal | null;
}

export type FakeHandler = (req: FakeRequest) => Response | Promise<Response>;

export interface FakeCall {
  method: string;
  path: string;
  search: string;
  body: unknown;
  /** The Authorization header, or null. */
  auth: string | null;
  headers: Record<string, string>;
  signal: AbortSignal | null;
  /** The page's address when the call was made (what a Referer would carry). */
  href: string;
}

export interface FakeApi {
  /** Set (or replace) the handler for "METHOD path". */
  route(key: string, handler: FakeHandler): void;
  /** The handler set for "METHOD path" (to wrap it). */
  handlerFor(key: string): FakeHandler | undefined;
  calls: FakeCall[];
  /** Calls matching a method and path. */
  callsTo(method: string, path: string): FakeCall[];
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Stubs global fetch with a route table; undo with vi.unstubAllGlobals(). */
export function installFakeApi(): FakeApi {
  const routes: Record<string, FakeHandler> = {};
  const calls: FakeCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? parseBody(init.body) : undefined;
      const headers = (init.headers ?? {}) as Record<string, string>;
      const signal = init.signal ?? null;
      calls.push({ method, path: url.pathname, search: url.search, body, auth: headers.Authorization ?? null, headers, signal, href: window.location.href });
      const handler = routes[`${method} ${url.pathname}`];
      return handler ? handler({ url, body, headers, signal }) : jsonResponse(404, { detail: 'Not found', code: 'not_found' });
    }),
  );
  return {
    route: (key, handler) => {
      routes[key] = handler;
    },
    handlerFor: (key) => routes[key],
    calls,
    callsTo: (method, path) => calls.filter((c) => c.method === method && c.path === path),
  };
}

/** A sign-in failure's detail as GET /api/v1/mcp-oauth/errors/{id} answers it. */
export interface FakeSignInFailure {
  code: string;
  server_id: string;
  detail: string;
}

/**
 * GET /api/v1/mcp-oauth/errors/{id} on `api`: the failures given, by id, to
 * a signed-in caller (401 otherwise); any other id is 404 like the API's
 * answer for another user's, an expired or a made-up id.
 */
export function fakeSignInFailures(api: FakeApi, failures: Record<string, FakeSignInFailure>): void {
  for (const [id, failure] of Object.entries(failures)) {
    api.route(`GET /api/v1/mcp-oauth/errors/${id}`, ({ headers }) =>
      headers.Authorization ? jsonResponse(200, failure) : jsonResponse(401, { detail: 'Not authenticated', code: 'unauthorized' }),
    );
  }
}

/** POST /api/v1/mcp-connections/openai on `api`: the local demo model connects as `id`, on the model asked for. */
export function fakeDemoConnect(api: FakeApi, id = 'chat-conn'): void {
  api.route('POST /api/v1/mcp-connections/openai', (req) =>
    jsonResponse(200, { id, server_name: 'OpenAI GPT (local demo)', model: (req.body as { model: string }).model, demo: true }),
  );
}

/** A promise plus its resolver, to hold an answer until the test releases it. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const enc = new TextEncoder();

/** One event-stream data frame carrying `value` as JSON. */
export const sseData = (value: unknown): string => `data: ${JSON.stringify(value)}\n\n`;
export const SSE_DONE = 'data: [DONE]\n\n';

const SSE_INIT: ResponseInit = { status: 200, headers: { 'Content-Type': 'text/event-stream' } };

/** An event-stream answer: the frames as they stand, then the body ends. */
export function sseResponse(frames: string[]): Response {
  return new Response(
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const f of frames) c.enqueue(enc.encode(f));
        c.close();
      },
    }),
    SSE_INIT,
  );
}

/** An event-stream answer the test writes as it goes; `cancelled` turns true when the reader gives it up. */
export function sseStream(): { response: Response; push: (frame: string) => void; end: () => void; readonly cancelled: boolean } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled = false;
  const response = new Response(
    new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
      cancel() {
        cancelled = true;
      },
    }),
    SSE_INIT,
  );
  return {
    response,
    push: (frame) => controller.enqueue(enc.encode(frame)),
    end: () => controller.close(),
    get cancelled() {
      return cancelled;
    },
  };
}

// ---------------------------------------------------------- conversations

/** A conversation as GET /chat/conversations lists it. */
export interface FakeConversation {
  id: string;
  title: string;
  provider: string;
  model: string;
  created_at: string;
  updated_at: string;
  archived: boolean;
  message_count: number;
  /** The marketplace agent it runs as (absent: none; the real server sends null). */
  agent?: { id: string; name: string };
}

/** A message as GET /chat/conversations/{id}/messages answers it. */
export interface FakeStoredMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  created_at: string;
  complete: boolean;
  error?: string;
  usage?: { input_tokens: number; output_tokens: number; cost_usd: number; demo?: boolean };
  blocks?: { at: number; frame: Record<string, unknown> }[];
  truncated?: boolean;
  stopped?: boolean;
}

export interface FakeConversations {
  /** Every conversation, open and archived. */
  readonly all: FakeConversation[];
  /** Conversation id → its messages in order. */
  readonly messages: Record<string, FakeStoredMessage[]>;
  /** [conversation id, message id] of each Stop asked for. */
  readonly stops: [string, string][];
  /** A conversation the server already has (with its messages), as if made elsewhere. */
  seed(input: Partial<Omit<FakeConversation, 'message_count'>> & { messages?: Partial<FakeStoredMessage>[] }): FakeConversation;
  /** Stores a message and its empty reply as a message with conversation_id does; null for an unknown conversation. */
  keep(conversationId: string, text: string): { user: string; assistant: string } | null;
  /**
   * What the real server does around a chat stream sent with
   * conversation_id: 404 for an unknown conversation; otherwise the
   * message and its reply are stored, the stream opens with message_ids,
   * and its frames are saved into the reply as they pass (content, tool
   * frames, usage, the end or an error). A refusal (non-OK) passes as is.
   */
  keepStream(body: unknown, response: Response | Promise<Response>): Promise<Response>;
  /** The open ones, newest first, as the chat's tabs should show them. */
  open(): FakeConversation[];
  /** Agents a conversation may be made for (POST with agent_id), by id: an unknown one is 404. */
  readonly agents: Record<string, { name: string; provider: string; model: string }>;
  /**
   * Makes this the account the list and create routes answer for (a test
   * switching between accounts keeps one fake each: the server of the
   * fake is one account's; the token does not tell them apart).
   */
  use(): void;
}

/** `data: {"message_ids":…}`: the frame a kept message's stream opens with. */
export const sseMessageIds = (ids: { user: string; assistant: string }): string => sseData({ message_ids: ids });

/**
 * The conversation routes of the API on `api`, backed by memory: list
 * (archived, q on title and text, limit, cursor), create, patch, delete,
 * messages, stop, and re-attach (the stored reply replayed). Routes for an
 * id are added when it comes to exist; a test may replace any of them.
 */
export function fakeConversations(api: FakeApi, providers: Record<string, readonly string[]> = FAKE_PROVIDERS): FakeConversations {
  const all: FakeConversation[] = [];
  const messages: Record<string, FakeStoredMessage[]> = {};
  const stops: [string, string][] = [];
  const uploads = new Map<string, string>();
  const agents: Record<string, { name: string; provider: string; model: string }> = {};
  let n = 0;
  let clock = Date.parse('2026-03-07T10:00:00.000Z');
  const tick = () => new Date((clock += 1000)).toISOString();
  const base = '/api/v1/chat/conversations';
  const newest = (list: FakeConversation[]) => [...list].sort((a, b) => b.updated_at.localeCompare(a.updated_at) || a.id.localeCompare(b.id));
  const notFound = () => jsonResponse(404, { detail: 'Conversation not found.', code: 'not_found' });
  const find = (id: string) => all.find((c) => c.id === id);
  const valid = (provider: unknown, model: unknown) => typeof provider === 'string' && typeof model === 'string' && (providers[provider] ?? []).includes(model);

  const routeMessage = (cid: string, mid: string) => {
    api.route(`POST ${base}/${cid}/messages/${mid}/stop`, () => {
      const m = messages[cid]?.find((x) => x.id === mid);
      if (!m) return jsonResponse(404, { detail: 'Message not found.' });
      stops.push([cid, mid]);
      m.stopped = true;
      return new Response(null, { status: 204 });
    });
    api.route(`GET ${base}/${cid}/messages/${mid}/stream`, () => {
      const m = messages[cid]?.find((x) => x.id === mid);
      if (!m || m.role !== 'assistant') return jsonResponse(404, { detail: 'Message not found.' });
      const frames: string[] = [];
      let sent = 0;
      for (const b of m.blocks ?? []) {
        if (b.at > sent) frames.push(sseData({ content: m.content.slice(sent, b.at) }));
        sent = Math.max(sent, b.at);
        if ('elicitation' in b.frame) {
          // A question asked in its place (one the reply paused on, its last block, ends the replay below).
          const last = b === m.blocks?.[m.blocks.length - 1];
          if (!(m.complete && last)) frames.push(`event: elicitation\ndata: ${JSON.stringify(b.frame.elicitation)}\n\n`);
        } else if (!('tool_approval' in b.frame)) frames.push(sseData(b.frame));
      }
      if (m.content.length > sent) frames.push(sseData({ content: m.content.slice(sent) }));
      const end = m.blocks?.[m.blocks.length - 1]?.frame;
      if (m.error) frames.push(`event: error\ndata: ${JSON.stringify({ detail: m.error })}\n\n`);
      else if (m.complete && end && 'elicitation' in end) {
        // Paused on a question: the event as it was sent, and no [DONE].
        frames.push(`event: elicitation\ndata: ${JSON.stringify(end.elicitation)}\n\n`);
        return sseResponse(frames);
      } else if (m.complete && end && 'tool_signin' in end) {
        return sseResponse(frames); // paused for a sign-in: its frame, replayed, was the end (no [DONE])
      } else if (m.usage) frames.push(sseData({ usage: m.usage }));
      if (!m.error) frames.push(SSE_DONE);
      return sseResponse(frames);
    });
  };

  const routeConversation = (c: FakeConversation) => {
    api.route(`PATCH ${base}/${c.id}`, (req) => {
      const conv = find(c.id);
      if (!conv) return notFound();
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (body.provider !== undefined || body.model !== undefined) {
        const provider = body.provider ?? conv.provider;
        const model = body.model ?? conv.model;
        if (!valid(provider, model)) return jsonResponse(400, { detail: `Unknown model "${String(model)}"`, code: 'invalid' });
        conv.provider = String(provider);
        conv.model = String(model);
      }
      if (typeof body.title === 'string') conv.title = body.title.trim().slice(0, 200) || 'New chat';
      if (typeof body.archived === 'boolean') conv.archived = body.archived;
      conv.updated_at = tick();
      return jsonResponse(200, conv);
    });
    api.route(`DELETE ${base}/${c.id}`, () => {
      const at = all.findIndex((x) => x.id === c.id);
      if (at === -1) return notFound();
      all.splice(at, 1);
      delete messages[c.id];
      return new Response(null, { status: 204 });
    });
    api.route(`GET ${base}/${c.id}/messages`, () => (find(c.id) ? jsonResponse(200, { messages: messages[c.id] ?? [] }) : notFound()));
  };

  const create = (input: Partial<FakeConversation>): FakeConversation => {
    const now = tick();
    const c: FakeConversation = {
      id: input.id ?? `c${(++n).toString().padStart(4, '0')}`,
      title: input.title ?? 'New chat',
      provider: input.provider ?? 'openai',
      model: input.model ?? 'gpt-4o-mini',
      created_at: input.created_at ?? now,
      updated_at: input.updated_at ?? now,
      archived: input.archived ?? false,
      message_count: 0,
      ...(input.agent ? { agent: input.agent } : {}),
    };
    all.push(c);
    messages[c.id] = [];
    routeConversation(c);
    return c;
  };

  const store = (cid: string, partial: Partial<FakeStoredMessage>): FakeStoredMessage => {
    const m: FakeStoredMessage = { id: `m${(++n).toString().padStart(4, '0')}`, role: 'user', content: '', created_at: tick(), complete: true, ...partial };
    messages[cid].push(m);
    find(cid)!.message_count++;
    routeMessage(cid, m.id);
    return m;
  };

  const routeBase = () => {
    api.route(`GET ${base}`, (req) => {
      const archived = req.url.searchParams.get('archived') === 'true';
      const q = (req.url.searchParams.get('q') ?? '').trim().toLowerCase();
      const limit = Number(req.url.searchParams.get('limit') ?? '50');
      const from = Number(req.url.searchParams.get('cursor') || '0');
      const matching = newest(all).filter(
        (c) => c.archived === archived && (!q || c.title.toLowerCase().includes(q) || (messages[c.id] ?? []).some((m) => m.role === 'user' && m.content.toLowerCase().includes(q))),
      );
      const page = matching.slice(from, from + limit);
      const next = from + limit < matching.length ? String(from + limit) : '';
      return jsonResponse(200, { conversations: page, next_cursor: next, total: all.length });
    });
    api.route(`POST ${base}`, (req) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (!valid(body.provider, body.model)) return jsonResponse(400, { detail: 'provider and model are required', code: 'invalid' });
      const title = typeof body.title === 'string' ? body.title.trim().slice(0, 200) || 'New chat' : 'New chat';
      // An upload: made once per key (the same key again answers it), with its messages.
      const key = typeof body.upload_key === 'string' ? body.upload_key : '';
      const made = key ? uploads.get(key) : undefined;
      if (made && find(made)) return jsonResponse(200, find(made));
      // An agent's conversation: on its provider and model, named by it.
      if (typeof body.agent_id === 'string' && body.agent_id) {
        const agent = agents[body.agent_id];
        if (!agent) return jsonResponse(404, { detail: 'Agent not found.', code: 'not_found' });
        return jsonResponse(201, create({ title: agent.name, provider: agent.provider, model: agent.model, agent: { id: body.agent_id, name: agent.name } }));
      }
      const c = create({ title, provider: String(body.provider), model: String(body.model) });
      if (key) uploads.set(key, c.id);
      for (const m of Array.isArray(body.messages) ? (body.messages as Partial<FakeStoredMessage>[]) : []) {
        store(c.id, { role: m.role, content: m.content, created_at: m.created_at, error: m.error, usage: m.usage, complete: true });
      }
      return jsonResponse(201, c);
    });
  };
  routeBase();

  const keep = (cid: string, text: string) => {
    const c = find(cid);
    if (!c) return null;
    const user = store(cid, { role: 'user', content: text });
    const assistant = store(cid, { role: 'assistant', content: '', complete: false });
    c.updated_at = tick();
    return { user: user.id, assistant: assistant.id };
  };

  return {
    all,
    messages,
    stops,
    seed({ messages: seeded = [], ...input }) {
      const c = create(input);
      for (const m of seeded) store(c.id, m);
      return c;
    },
    keep,
    async keepStream(body, response) {
      const cid = (body as { conversation_id?: unknown } | null)?.conversation_id;
      if (typeof cid !== 'string' || !cid) return response;
      const res = await response;
      if (!res.ok || !res.body) return res;
      const ids = keep(cid, String((body as { message?: unknown }).message ?? ''));
      if (!ids) return notFound();
      const reply = messages[cid].find((m) => m.id === ids.assistant)!;
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      const record = (event: string) => {
        const type = /^event: (.*)$/m.exec(event)?.[1];
        const data = event
          .split('\n')
          .filter((l) => l.startsWith('data: '))
          .map((l) => l.slice(6))
          .join('\n');
        if (type === 'error') {
          reply.error = (JSON.parse(data || '{}') as { detail?: string }).detail ?? 'Stream error occurred';
          reply.complete = true;
        } else if (type === 'tool_approval') {
          reply.blocks = [...(reply.blocks ?? []), { at: enc.encode(reply.content).length, frame: { tool_approval: JSON.parse(data) } }];
          reply.complete = true;
        } else if (type === 'elicitation') {
          // Kept without its token, as the server keeps it (its id answers it with the user's session).
          const kept = JSON.parse(data) as Record<string, unknown>;
          delete kept.token;
          reply.blocks = [...(reply.blocks ?? []), { at: enc.encode(reply.content).length, frame: { elicitation: kept } }];
        } else if (data === '[DONE]') {
          reply.complete = true;
        } else if (data) {
          const frame = JSON.parse(data) as Record<string, unknown>;
          if (typeof frame.content === 'string') reply.content += frame.content;
          else if (frame.usage) reply.usage = frame.usage as FakeStoredMessage['usage'];
          else if (frame.tool_signin) {
            // A sign-in pause ends the reply: kept without its token, as the server keeps it (its signin_id resumes it).
            const kept = { ...(frame.tool_signin as Record<string, unknown>) };
            delete kept.token;
            reply.blocks = [...(reply.blocks ?? []), { at: enc.encode(reply.content).length, frame: { tool_signin: kept } }];
            reply.complete = true;
          }
          else if (!frame.message_ids) reply.blocks = [...(reply.blocks ?? []), { at: enc.encode(reply.content).length, frame }];
        }
      };
      const body2 = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(enc.encode(sseMessageIds(ids)));
        },
        async pull(c) {
          const chunk = await reader.read();
          if (chunk.done) {
            // A stream that ends right after a question is paused on it: the reply is kept as it stands.
            if (!reply.complete && reply.blocks?.[reply.blocks.length - 1] && 'elicitation' in reply.blocks[reply.blocks.length - 1].frame) reply.complete = true;
            c.close();
            return;
          }
          buffer += decoder.decode(chunk.value, { stream: true });
          let end = buffer.indexOf('\n\n');
          while (end !== -1) {
            record(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
            end = buffer.indexOf('\n\n');
          }
          c.enqueue(chunk.value);
        },
        cancel(reason) {
          return reader.cancel(reason);
        },
      });
      return new Response(body2, { status: res.status, headers: res.headers });
    },
    open: () => newest(all).filter((c) => !c.archived),
    agents,
    use: routeBase,
  };
}

/** The chat's providers and models (SPEC §3), as the fake server checks them. */
export const FAKE_PROVIDERS: Record<string, readonly string[]> = {
  openai: ['gpt-4o-mini', 'gpt-4o', 'gpt-4-turbo', 'gpt-3.5-turbo'],
  meta: ['llama-3.1-8b-instruct', 'llama-3.1-70b-instruct', 'llama-3.2-1b-instruct'],
  anthropic: ['claude-3-5-sonnet', 'claude-3-opus'],
  google: ['gemini-1.5-pro', 'gemini-1.5-flash'],
};
