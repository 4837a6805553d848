// The host side of one tool view, on the extension's own host library
// (AppBridge over PostMessageTransport). Loaded only when a view renders
// (mcp-app-view.tsx imports it lazily): the chat's first load stays as it was.
//
// The frame is the sandbox proxy (/mcp-app-sandbox.html, an opaque origin):
// it announces itself, is handed the view's HTML and declared domains, and
// relays the view's JSON-RPC both ways. The bridge has no MCP client: the
// browser never talks to the server; the view's tool calls, follow-up
// messages and links are the handlers' to allow, ask about or refuse.

import { AppBridge, buildAllowAttribute, PostMessageTransport, type McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { AppToolResult, AppView } from './api';

export { buildAllowAttribute };

/** An MCP CallToolResult in the library's own type (our wire type is looser: the server's result as sent). */
type CallResult = Parameters<AppBridge['sendToolResult']>[0];

/** What the chat tells a view of itself. */
const HOST_INFO = { name: 'AI Work chat', version: '1.0.0' };

/** JSON-RPC's "method not found": what a view gets for a request the chat does not serve. */
const METHOD_NOT_FOUND = -32601;

/** Messages one view may send in `FLOOD_WINDOW_MS` before the rest are dropped unread. */
export const FLOOD_LIMIT = 200;
export const FLOOD_WINDOW_MS = 10_000;

export interface ViewHandlers {
  /** The view finished its handshake: it may be sent the call's input and result now. */
  initialized: () => void;
  /** The view asks for this height (CSS pixels, unclamped). */
  size: (height: number) => void;
  /** The view calls a tool of its server. */
  callTool: (name: string, args: Record<string, unknown>) => Promise<AppToolResult>;
  /** The view suggests a follow-up message (its text blocks). */
  message: (text: string) => Promise<{ isError?: boolean }>;
  /** The view asks to open a link. */
  openLink: (url: string) => Promise<{ isError?: boolean }>;
  /** A message of the view's was dropped: not JSON-RPC, an unknown method, or over a limit. */
  dropped: () => void;
}

/** One connected view: what the chat sends it, and its end. */
export interface ViewConnection {
  sendInput: (args: Record<string, unknown>) => void;
  sendResult: (result: AppToolResult) => void;
  sendCancelled: (reason: string) => void;
  setHostContext: (context: McpUiHostContext) => void;
  /** Tells the view it is going (ui/resource-teardown), then stops listening. */
  close: () => void;
}

/** The text of a follow-up message's content blocks ('' when it has none). */
export function messageText(content: readonly unknown[]): string {
  return content
    .map((b) => (typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'text' ? String((b as { text?: unknown }).text ?? '') : ''))
    .filter((t) => t.trim() !== '')
    .join('\n\n');
}

/**
 * Drops, before the bridge reads them, the frame's messages that are not
 * JSON-RPC 2.0 objects or come faster than FLOOD_LIMIT a FLOOD_WINDOW_MS.
 * Registered ahead of the transport's listener, it stops them there.
 */
function gate(frameWindow: Window, dropped: () => void): () => void {
  const times: number[] = [];
  const listener = (event: MessageEvent) => {
    if (event.source !== frameWindow) return;
    const now = Date.now();
    while (times.length > 0 && times[0] <= now - FLOOD_WINDOW_MS) times.shift();
    const data: unknown = event.data;
    const valid = typeof data === 'object' && data !== null && (data as { jsonrpc?: unknown }).jsonrpc === '2.0';
    if (valid && times.length < FLOOD_LIMIT) {
      times.push(now);
      return;
    }
    event.stopImmediatePropagation();
    dropped();
  };
  window.addEventListener('message', listener);
  return () => window.removeEventListener('message', listener);
}

/**
 * Connects a bridge to `frame` (the sandbox proxy, not loaded yet: the
 * caller points it at the proxy page once this resolves, so the proxy's
 * first message finds the bridge listening).
 */
export async function connectView(frame: HTMLIFrameElement, view: AppView, context: McpUiHostContext, on: ViewHandlers): Promise<ViewConnection> {
  const frameWindow = frame.contentWindow;
  if (!frameWindow) throw new Error('The view frame is not in the page.');
  const bridge = new AppBridge(null, HOST_INFO, { serverTools: {}, openLinks: {}, message: { text: {} } }, { hostContext: context });

  bridge.onsandboxready = () => {
    void bridge.sendSandboxResourceReady({ html: view.html, csp: view.csp, permissions: view.permissions });
  };
  bridge.addEventListener('initialized', () => on.initialized());
  bridge.addEventListener('sizechange', ({ height }) => {
    if (typeof height === 'number') on.size(height);
  });
  // Log lines and a view's wish to be closed are allowed, and not shown.
  bridge.addEventListener('loggingmessage', () => undefined);
  bridge.addEventListener('requestteardown', () => undefined);
  bridge.oncalltool = async (params) => (await on.callTool(params.name, (params.arguments ?? {}) as Record<string, unknown>)) as CallResult;
  bridge.onmessage = async (params) => on.message(messageText(params.content));
  bridge.onopenlink = async (params) => on.openLink(params.url);
  // Anything else the view asks for (model context, downloads, sampling…) this chat does not offer.
  bridge.fallbackRequestHandler = async () => {
    on.dropped();
    throw Object.assign(new Error('Method not found'), { code: METHOD_NOT_FOUND });
  };
  bridge.fallbackNotificationHandler = async () => on.dropped();
  // Malformed JSON-RPC, answers to requests never sent: dropped, and counted.
  bridge.onerror = () => on.dropped();

  const ungate = gate(frameWindow, on.dropped);
  try {
    await bridge.connect(new PostMessageTransport(frameWindow, frameWindow));
  } catch (err) {
    ungate();
    throw err;
  }

  let open = true;
  const send = (p: Promise<unknown>) => void p.catch(() => undefined);
  return {
    sendInput: (args) => open && send(bridge.sendToolInput({ arguments: args })),
    sendResult: (result) => open && send(bridge.sendToolResult(result as CallResult)),
    sendCancelled: (reason) => open && send(bridge.sendToolCancelled({ reason })),
    setHostContext: (next) => open && bridge.setHostContext(next),
    close: () => {
      if (!open) return;
      open = false;
      ungate();
      // The frame goes with its block: the view is told, but not waited for.
      send(bridge.teardownResource({}, { timeout: 1000 }).finally(() => bridge.close()));
    },
  };
}
