import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearNotificationsForTests } from '../../../components/notifications/notification-store';
import { clearSession, resetAuthForTests, setSession, type User } from '../../../lib/auth-session';
import { writeChatHandoff } from '../../../lib/chat-handoff';
import { fakeConversations, installFakeApi, type FakeApi, type FakeConversations } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { stubSystemTheme } from '../../../test/match-media';
import { renderApp } from '../../../test/render-app';
import { tokenExpiringIn } from '../../../test/jwt-fixtures';
import { ADA, startSignedIn } from '../../../test/session';
import { assertNoLeakedTimers } from '../../../test/timer-guard';
import { chatStore, resetChatStoreForTests } from '../store/chat-store';
import { buildMenuMessage, TEMPLATE_NOTE } from '../menu';

const enc = new TextEncoder();

/** An SSE body; with `hold`, it stays open until `release()` sends the rest. */
function sse(frames: string[], hold?: { release: Promise<string[]> }): Response {
  return new Response(
    new ReadableStream<Uint8Array>({
      async start(c) {
        for (const f of frames) c.enqueue(enc.encode(f));
        if (hold) for (const f of await hold.release) c.enqueue(enc.encode(f));
        c.close();
      },
    }),
    { status: 200, headers: { 'Content-Type': 'text/event-stream' } },
  );
}
const content = (text: string) => `data: ${JSON.stringify({ content: text })}\n\n`;
const DONE = 'data: [DONE]\n\n';
const usageFrame = (input_tokens: number, output_tokens: number, cost_usd: number) =>
  `data: ${JSON.stringify({ usage: { input_tokens, output_tokens, cost_usd } })}\n\n`;

type Handler = (body: Record<string, unknown>) => Response | Promise<Response>;
let routes: Record<string, Handler>;
let api: FakeApi;
let convs: FakeConversations;
const TOOLS_PATH = '/api/v1/mcp-connections/tools';
const CONVERSATIONS = '/api/v1/chat/conversations';
/** The chat's calls to connect and stream (the Tools control's list and the conversations left out: see 'kept with the account'), in order. */
const chatCalls = () =>
  api.calls
    .filter((c) => c.path !== TOOLS_PATH && !c.path.startsWith(CONVERSATIONS))
    .map((c) => ({ path: c.path, body: (c.body ?? {}) as Record<string, unknown>, signal: c.signal }));


beforeAll(async () => {
  await import('./llm-chat-page');
}, 30_000);

beforeEach(() => {
  stubSystemTheme(false);
  startSignedIn();
  routes = {
    'POST /api/v1/mcp-connections/openai': (body) =>
      jsonResponse(200, { id: `conn-${String(body.model)}`, server_name: 'OpenAI GPT (local demo)', model: body.model, demo: true }),
    'POST /api/v1/mcp-connections/meta': (body) => jsonResponse(200, { id: 'conn-meta', server_name: 'Meta Llama (local demo)', model: body.model, demo: true }),
    'POST /api/v1/mcp-connections/message': () => sse([content('Hello'), content(' there'), DONE]),
    // The Tools control's list (tested in tools-control.test.tsx): none here.
    'GET /api/v1/mcp-connections/tools': () => jsonResponse(200, { servers: [], always_allowed: [] }),
  };
  api = installFakeApi();
  convs = fakeConversations(api);
  // Each route answers with what `routes` holds when the call comes (tests replace entries).
  for (const key of Object.keys(routes)) api.route(key, (req) => routes[key]((req.body ?? {}) as Record<string, unknown>));
  // The message stream, kept with its conversation as the server does (message_ids first, the reply saved).
  api.route('POST /api/v1/mcp-connections/message', (req) =>
    convs.keepStream(req.body, routes['POST /api/v1/mcp-connections/message']((req.body ?? {}) as Record<string, unknown>)),
  );
});

afterEach(() => {
  act(() => clearNotificationsForTests());
  vi.unstubAllGlobals();
  resetAuthForTests();
});

const input = () => screen.findByRole('textbox', { name: 'Message' });
const messages = () => within(screen.getByTestId('messages')).queryAllByTestId('message');
const toastTexts = () => within(screen.getByTestId('toasts')).queryAllByText(/./).map((n) => n.textContent);
const streamCalls = () => chatCalls().filter((c) => c.path === '/api/v1/mcp-connections/message');

describe('LLM chat page', () => {
  it('starts with Chat 1, Idle, the empty state, the placeholder and the hint', async () => {
    renderApp('/llm-chat');
    const box = await input();
    expect(box).toHaveAttribute('placeholder', 'Message OpenAI GPT (gpt-4o-mini)...');
    expect(screen.getByText('Enter to send • Shift+Enter for newline')).toBeInTheDocument();
    expect(within(screen.getByRole('tablist')).getAllByRole('tab').map((t) => t.textContent)).toEqual(['Chat 1']);
    expect(screen.queryByRole('button', { name: /^Close / })).toBeNull();
    expect(screen.getByTestId('connection-status')).toHaveTextContent('Idle');
    expect(screen.getByRole('button', { name: 'Connect' })).toBeInTheDocument();
    const empty = screen.getByTestId('chat-empty');
    expect(within(empty).getByText('Start chatting with OpenAI GPT')).toBeInTheDocument();
    expect(within(empty).getByText('gpt-4o-mini')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open in Menu' })).toBeDisabled();
  });

  it('Shift+Enter adds a newline; Enter connects, sends and streams the reply', async () => {
    const user = userEvent.setup();
    renderApp('/llm-chat');
    const box = await input();
    await user.type(box, 'Tell me about tides{Shift>}{Enter}{/Shift}please');
    expect(box).toHaveValue('Tell me about tides\nplease');
    expect(chatCalls()).toHaveLength(0);

    await user.keyboard('{Enter}');
    await waitFor(() => expect(messages()).toHaveLength(2));
    const [question, answer] = messages();
    expect(question).toHaveAttribute('data-role', 'user');
    expect(question).toHaveTextContent('Tell me about tides please');
    await waitFor(() => expect(answer).toHaveAttribute('data-complete', 'true'));
    expect(answer).toHaveAttribute('data-role', 'assistant');
    expect(answer).toHaveTextContent('Hello there');
    expect(box).toHaveValue('');

    expect(chatCalls().map((c) => c.path)).toEqual(['/api/v1/mcp-connections/openai', '/api/v1/mcp-connections/message']);
    expect(chatCalls()[0].body).toEqual({ model: 'gpt-4o-mini' });
    // Kept with the tab's conversation, made for it.
    expect(convs.all).toHaveLength(1);
    expect(chatCalls()[1].body).toEqual({
      connection_id: 'conn-gpt-4o-mini',
      message: 'Tell me about tides\nplease',
      model: 'gpt-4o-mini',
      context: [],
      conversation_id: convs.all[0].id,
    });
    expect(screen.getByTestId('connection-status')).toHaveTextContent('Connected');
    expect(screen.getByRole('button', { name: 'Reconnect' })).toBeInTheDocument();
    expect(toastTexts()).toContain('Connected to OpenAI GPT (local demo)');
    expect(screen.getByRole('tab', { name: 'Tell me about tides please' })).toHaveAttribute('aria-selected', 'true');
  });

  it('sends only trimmed, non-empty text, and reuses the connection with the previous messages as context', async () => {
    const user = userEvent.setup();
    renderApp('/llm-chat');
    const box = await input();
    await user.type(box, '   {Enter}');
    expect(chatCalls()).toHaveLength(0);
    await user.clear(box);
    await user.type(box, '  first  {Enter}');
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    await user.type(box, 'second{Enter}');
    await waitFor(() => expect(messages()).toHaveLength(4));
    await waitFor(() => expect(messages()[3]).toHaveAttribute('data-complete', 'true'));
    expect(chatCalls().filter((c) => c.path === '/api/v1/mcp-connections/openai')).toHaveLength(1);
    expect(streamCalls().map((c) => [c.body.message, c.body.context])).toEqual([
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

  it('renders the reply progressively and does not send while a reply streams', async () => {
    const user = userEvent.setup();
    let release: (frames: string[]) => void = () => undefined;
    routes['POST /api/v1/mcp-connections/message'] = () =>
      sse([content('Part one.')], { release: new Promise<string[]>((r) => (release = r)) });
    renderApp('/llm-chat');
    const box = await input();
    await user.type(box, 'go{Enter}');
    await waitFor(() => expect(messages()[1]).toHaveTextContent('Part one.'));
    expect(messages()[1]).toHaveAttribute('data-complete', 'false');
    await user.type(box, 'again{Enter}');
    expect(streamCalls()).toHaveLength(1);
    expect(box).toHaveValue('again');
    act(() => release([content(' Part two.'), DONE]));
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    expect(messages()[1]).toHaveTextContent('Part one. Part two.');
  });

  it('user text renders as plain text; replies render safe markdown', async () => {
    const user = userEvent.setup();
    routes['POST /api/v1/mcp-connections/message'] = () =>
      sse([content('## Hi\n\n<script>alert(1)</script>\n\nSome **b** [bad](javascript:alert(1)) [ok](https://example.com)'), DONE]);
    renderApp('/llm-chat');
    await user.type(await input(), '**not bold** <i>x</i>{Enter}');
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    const [question, answer] = messages();
    expect(question).toHaveTextContent('**not bold** <i>x</i>');
    expect(question.querySelector('strong, i')).toBeNull();
    expect(within(answer).getByRole('heading', { name: 'Hi' })).toBeInTheDocument();
    expect(answer.querySelector('script')).toBeNull();
    expect(answer).toHaveTextContent('<script>alert(1)</script>');
    expect(answer.querySelector('strong')).toHaveTextContent('b');
    expect(within(answer).queryByRole('link', { name: 'bad' })).toBeNull();
    expect(within(answer).getByRole('link', { name: 'ok' })).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('a failed stream leaves the reply saying why, with Retry, and the toast shows the detail of the error', async () => {
    const user = userEvent.setup();
    routes['POST /api/v1/mcp-connections/message'] = () => jsonResponse(413, { detail: 'too long', code: 'too_large' });
    renderApp('/llm-chat');
    await user.type(await input(), 'hello{Enter}');
    // SPEC §8's prefix, with the JSON body's detail rather than the raw JSON.
    await waitFor(() => expect(toastTexts()).toContain('HTTP error! status: 413, message: too long'));
    expect(messages().map((m) => m.getAttribute('data-role'))).toEqual(['user', 'assistant']);
    expect(within(messages()[1]).getByTestId('message-error')).toHaveTextContent('No reply: HTTP error! status: 413, message: too long');
    expect(within(messages()[1]).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('an error event with detail is the toast, and the failed reply says it', async () => {
    const user = userEvent.setup();
    routes['POST /api/v1/mcp-connections/message'] = () => sse([content('Half'), 'event: error\ndata: {"detail":"Stream timeout"}\n\n']);
    renderApp('/llm-chat');
    await user.type(await input(), 'hello{Enter}');
    await waitFor(() => expect(toastTexts()).toContain('Stream timeout'));
    expect(messages().map((m) => m.getAttribute('data-role'))).toEqual(['user', 'assistant']);
    expect(messages()[1]).toHaveTextContent('Half');
    expect(within(messages()[1]).getByTestId('message-error')).toHaveTextContent('The reply broke off: Stream timeout');
  });

  it('a failed connect shows the detail and sends nothing', async () => {
    const user = userEvent.setup();
    routes['POST /api/v1/mcp-connections/openai'] = () => jsonResponse(400, { detail: "Model 'x' is not offered" });
    renderApp('/llm-chat');
    const box = await input();
    await user.type(box, 'hello{Enter}');
    await waitFor(() => expect(toastTexts()).toContain("Model 'x' is not offered"));
    expect(messages()).toHaveLength(0);
    expect(box).toHaveValue('hello');
    expect(screen.getByTestId('connection-status')).toHaveTextContent('Idle');
  });

  it('a connect failure without detail says Connection failed', async () => {
    const user = userEvent.setup();
    routes['POST /api/v1/mcp-connections/openai'] = () => new Response('oops', { status: 502 });
    renderApp('/llm-chat');
    await input();
    await user.click(screen.getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(toastTexts()).toContain('Connection failed'));
  });

  it('changing the provider selects its first model and connects on its own', async () => {
    const user = userEvent.setup();
    renderApp('/llm-chat');
    await input();
    await user.selectOptions(screen.getByLabelText('Provider'), 'meta');
    expect(screen.getByLabelText('Model')).toHaveValue('llama-3.1-8b-instruct');
    expect(await input()).toHaveAttribute('placeholder', 'Message Meta Llama (llama-3.1-8b-instruct)...');
    await waitFor(() => expect(screen.getByTestId('connection-status')).toHaveTextContent('Connected'));
    expect(chatCalls().map((c) => [c.path, c.body])).toEqual([['/api/v1/mcp-connections/meta', { model: 'llama-3.1-8b-instruct' }]]);
    expect(toastTexts()).toContain('Connected to Meta Llama (local demo)');
  });

  it('tabs: + opens Chat 2 with the current model; × closes; closing the active tab activates the last one; state persists', async () => {
    const user = userEvent.setup();
    const { unmount } = renderApp('/llm-chat');
    await input();
    await user.selectOptions(screen.getByLabelText('Model'), 'gpt-4o');
    await user.click(screen.getByRole('button', { name: 'New chat' }));
    expect(screen.getByRole('tab', { name: 'Chat 2' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText('Model')).toHaveValue('gpt-4o');
    await user.click(screen.getByRole('button', { name: 'New chat' }));
    await user.click(screen.getByRole('tab', { name: 'Chat 2' }));
    await user.click(screen.getByRole('button', { name: 'Close Chat 2' }));
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Chat 1', 'Chat 3']);
    expect(screen.getByRole('tab', { name: 'Chat 3' })).toHaveAttribute('aria-selected', 'true');
    await user.click(screen.getByRole('button', { name: 'Close Chat 1' }));
    expect(screen.queryByRole('button', { name: /^Close / })).toBeNull();
    // Each new tab is a conversation on the server; an empty one closed is deleted.
    await waitFor(() => expect(convs.all.map((c) => [c.title, c.model, c.archived])).toEqual([['Chat 3', 'gpt-4o', false]]));
    unmount();
    expect(JSON.parse(localStorage.getItem('chat-tabs:u1')!).map((t: { title: string }) => t.title)).toEqual(['Chat 3']);
    expect(localStorage.getItem('chat-tabs')).toBeNull();
    renderApp('/llm-chat');
    expect(await screen.findByRole('tab', { name: 'Chat 3' })).toHaveAttribute('aria-selected', 'true');
  });

  it('the Large Editor edits the message with a character count; Close drops, Done keeps', async () => {
    const user = userEvent.setup();
    renderApp('/llm-chat');
    const box = await input();
    await user.type(box, 'abc');
    await user.click(screen.getByRole('button', { name: 'Open in Big View' }));
    const dialog = screen.getByRole('dialog', { name: 'Large Editor' });
    expect(within(dialog).getByText('3 characters')).toBeInTheDocument();
    const big = within(dialog).getByRole('textbox', { name: 'Large Editor text' });
    await user.type(big, 'def');
    expect(within(dialog).getByText('6 characters')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(box).toHaveValue('abc');
    await user.click(screen.getByRole('button', { name: 'Open in Big View' }));
    await user.type(screen.getByRole('textbox', { name: 'Large Editor text' }), 'XYZ');
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(box).toHaveValue('abcXYZ');
  });
});

describe('menu templates', () => {
  const TEMPLATE = [
    'Plan a {length} trip to {place}.',
    '[start menu]',
    'd {length} Trip length',
    '- weekend',
    '- week',
    's {place} Destination',
    'r {order} Priorities',
    '- food',
    '- museums',
    'n {budget} [100-900] Budget',
    'b {notes}',
    '[end menu]',
  ].join('\n');

  it('a hand-off opens a new tab with the text and the Fill Template Variables dialog, once', async () => {
    const user = userEvent.setup();
    writeChatHandoff(TEMPLATE);
    const { unmount } = renderApp('/llm-chat');
    const dialog = await screen.findByRole('dialog', { name: 'Fill Template Variables' });
    expect(sessionStorage.getItem('chat-prefill')).toBeNull();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Chat 1', 'Chat 2']);
    expect(screen.getByRole('tab', { name: 'Chat 2' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue(TEMPLATE);

    expect(within(dialog).getByLabelText('Trip length')).toHaveValue('weekend');
    expect(within(dialog).getByLabelText('Budget')).toHaveValue(100);
    expect(within(dialog).getByLabelText('Budget')).toHaveAttribute('max', '900');
    await user.selectOptions(within(dialog).getByLabelText('Trip length'), 'week');
    await user.type(within(dialog).getByLabelText('Destination'), 'Lisbon');
    await user.click(within(dialog).getByRole('button', { name: 'Move museums up' }));

    // The per-field big editor: Cancel drops, Done keeps.
    await user.click(within(dialog).getByRole('button', { name: 'Big View for Notes' }));
    const editor = screen.getByRole('dialog', { name: 'Edit Notes' });
    await user.type(within(editor).getByRole('textbox', { name: 'Notes' }), 'No flights');
    await user.click(within(editor).getByRole('button', { name: 'Done' }));
    expect(within(dialog).getByLabelText('Notes')).toHaveValue('No flights');

    await user.click(within(dialog).getByRole('button', { name: 'Insert & Send' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(streamCalls()).toHaveLength(1));
    const sent = String(streamCalls()[0].body.message);
    expect(sent).toBe(
      buildMenuMessage(TEMPLATE, { length: 'week', place: 'Lisbon', order: ['museums', 'food'], budget: '100', notes: 'No flights' }),
    );
    expect(sent).toContain('Plan a week trip to Lisbon.');
    expect(sent).toContain('Priorities (order): museums > food');
    expect(sent).toContain(`${TEMPLATE_NOTE}\n[start menu]`);
    // In display the block (and the note) is gone from the user message.
    await waitFor(() => expect(messages()).toHaveLength(2));
    expect(messages()[0]).not.toHaveTextContent('[start menu]');
    expect(messages()[0]).not.toHaveTextContent(TEMPLATE_NOTE);
    expect(messages()[0]).toHaveTextContent('Plan a week trip to Lisbon.');
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('');

    unmount();
    renderApp('/llm-chat');
    await input();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getAllByRole('tab')).toHaveLength(2);
  });

  it('an assistant reply with a menu shows [menu hidden] and opens in the dialog', async () => {
    const user = userEvent.setup();
    routes['POST /api/v1/mcp-connections/message'] = () =>
      sse([content('Pick one:\n[start menu]\nd {c} Colour\n- red\n- blue\n[end menu]\nThanks'), DONE]);
    renderApp('/llm-chat');
    await user.type(await input(), 'menu please{Enter}');
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    expect(messages()[1]).toHaveTextContent('[menu hidden]');
    expect(messages()[1]).not.toHaveTextContent('[start menu]');
    await user.click(within(messages()[1]).getByRole('button', { name: 'Open in Menu' }));
    const dialog = screen.getByRole('dialog', { name: 'Fill Template Variables' });
    expect(within(dialog).getByLabelText('Colour')).toHaveValue('red');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('long messages', () => {
  it('are summarised once through the stream with an empty context, and View Full shows everything', async () => {
    const user = userEvent.setup();
    const long = 'Tides rise and fall. '.repeat(100); // 2100 characters
    routes['POST /api/v1/mcp-connections/message'] = (body) =>
      String(body.message).startsWith('Summarize the following')
        ? sse([content(Array.from({ length: 50 }, (_, i) => `w${i}`).join(' ')), DONE])
        : sse([content('ok'), DONE]);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn().mockResolvedValue(undefined) }, configurable: true });
    renderApp('/llm-chat');
    const box = await input();
    act(() => {
      // Typing 2100 characters one by one is slow; paste instead.
      box.focus();
    });
    await user.paste(long);
    await user.keyboard('{Enter}');
    const summary = await screen.findByTestId('message-summary');
    expect(summary).toHaveTextContent(`Summary: ${Array.from({ length: 35 }, (_, i) => `w${i}`).join(' ')}…`);
    const summaryCalls = streamCalls().filter((c) => String(c.body.message).startsWith('Summarize'));
    expect(summaryCalls).toHaveLength(1);
    expect(summaryCalls[0].body).toMatchObject({ context: [], connection_id: 'conn-gpt-4o-mini', model: 'gpt-4o-mini' });
    expect(summaryCalls[0].body.message).toBe(`Summarize the following in at most 35 words:\n\n${long.trim()}`);

    const question = messages()[0];
    expect(within(question).getByTestId('message-excerpt')).toBeInTheDocument();
    await user.click(within(question).getByRole('button', { name: 'View Full' }));
    const viewer = screen.getByRole('dialog', { name: 'Full Message' });
    expect(within(viewer).getByText(/^w0 w1/)).toBeInTheDocument();
    expect(within(viewer).queryByTestId('full-message-count')).toBeNull(); // 2100 ≤ 4000
    await user.click(within(viewer).getByRole('button', { name: 'Raw' }));
    expect(screen.getByTestId('raw-message-text')).toHaveTextContent(long.trim().slice(0, 50));
    await user.keyboard('{Escape}');
    await user.click(within(screen.getByRole('dialog', { name: 'Full Message' })).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(toastTexts()).toContain('Copied'));
    await user.click(within(screen.getByRole('dialog', { name: 'Full Message' })).getByRole('button', { name: 'Close' }));
    expect(within(question).queryByTestId('message-excerpt')).toBeNull();
    expect(within(question).getByRole('button', { name: 'Show less' })).toBeInTheDocument();
    // Short replies are not summarised.
    expect(streamCalls()).toHaveLength(2);
  });

  it('a failed summary is silent', async () => {
    const user = userEvent.setup();
    routes['POST /api/v1/mcp-connections/message'] = (body) =>
      String(body.message).startsWith('Summarize') ? jsonResponse(500, { detail: 'Internal error.' }) : sse([content('ok'), DONE]);
    renderApp('/llm-chat');
    const box = await input();
    box.focus();
    await user.paste('x'.repeat(1800));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(streamCalls()).toHaveLength(2));
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    expect(toastTexts().some((t) => t?.includes('HTTP error'))).toBe(false);
    expect(screen.queryByTestId('message-summary')).toBeNull();
    expect(within(messages()[0]).getByRole('button', { name: 'View Full' })).toBeInTheDocument();
  });
});

/** The next replies stream `first`, then wait until `release(rest)`. */
function holdReplies(first: string[] = [content('Part one.')]) {
  let release: (frames: string[]) => void = () => undefined;
  const rest = new Promise<string[]>((r) => (release = r));
  routes['POST /api/v1/mcp-connections/message'] = () => sse(first, { release: rest });
  return { release: (frames: string[] = [content(' Part two.'), DONE]) => act(() => release(frames)) };
}
const lastStreamSignal = () => streamCalls().at(-1)?.signal;

describe('usage', () => {
  it('shows tokens in → out and cost under each finished reply, and a running total for the tab', async () => {
    const user = userEvent.setup();
    routes['POST /api/v1/mcp-connections/openai'] = (body) => jsonResponse(200, { id: 'conn-real', server_name: 'OpenAI GPT', model: body.model, demo: false });
    const usages = [usageFrame(412, 1093, 0.0021), usageFrame(1500, 7, 0.001)];
    routes['POST /api/v1/mcp-connections/message'] = () => sse([content('Hello'), usages.shift()!, DONE]);
    const { unmount } = renderApp('/llm-chat');
    const box = await input();
    expect(screen.queryByTestId('tab-usage')).toBeNull();

    await user.type(box, 'one{Enter}');
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    expect(within(messages()[1]).getByTestId('message-usage')).toHaveTextContent('412 → 1,093 tokens · $0.0021');
    expect(within(messages()[0]).queryByTestId('message-usage')).toBeNull();
    expect(screen.getByTestId('tab-usage')).toHaveTextContent('This chat: 412 → 1,093 tokens · $0.0021');

    await user.type(box, 'two{Enter}');
    await waitFor(() => expect(messages()[3]).toHaveAttribute('data-complete', 'true'));
    expect(within(messages()[3]).getByTestId('message-usage')).toHaveTextContent('1,500 → 7 tokens · $0.0010');
    expect(screen.getByTestId('tab-usage')).toHaveTextContent('This chat: 1,912 → 1,100 tokens · $0.0031');

    // Per tab: a new tab has no total yet.
    await user.click(screen.getByRole('button', { name: 'New chat' }));
    expect(screen.queryByTestId('tab-usage')).toBeNull();

    // Kept with the messages: after a reload the lines and the total are back.
    const stored = JSON.parse(localStorage.getItem('chat-conversations:u1')!) as Record<string, { usage?: unknown }[]>;
    expect(Object.values(stored).flat().filter((m) => m.usage)).toHaveLength(2);
    unmount();
    resetChatStoreForTests();
    renderApp('/llm-chat');
    await user.click(await screen.findByRole('tab', { name: 'one' }));
    expect(within(messages()[1]).getByTestId('message-usage')).toHaveTextContent('412 → 1,093 tokens · $0.0021');
    expect(screen.getByTestId('tab-usage')).toHaveTextContent('This chat: 1,912 → 1,100 tokens · $0.0031');
  });

  it('says demo instead of a cost for the local demo model, and nothing for a reply without a usage frame', async () => {
    const user = userEvent.setup();
    const frames = [[content('no usage'), DONE], [content('Hello'), usageFrame(12, 130, 0), DONE]];
    routes['POST /api/v1/mcp-connections/message'] = () => sse(frames.shift()!);
    renderApp('/llm-chat');
    const box = await input();
    await user.type(box, 'one{Enter}');
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    expect(screen.queryByTestId('message-usage')).toBeNull();
    expect(screen.queryByTestId('tab-usage')).toBeNull();
    await user.type(box, 'two{Enter}');
    await waitFor(() => expect(messages()[3]).toHaveAttribute('data-complete', 'true'));
    expect(within(messages()[3]).getByTestId('message-usage')).toHaveTextContent('12 → 130 tokens · demo');
    expect(screen.getByTestId('tab-usage')).toHaveTextContent('This chat: 12 → 130 tokens · demo');
  });
});

describe('chats belong to one account', () => {
  const BOB: User = { id: 'u2', email: 'bob@example.com', username: 'bob', full_name: 'Bob', is_admin: false, is_verified: true };
  const chatKeys = () => Object.keys(localStorage).filter((k) => k.startsWith('chat-')).sort();

  it('stores under the user id; logout removes them and stops the reply; the next account starts with a fresh Chat 1; the first comes back from the server', async () => {
    const user = userEvent.setup();
    const { release } = holdReplies([content('Noted.')]);
    const { unmount } = renderApp('/llm-chat');
    await user.type(await input(), 'My private note: salary negotiation{Enter}');
    await waitFor(() => expect(messages()[1]).toHaveTextContent('Noted.'));
    expect(chatKeys()).toEqual(['chat-active-tab:u1', 'chat-conversations:u1', 'chat-tabs:u1']);
    expect(localStorage.getItem('chat-conversations:u1')).toContain('salary negotiation');

    act(() => clearSession({ redirectTo: '/' }));
    expect(lastStreamSignal()?.aborted).toBe(true);
    expect(chatKeys()).toEqual([]);
    release([content(' More private text.'), DONE]);
    await act(async () => undefined);
    expect(chatKeys()).toEqual([]); // nothing of A's is written back

    unmount();
    const alice = convs;
    convs = fakeConversations(api); // Bob's account: none of Alice's conversations
    act(() => setSession(BOB, tokenExpiringIn(3600)));
    const bob = renderApp('/llm-chat');
    await input();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Chat 1']);
    expect(messages()).toHaveLength(0);
    expect(document.body).not.toHaveTextContent('salary');
    await waitFor(() => expect(api.callsTo('GET', CONVERSATIONS).at(-1)?.search).toBe('?archived=false&limit=100'));

    // Alice signs in again: her conversation comes back from the server.
    bob.unmount();
    act(() => clearSession());
    alice.use();
    convs = alice;
    act(() => setSession(ADA, tokenExpiringIn(3600)));
    renderApp('/llm-chat');
    expect(await screen.findByRole('tab', { name: 'My private note: salary negoti' })).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(messages()).toHaveLength(2));
    expect(messages()[0]).toHaveTextContent('My private note: salary negotiation');
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    expect(messages()[1]).toHaveTextContent('Noted.');
  });

  it("another account signing in (from another browser tab) reloads the chat for it and aborts the first account's reply", async () => {
    const user = userEvent.setup();
    holdReplies();
    renderApp('/llm-chat');
    await user.type(await input(), 'Alice only{Enter}');
    await waitFor(() => expect(messages()[1]).toHaveTextContent('Part one.'));

    convs = fakeConversations(api); // Bob's account: none of Alice's conversations
    act(() => setSession(BOB, tokenExpiringIn(3600)));
    await waitFor(() => expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Chat 1']));
    expect(messages()).toHaveLength(0);
    expect(lastStreamSignal()?.aborted).toBe(true);
    // A's stored chat is A's: still there for A, not shown to B.
    expect(localStorage.getItem('chat-conversations:u1')).toContain('Alice only');
    expect(localStorage.getItem('chat-conversations:u2') ?? '').not.toContain('Alice');
  });
});

describe('replies keep streaming while you look elsewhere', () => {
  it('switching to another chat tab does not stop the reply; it completes there', async () => {
    const user = userEvent.setup();
    const { release } = holdReplies();
    renderApp('/llm-chat');
    await user.type(await input(), 'go{Enter}');
    await waitFor(() => expect(messages()[1]).toHaveTextContent('Part one.'));

    await user.click(screen.getByRole('button', { name: 'New chat' }));
    expect(screen.getByRole('tab', { name: 'Chat 2' })).toHaveAttribute('aria-selected', 'true');
    expect(messages()).toHaveLength(0);
    release([content(' Part two.'), usageFrame(3, 4, 0), DONE]);

    await user.click(screen.getByRole('tab', { name: 'go' }));
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    expect(messages()[1]).toHaveTextContent('Part one. Part two.');
    expect(lastStreamSignal()?.aborted).toBe(false);
  });

  it('leaving the page and coming back neither stops nor loses the reply', async () => {
    const user = userEvent.setup();
    const { release } = holdReplies();
    renderApp('/llm-chat');
    await user.type(await input(), 'go{Enter}');
    await waitFor(() => expect(messages()[1]).toHaveTextContent('Part one.'));
    const tabId = localStorage.getItem('chat-active-tab:u1')!;

    // Away (the page unmounts) and back while it still runs: shown as running.
    await user.click(screen.getByRole('link', { name: 'User Guide' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/user-guide'));
    expect(screen.queryByTestId('messages')).toBeNull();
    expect(chatStore.runningStreams(tabId)).toBe(1);
    expect(lastStreamSignal()?.aborted).toBe(false);
    await user.click(screen.getByRole('link', { name: 'LLM Chat' }));
    await waitFor(() => expect(messages()[1]).toHaveTextContent('Part one.'));
    expect(messages()[1]).toHaveAttribute('data-complete', 'false');

    // Away again; it finishes meanwhile; back: complete.
    await user.click(screen.getByRole('link', { name: 'User Guide' }));
    await waitFor(() => expect(screen.queryByTestId('messages')).toBeNull());
    release();
    await waitFor(() => expect(chatStore.runningStreams(tabId)).toBe(0));
    await user.click(screen.getByRole('link', { name: 'LLM Chat' }));
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    expect(messages()[1]).toHaveTextContent('Part one. Part two.');
    expect(lastStreamSignal()?.aborted).toBe(false);
  });

  it('closing the chat tab of a running reply aborts it', async () => {
    const user = userEvent.setup();
    holdReplies();
    renderApp('/llm-chat');
    await user.type(await input(), 'go{Enter}');
    await waitFor(() => expect(messages()[1]).toHaveTextContent('Part one.'));
    await user.click(screen.getByRole('button', { name: 'New chat' }));
    await user.click(screen.getByRole('button', { name: 'Close go' }));
    expect(lastStreamSignal()?.aborted).toBe(true);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Chat 2']);
  });

  it('when a reply has ended, the store leaves no timer running', async () => {
    const user = userEvent.setup();
    const { unmount } = renderApp('/llm-chat');
    await user.type(await input(), 'hello{Enter}');
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    unmount();
    // Only the chat store's timers are in question: end the toasts' and the session expiry's.
    act(() => {
      clearNotificationsForTests();
      resetAuthForTests();
    });
    await expect(assertNoLeakedTimers()).resolves.toBeUndefined();
  });
});

describe('toasts and errors', () => {
  it('three model changes leave one connection toast, the latest', async () => {
    const user = userEvent.setup();
    routes['POST /api/v1/mcp-connections/openai'] = (body) =>
      jsonResponse(200, { id: `conn-${String(body.model)}`, server_name: `OpenAI GPT ${String(body.model)} (local demo)`, model: body.model, demo: true });
    renderApp('/llm-chat');
    await input();
    for (const model of ['gpt-4o', 'gpt-4-turbo', 'gpt-3.5-turbo']) {
      await user.selectOptions(screen.getByLabelText('Model'), model);
      await waitFor(() => expect(toastTexts()).toContain(`Connected to OpenAI GPT ${model} (local demo)`));
    }
    expect(chatCalls().filter((c) => c.path === '/api/v1/mcp-connections/openai')).toHaveLength(3);
    expect(toastTexts().filter((t) => t?.startsWith('Connected to'))).toEqual(['Connected to OpenAI GPT gpt-3.5-turbo (local demo)']);
  });

  it("a 429 shows the server's sentence as is", async () => {
    const user = userEvent.setup();
    const detail = "You have used today's chat allowance of 200,000 tokens; it resets at 00:00 UTC.";
    routes['POST /api/v1/mcp-connections/message'] = () => jsonResponse(429, { detail, code: 'rate_limited' }, { headers: { 'Retry-After': '3600' } });
    renderApp('/llm-chat');
    await user.type(await input(), 'hello{Enter}');
    await waitFor(() => expect(toastTexts()).toContain(detail));
    expect(messages().map((m) => m.getAttribute('data-role'))).toEqual(['user', 'assistant']);
    expect(within(messages()[1]).getByTestId('message-error')).toHaveTextContent(detail);
  });
});

describe('following the conversation', () => {
  /** jsdom has no layout: give the message area a height and a scroll position. */
  function fakeScroller(el: HTMLElement, height = 1000, client = 300) {
    let top = 0;
    Object.defineProperty(el, 'scrollHeight', { configurable: true, get: () => height });
    Object.defineProperty(el, 'clientHeight', { configurable: true, get: () => client });
    Object.defineProperty(el, 'scrollTop', {
      configurable: true,
      get: () => top,
      set: (v: number) => (top = Math.max(0, Math.min(v, height - client))),
    });
    return {
      top: () => top,
      scrollUp: () => {
        top = 100;
        fireEvent.scroll(el);
      },
    };
  }
  const BOTTOM = 700;

  it('follows a reply at the bottom; scrolled up, offers New messages ↓; sending follows again', async () => {
    const user = userEvent.setup();
    renderApp('/llm-chat');
    const box = await input();
    const view = fakeScroller(screen.getByTestId('messages'));

    await user.type(box, 'first{Enter}');
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    expect(view.top()).toBe(BOTTOM);

    // Sending follows even when the reader had scrolled up.
    const { release } = holdReplies();
    view.scrollUp();
    await user.type(box, 'second{Enter}');
    await waitFor(() => expect(messages()[3]).toHaveTextContent('Part one.'));
    expect(view.top()).toBe(BOTTOM);
    expect(screen.queryByRole('button', { name: 'New messages' })).toBeNull();

    // Scrolled up while the reply streams: the view stays, a button offers the rest.
    view.scrollUp();
    release();
    await waitFor(() => expect(messages()[3]).toHaveAttribute('data-complete', 'true'));
    expect(view.top()).toBe(100);
    await user.click(screen.getByRole('button', { name: 'New messages' }));
    expect(view.top()).toBe(BOTTOM);
    expect(screen.queryByRole('button', { name: 'New messages' })).toBeNull();

    // Scrolling back down by hand hides it too.
    routes['POST /api/v1/mcp-connections/message'] = () => sse([content('x'), DONE]);
    const again = holdReplies();
    await user.type(box, 'third{Enter}');
    await waitFor(() => expect(messages()[5]).toHaveTextContent('Part one.'));
    view.scrollUp();
    again.release();
    expect(await screen.findByRole('button', { name: 'New messages' })).toBeInTheDocument();
    screen.getByTestId('messages').scrollTop = BOTTOM;
    fireEvent.scroll(screen.getByTestId('messages'));
    expect(screen.queryByRole('button', { name: 'New messages' })).toBeNull();
  });
});
