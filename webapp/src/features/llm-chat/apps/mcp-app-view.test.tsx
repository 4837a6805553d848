// A tool's view (MCP Apps) in the chat page: the tool block of a call whose
// frame names a view fetches it and shows it in the sandboxed frame; the
// host side runs on the extension's own AppBridge, driven here by messages
// the test posts as the frame would (the sandbox proxy relaying the view).

import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearNotificationsForTests } from '../../../components/notifications/notification-store';
import { SSE_DONE as DONE, deferred, fakeConversations, fakeDemoConnect, installFakeApi, sseData as frame, sseResponse as sse, sseStream, type FakeApi } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { stubSystemTheme } from '../../../test/match-media';
import { renderApp } from '../../../test/render-app';
import { startSignedIn } from '../../../test/session';
import { chatStore, resetChatStoreForTests } from '../store/chat-store';


const SERVER_NAME = 'MCP App example (local)';
const URI = 'ui://get-time/mcp-app.html';
const TIME_CALL = { id: 'call_t', server_id: 'local-mcp-app', server_name: SERVER_NAME, tool: 'get-time', arguments: { zone: 'UTC' }, connection_id: 'mcp-conn-app', ui: { resource_uri: URI } };
const TIME_RESULT = { id: 'call_t', is_error: false, content: [{ type: 'text', text: '2026-03-07T10:00:00.000Z' }], duration_ms: 9, structured_content: { time: '2026-03-07T10:00:00.000Z' } };
const VIEW_HTML = '<!doctype html><html><body><button>Get Server Time</button></body></html>';
const VIEW = { uri: URI, html: VIEW_HTML, csp: { connect_domains: [], resource_domains: ['https://cdn.example.com'], frame_domains: [], base_uri_domains: [] }, permissions: {}, prefers_border: null };
const SERVER = {
  connection_id: 'mcp-conn-app',
  server_id: 'local-mcp-app',
  server_name: SERVER_NAME,
  endpoint_url: 'http://127.0.0.1:3002/mcp',
  connected_at: '2026-03-07T09:00:00Z',
  tools: [{ name: 'get-time', title: 'Get Time', description: 'Returns the current server time.', input_schema: { type: 'object' }, read_only: false, destructive: false, ui_resource_uri: URI }],
};

let api: FakeApi;

beforeAll(async () => {
  await import('../components/llm-chat-page');
}, 30_000);

beforeEach(() => {
  // The host library logs every message it passes at debug level.
  vi.spyOn(console, 'debug').mockImplementation(() => undefined);
  stubSystemTheme(false);
  startSignedIn();
  api = installFakeApi();
  const convs = fakeConversations(api);
  const route = api.route;
  api.route = (key, handler) =>
    route(key, key === 'POST /api/v1/mcp-connections/message' ? (req) => convs.keepStream(req.body, handler(req)) : handler);
  api.route('GET /api/v1/mcp-connections/tools', () => jsonResponse(200, { servers: [SERVER], always_allowed: [] }));
  fakeDemoConnect(api);
  api.route('POST /api/v1/mcp-connections/message', () => sse([frame({ tool_call: TIME_CALL }), frame({ tool_result: TIME_RESULT }), frame({ content: 'It is ten.' }), DONE]));
  api.route('POST /api/v1/chat/apps/view', () => jsonResponse(200, VIEW));
});

afterEach(() => {
  act(() => clearNotificationsForTests());
  vi.unstubAllGlobals();
});

const input = () => screen.findByRole('textbox', { name: 'Message' });

/** Sends a message whose reply calls get-time; answers the view element once the view (its code loaded) asks for its resource. */
async function replyWithView(user: ReturnType<typeof userEvent.setup>) {
  renderApp('/llm-chat');
  await user.type(await input(), 'use get-time{Enter}');
  await waitFor(() => expect(api.callsTo('POST', '/api/v1/chat/apps/view').length).toBeGreaterThan(0));
  return screen.getByTestId('mcp-app-view');
}

// jsdom gives a frame a new window when its src is set (a browser keeps the
// same WindowProxy): the window the bridge talks to is the first the frame had.
let firstWindow = new WeakMap<HTMLIFrameElement, Window>();
beforeEach(() => {
  firstWindow = new WeakMap();
  const get = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'contentWindow')!.get!;
  vi.spyOn(HTMLIFrameElement.prototype, 'contentWindow', 'get').mockImplementation(function (this: HTMLIFrameElement) {
    const w = get.call(this) as Window | null;
    if (w && !firstWindow.has(this)) firstWindow.set(this, w);
    return w;
  });
});

/** The frame, once the bridge listens and the proxy page is loading into it; and what the chat posts to it. */
async function connectedFrame() {
  const el = await screen.findByTestId('mcp-app-frame');
  await waitFor(() => expect(el).toHaveAttribute('src', '/mcp-app-sandbox.html'));
  const iframe = el as HTMLIFrameElement;
  const win = firstWindow.get(iframe)!;
  const posted = vi.spyOn(win, 'postMessage').mockImplementation(() => undefined);
  const sent = () => posted.mock.calls.map((c) => c[0] as Record<string, unknown>);
  /** A message from the frame, as the proxy relays the view's. */
  const fromView = (data: unknown) => act(() => window.dispatchEvent(new MessageEvent('message', { data, source: win })));
  /** The chat's answer to the view's request `id`. */
  const answer = async (id: number) => {
    await waitFor(() => expect(sent().some((m) => m.id === id)).toBe(true));
    return sent().find((m) => m.id === id)!;
  };
  return { iframe, sent, fromView, answer };
}

/** The frame with the view's handshake done: its HTML handed over, ui/initialize answered, initialized. */
async function initializedView() {
  const f = await connectedFrame();
  f.fromView({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} });
  f.fromView({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: { appInfo: { name: 'view', version: '1.0.0' }, appCapabilities: {}, protocolVersion: '2026-01-26' } });
  const init = await f.answer(1);
  f.fromView({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
  await waitFor(() => expect(f.sent().some((m) => m.method === 'ui/notifications/tool-result')).toBe(true));
  return { ...f, init };
}

const callRequest = (id: number, name = 'get-time', args: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const appCalls = () => api.callsTo('POST', '/api/v1/chat/apps/call').map((c) => c.body);

describe('a tool view in the tool block', () => {
  it('loads the view through the chat function, then shows it in a sandboxed frame named for the server and tool', async () => {
    const user = userEvent.setup();
    const held = deferred<Response>();
    api.route('POST /api/v1/chat/apps/view', () => held.promise);
    const view = await replyWithView(user);
    expect(view).toHaveAttribute('data-state', 'loading');
    expect(view).toHaveTextContent('Loading the view…');
    // The call's text result is shown as ever.
    expect(within(screen.getByTestId('tool-call')).getByTestId('tool-result')).toHaveTextContent('2026-03-07T10:00:00.000Z');
    expect(api.callsTo('POST', '/api/v1/chat/apps/view').map((c) => c.body)).toEqual([{ connection_id: 'mcp-conn-app', uri: URI }]);

    held.resolve(jsonResponse(200, { ...VIEW, permissions: { clipboard_write: {} } }));
    const iframe = await screen.findByTestId('mcp-app-frame');
    expect(view).toHaveAttribute('data-state', 'ready');
    expect(view).toHaveAttribute('data-dropped', '0');
    expect(iframe).toHaveAttribute('title', `${SERVER_NAME} view: get-time`);
    expect(iframe.getAttribute('sandbox')).toBe('allow-scripts');
    expect(iframe).toHaveAttribute('allow', 'clipboard-write');
    await waitFor(() => expect(iframe).toHaveAttribute('src', '/mcp-app-sandbox.html'));
    expect(iframe.style.height).toBe('160px');
  });

  it('a view the server no longer gives says so with the reason; the text result stays', async () => {
    const user = userEvent.setup();
    api.route('POST /api/v1/chat/apps/view', () => jsonResponse(502, { code: 'bad_gateway', detail: 'The server did not answer the view request.' }));
    const view = await replyWithView(user);
    await waitFor(() => expect(view).toHaveAttribute('data-state', 'unavailable'));
    expect(within(view).getByTestId('mcp-app-unavailable')).toHaveTextContent('This view is no longer available. The server did not answer the view request.');
    expect(within(view).queryByTestId('mcp-app-frame')).toBeNull();
    expect(within(screen.getByTestId('tool-call')).getByTestId('tool-result')).toHaveTextContent('2026-03-07T10:00:00.000Z');
  });

  it('a call without a view, one still running, or one that never ran shows no view', async () => {
    const user = userEvent.setup();
    const plain = { ...TIME_CALL, id: 'call_p', ui: undefined };
    const denied = { ...TIME_CALL, id: 'call_d' };
    const stream = sseStream();
    api.route('POST /api/v1/mcp-connections/message', () => stream.response);
    renderApp('/llm-chat');
    await user.type(await input(), 'use get-time{Enter}');
    stream.push(frame({ tool_call: plain }));
    stream.push(frame({ tool_result: { ...TIME_RESULT, id: 'call_p' } }));
    stream.push(frame({ tool_call: denied }));
    await waitFor(() => expect(screen.getAllByTestId('tool-call')).toHaveLength(2));
    expect(screen.getAllByTestId('tool-call')[1]).toHaveAttribute('data-state', 'running');
    // (A call that waits for approval comes as running first: its view would show before the user decides.)
    expect(screen.queryByTestId('mcp-app-view')).toBeNull();
    stream.push(frame({ tool_result: { id: 'call_d', is_error: true, denied: true, content: [], duration_ms: 0 } }));
    stream.push(DONE);
    stream.end();
    await waitFor(() => expect(screen.getAllByTestId('tool-call')[1]).toHaveAttribute('data-state', 'denied'));
    expect(screen.queryByTestId('mcp-app-view')).toBeNull();
    expect(api.callsTo('POST', '/api/v1/chat/apps/view')).toHaveLength(0);
  });

  it("hands the proxy the view's HTML and domains; after the handshake the view gets the call's arguments and result", async () => {
    const user = userEvent.setup();
    await replyWithView(user);
    const f = await initializedView();
    const resource = f.sent().find((m) => m.method === 'ui/notifications/sandbox-resource-ready')!;
    expect(resource.params).toEqual({ html: VIEW_HTML, csp: { connectDomains: [], resourceDomains: ['https://cdn.example.com'], frameDomains: [], baseUriDomains: [] }, permissions: {} });
    const result = f.init.result as Record<string, any>;
    expect(result.hostCapabilities).toEqual({ serverTools: {}, openLinks: {}, message: { text: {} } });
    expect(result.hostContext).toMatchObject({ theme: 'light', displayMode: 'inline', availableDisplayModes: ['inline'], containerDimensions: { maxHeight: 640 } });
    expect(result.hostContext.styles).toHaveProperty('variables');
    expect(f.sent().find((m) => m.method === 'ui/notifications/tool-input')!.params).toEqual({ arguments: { zone: 'UTC' } });
    expect(f.sent().find((m) => m.method === 'ui/notifications/tool-result')!.params).toEqual({
      content: [{ type: 'text', text: '2026-03-07T10:00:00.000Z' }],
      structuredContent: { time: '2026-03-07T10:00:00.000Z' },
      isError: false,
    });
  });

  it('sizes the frame to the height the view asks for, within 60 to 640 pixels', async () => {
    const user = userEvent.setup();
    await replyWithView(user);
    const f = await initializedView();
    f.fromView({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { width: 2000, height: 321 } });
    await waitFor(() => expect(f.iframe.style.height).toBe('321px'));
    f.fromView({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 50_000 } });
    await waitFor(() => expect(f.iframe.style.height).toBe('640px'));
    f.fromView({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 3 } });
    await waitFor(() => expect(f.iframe.style.height).toBe('60px'));
    expect(f.iframe.style.width).toBe('');
  });

  it("a view's call that needs approval shows the card in the block; Allow runs it approved and the result goes back to the view", async () => {
    const user = userEvent.setup();
    api.route('POST /api/v1/chat/apps/call', (req) =>
      (req.body as { approved?: boolean }).approved
        ? jsonResponse(200, { result: { content: [{ type: 'text', text: '2026-03-07T10:05:00.000Z' }], isError: false } })
        : jsonResponse(409, { code: 'approval_required', detail: 'This tool needs your approval.' }),
    );
    const view = await replyWithView(user);
    const f = await initializedView();
    f.fromView(callRequest(2, 'get-time', { zone: 'UTC' }));
    const card = await within(view).findByTestId('mcp-app-approval');
    expect(card).toHaveTextContent(`${SERVER_NAME} view wants to run get-time`);
    expect(within(card).getByTestId('tool-arguments').textContent).toBe('{\n  "zone": "UTC"\n}');
    expect(appCalls()).toEqual([{ connection_id: 'mcp-conn-app', tool: 'get-time', arguments: { zone: 'UTC' }, approved: false, confirm_read_only: false }]);
    expect(f.sent().some((m) => m.id === 2)).toBe(false); // the view waits

    // Keyboard: the buttons are reachable and work with Enter.
    const allow = within(card).getByRole('button', { name: 'Allow' });
    allow.focus();
    await user.keyboard('{Enter}');
    const answer = await f.answer(2);
    expect(answer.result).toEqual({ content: [{ type: 'text', text: '2026-03-07T10:05:00.000Z' }], isError: false });
    expect(appCalls()[1]).toEqual({ connection_id: 'mcp-conn-app', tool: 'get-time', arguments: { zone: 'UTC' }, approved: true, confirm_read_only: false });
    expect(within(view).queryByTestId('mcp-app-approval')).toBeNull();
  });

  it('Deny answers the view that the user declined, and runs nothing', async () => {
    const user = userEvent.setup();
    api.route('POST /api/v1/chat/apps/call', () => jsonResponse(409, { code: 'approval_required', detail: 'This tool needs your approval.' }));
    const view = await replyWithView(user);
    const f = await initializedView();
    f.fromView(callRequest(2));
    await user.click(within(await within(view).findByTestId('mcp-app-approval')).getByRole('button', { name: 'Deny' }));
    const answer = await f.answer(2);
    expect(answer.result).toEqual({ content: [{ type: 'text', text: 'The user declined.' }], isError: true });
    expect(appCalls()).toHaveLength(1);
    expect(within(view).queryByTestId('mcp-app-approval')).toBeNull();
  });

  it("a read-only tool runs at once; a refusal reaches the view as an error result with the server's detail", async () => {
    const user = userEvent.setup();
    api.route('POST /api/v1/chat/apps/call', (req) =>
      (req.body as { tool: string }).tool === 'get-time'
        ? jsonResponse(200, { result: { content: [{ type: 'text', text: 'now' }], structuredContent: { t: 1 } } })
        : jsonResponse(403, { code: 'forbidden', detail: 'You turned this tool off.' }),
    );
    const view = await replyWithView(user);
    const f = await initializedView();
    f.fromView(callRequest(2));
    expect((await f.answer(2)).result).toEqual({ content: [{ type: 'text', text: 'now' }], structuredContent: { t: 1 } });
    f.fromView(callRequest(3, 'revoked-tool'));
    expect((await f.answer(3)).result).toEqual({ content: [{ type: 'text', text: 'You turned this tool off.' }], isError: true });
    expect(within(view).queryByTestId('mcp-app-approval')).toBeNull();
  });

  it("a tab that asks before read-only tools asks for its views' calls too", async () => {
    const user = userEvent.setup();
    api.route('POST /api/v1/chat/apps/call', () => jsonResponse(200, { result: { content: [{ type: 'text', text: 'now' }] } }));
    await replyWithView(user);
    const f = await initializedView();
    act(() => chatStore.setConfirmReadOnly(true));
    f.fromView(callRequest(2));
    await f.answer(2);
    expect(appCalls()).toEqual([{ connection_id: 'mcp-conn-app', tool: 'get-time', arguments: {}, approved: false, confirm_read_only: true }]);
  });

  it("a view's follow-up message goes into the message box, never sent, and a toast says so", async () => {
    const user = userEvent.setup();
    await replyWithView(user);
    const f = await initializedView();
    const sentBefore = api.callsTo('POST', '/api/v1/mcp-connections/message').length;
    f.fromView({ jsonrpc: '2.0', id: 5, method: 'ui/message', params: { role: 'user', content: [{ type: 'text', text: 'What time is it in Tokyo?' }] } });
    expect((await f.answer(5)).result).toEqual({});
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('What time is it in Tokyo?'));
    expect(await screen.findByText('The view suggested a message')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/v1/mcp-connections/message')).toHaveLength(sentBefore);

    // What the user typed stays; the suggestion comes after it.
    await user.type(screen.getByRole('textbox', { name: 'Message' }), ' Also');
    f.fromView({ jsonrpc: '2.0', id: 6, method: 'ui/message', params: { role: 'user', content: [{ type: 'text', text: 'And in Paris?' }] } });
    await f.answer(6);
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('What time is it in Tokyo? Also\n\nAnd in Paris?'));
  });

  it('a link the view wants opened names its host and opens in a new tab only on Open; Dismiss answers an error', async () => {
    const user = userEvent.setup();
    const open = vi.fn(() => null);
    vi.stubGlobal('open', open);
    const view = await replyWithView(user);
    const f = await initializedView();
    f.fromView({ jsonrpc: '2.0', id: 7, method: 'ui/open-link', params: { url: 'https://modelcontextprotocol.io/docs?x=1' } });
    const card = await within(view).findByTestId('mcp-app-link');
    expect(card).toHaveTextContent('The view wants to open modelcontextprotocol.io');
    expect(open).not.toHaveBeenCalled();
    await user.click(within(card).getByRole('button', { name: 'Open' }));
    expect(open).toHaveBeenCalledExactlyOnceWith('https://modelcontextprotocol.io/docs?x=1', '_blank', 'noopener,noreferrer');
    expect((await f.answer(7)).result).toEqual({});

    f.fromView({ jsonrpc: '2.0', id: 8, method: 'ui/open-link', params: { url: 'https://example.com/' } });
    await user.click(within(await within(view).findByTestId('mcp-app-link')).getByRole('button', { name: 'Dismiss' }));
    expect((await f.answer(8)).result).toEqual({ isError: true });
    // Not a web page: refused without asking.
    f.fromView({ jsonrpc: '2.0', id: 9, method: 'ui/open-link', params: { url: 'javascript:alert(1)' } });
    expect((await f.answer(9)).result).toEqual({ isError: true });
    expect(within(view).queryByTestId('mcp-app-link')).toBeNull();
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('drops and counts what is not JSON-RPC, unknown methods and requests over the rate, answering errors', async () => {
    const user = userEvent.setup();
    api.route('POST /api/v1/chat/apps/call', () => jsonResponse(200, { result: { content: [{ type: 'text', text: 'ok' }] } }));
    const view = await replyWithView(user);
    const f = await initializedView();
    f.fromView('not json-rpc');
    f.fromView({ hello: 'world' });
    await waitFor(() => expect(view).toHaveAttribute('data-dropped', '2'));
    f.fromView({ jsonrpc: '2.0', id: 40, method: 'ui/update-model-context', params: { content: [] } });
    expect((await f.answer(40)).error).toMatchObject({ code: -32601 });
    await waitFor(() => expect(view).toHaveAttribute('data-dropped', '3'));

    for (let i = 0; i < 21; i++) f.fromView(callRequest(100 + i));
    expect((await f.answer(120)).result).toEqual({ content: [{ type: 'text', text: 'This view made too many tool calls. Wait a minute, then try again.' }], isError: true });
    await waitFor(() => expect(appCalls()).toHaveLength(20));
    expect(view).toHaveAttribute('data-dropped', '4');

    for (let i = 0; i < 11; i++) f.fromView({ jsonrpc: '2.0', id: 200 + i, method: 'ui/message', params: { role: 'user', content: [{ type: 'text', text: `m${i}` }] } });
    expect((await f.answer(210)).result).toEqual({ isError: true });
    await waitFor(() => expect(view).toHaveAttribute('data-dropped', '5'));
  });

  it('after a reload the view is shown again with the same input and result, read back from the conversation', async () => {
    const user = userEvent.setup();
    const { unmount } = renderApp('/llm-chat');
    await user.type(await input(), 'use get-time{Enter}');
    await screen.findByTestId('mcp-app-frame');
    unmount();
    act(() => resetChatStoreForTests());
    localStorage.clear(); // the conversation comes back from the server, not from this browser's copy

    renderApp('/llm-chat');
    const f = await initializedView();
    expect(f.sent().find((m) => m.method === 'ui/notifications/tool-input')!.params).toEqual({ arguments: { zone: 'UTC' } });
    expect(f.sent().find((m) => m.method === 'ui/notifications/tool-result')!.params).toEqual({
      content: [{ type: 'text', text: '2026-03-07T10:00:00.000Z' }],
      structuredContent: { time: '2026-03-07T10:00:00.000Z' },
      isError: false,
    });
  });

  it('in StrictMode (effects run twice) one bridge answers the view, once', async () => {
    const user = userEvent.setup();
    renderApp('/llm-chat', { strict: true });
    await user.type(await input(), 'use get-time{Enter}');
    const f = await initializedView();
    expect(f.sent().filter((m) => m.id === 1)).toHaveLength(1);
    expect(f.sent().filter((m) => m.method === 'ui/notifications/sandbox-resource-ready')).toHaveLength(1);
    expect(f.sent().filter((m) => m.method === 'ui/notifications/tool-input')).toHaveLength(1);
    expect(f.sent().filter((m) => m.method === 'ui/notifications/tool-result')).toHaveLength(1);
  });

  it('tells the view it is going when its block leaves the page', async () => {
    const user = userEvent.setup();
    const { unmount } = renderApp('/llm-chat');
    await user.type(await input(), 'use get-time{Enter}');
    const f = await initializedView();
    unmount();
    expect(f.sent().some((m) => m.method === 'ui/resource-teardown')).toBe(true);
  });
});
