// A tool's view (MCP Apps) under its call in the tool block: the server's
// `ui://` resource, read through the chat function, rendered in a sandboxed
// frame (the sandbox proxy page, allow-scripts only: an opaque origin with
// no reach into the chat's cookies, storage, tokens or DOM), sized to what
// the view asks within limits. It is sent the call's arguments and result
// (from the reply's frames, so also when read back from history). What it
// asks of the chat goes through here: its tool calls as the model's do (a
// call needing approval shows a card in this block), a follow-up message
// into the message box (never sent by itself), a link only on a click.
// The host library loads with the first view (bridge.ts, lazily).

import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { safeHref } from '../../../lib/safe-href';
import type { ToolBlock } from '../state/types';
import { chatStore } from '../store/chat-store';
import { formatArguments } from '../tools/tool-content';
import { callAppTool, fetchAppView, needsApproval, type AppToolResult, type AppView } from './api';
import type { ViewConnection, ViewHandlers } from './bridge';
import { hostContext } from './host-context';
import { clampViewHeight, RateWindow, VIEW_REQUESTS_PER_MINUTE, VIEW_START_HEIGHT, VIEW_TOOL_CALLS_PER_MINUTE } from './limits';
import { VIEW_LOADING, type ViewBlock } from './shows-view';

/** The sandbox proxy page (webapp/public), served with its own CSP. */
export const SANDBOX_PATH = '/mcp-app-sandbox.html';

export const VIEW_UNAVAILABLE = 'This view is no longer available.';
export const VIEW_DECLINED = 'The user declined.';
export const VIEW_TOO_MANY_CALLS = 'This view made too many tool calls. Wait a minute, then try again.';
const NO_ANSWER = 'The server did not answer.';

let bridgeModule: Promise<typeof import('./bridge')> | undefined;
/** The host library, loaded once, with the first view. */
const loadBridge = () => (bridgeModule ??= import('./bridge'));

const errorResult = (text: string): AppToolResult => ({ content: [{ type: 'text', text }], isError: true });

function failure(err: unknown): string {
  if (err instanceof ApiError) return err.fromServer && err.detail ? err.detail : err.status === 0 ? err.detail : NO_ANSWER;
  return err instanceof Error && err.message ? err.message : NO_ANSWER;
}

/** The call's arguments as a view takes them (an object; anything else the model wrote is left out). */
const argumentsObject = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** The call's result as the view is sent it: content, structured content, and whether it failed. */
export function resultFor(block: ToolBlock): AppToolResult {
  const result: AppToolResult = { content: block.result ?? [], isError: block.state === 'failed' };
  const sc = block.structuredContent;
  if (typeof sc === 'object' && sc !== null && !Array.isArray(sc)) result.structuredContent = sc as Record<string, unknown>;
  return result;
}

interface Ask {
  id: number;
  tool: string;
  args: Record<string, unknown>;
  decide: (allow: boolean) => void;
}

interface LinkAsk {
  id: number;
  url: string;
  host: string;
  decide: (open: boolean) => void;
}

type ViewState = { status: 'loading' } | { status: 'unavailable'; reason: string } | { status: 'ready'; view: AppView; allow: string };

interface McpAppViewProps {
  block: ViewBlock;
  /** The reply the block is in (a suggested message goes to its tab's message box). */
  messageId: string;
}

export function McpAppView({ block, messageId }: McpAppViewProps) {
  const { connectionId, uiResourceUri: uri } = block;
  const [state, setState] = useState<ViewState>({ status: 'loading' });
  const [height, setHeight] = useState(VIEW_START_HEIGHT);
  const [dropped, setDropped] = useState(0);
  const [initialized, setInitialized] = useState(false);
  const [asks, setAsks] = useState<Ask[]>([]);
  const [links, setLinks] = useState<LinkAsk[]>([]);
  const frameRef = useRef<HTMLIFrameElement>(null);
  const connection = useRef<ViewConnection | null>(null);
  const sent = useRef({ input: false, result: false });
  const nextId = useRef(0);
  // What the handlers read: the latest props, not those of the render that connected.
  const latest = useRef({ block, messageId });
  latest.current = { block, messageId };

  const drop = useCallback(() => setDropped((n) => n + 1), []);

  // The view's resource and the host library, together.
  useEffect(() => {
    const abort = new AbortController();
    setState({ status: 'loading' });
    Promise.all([fetchAppView(connectionId, uri, abort.signal), loadBridge()]).then(
      ([view, bridge]) => {
        if (!abort.signal.aborted) setState({ status: 'ready', view, allow: bridge.buildAllowAttribute(view.permissions) });
      },
      (err: unknown) => {
        if (!abort.signal.aborted) setState({ status: 'unavailable', reason: failure(err) });
      },
    );
    return () => abort.abort();
  }, [connectionId, uri]);

  const view = state.status === 'ready' ? state.view : null;

  // The frame is in the page: connect the bridge, then load the sandbox proxy into it.
  useEffect(() => {
    const frame = frameRef.current;
    if (!view || !frame) return;
    let gone = false;
    sent.current = { input: false, result: false };
    setInitialized(false);
    const toolCalls = new RateWindow(VIEW_TOOL_CALLS_PER_MINUTE);
    const requests = new RateWindow(VIEW_REQUESTS_PER_MINUTE);

    const ask = (tool: string, args: Record<string, unknown>) =>
      new Promise<boolean>((resolve) => {
        const id = nextId.current++;
        setAsks((list) => [...list, { id, tool, args, decide: (allow) => (setAsks((l) => l.filter((a) => a.id !== id)), resolve(allow)) }]);
      });

    const callTool = async (tool: string, args: Record<string, unknown>): Promise<AppToolResult> => {
      if (!toolCalls.take()) {
        drop();
        return errorResult(VIEW_TOO_MANY_CALLS);
      }
      // As the model's calls in this tab: asking before read-only tools too when the tab says so.
      const confirmReadOnly = chatStore.confirmsReadOnly(latest.current.messageId);
      try {
        return await callAppTool(connectionId, tool, args, { approved: false, confirmReadOnly });
      } catch (err) {
        if (!needsApproval(err)) return errorResult(failure(err));
      }
      if (!(await ask(tool, args))) return errorResult(VIEW_DECLINED);
      try {
        return await callAppTool(connectionId, tool, args, { approved: true, confirmReadOnly });
      } catch (err) {
        return errorResult(failure(err));
      }
    };

    const message = async (text: string) => {
      if (!requests.take()) {
        drop();
        return { isError: true };
      }
      return text && chatStore.suggestMessage(latest.current.messageId, text) ? {} : { isError: true };
    };

    const openLink = async (raw: string) => {
      if (!requests.take()) {
        drop();
        return { isError: true };
      }
      const url = safeHref(raw);
      if (!url) return { isError: true };
      const opened = await new Promise<boolean>((resolve) => {
        const id = nextId.current++;
        setLinks((list) => [...list, { id, url, host: new URL(url).host, decide: (open) => (setLinks((l) => l.filter((a) => a.id !== id)), resolve(open)) }]);
      });
      if (opened) window.open(url, '_blank', 'noopener,noreferrer');
      return opened ? {} : { isError: true };
    };

    const handlers: ViewHandlers = {
      initialized: () => !gone && setInitialized(true),
      size: (h) => {
        const next = clampViewHeight(h);
        if (next !== null && !gone) setHeight(next);
      },
      callTool,
      message,
      openLink,
      dropped: () => !gone && drop(),
    };
    loadBridge()
      .then(({ connectView }) => (gone ? null : connectView(frame, view, hostContext(), handlers)))
      .then(
        (conn) => {
          if (!conn) return;
          if (gone) return conn.close();
          connection.current = conn;
          frame.src = SANDBOX_PATH;
        },
        (err: unknown) => {
          if (!gone) setState({ status: 'unavailable', reason: failure(err) });
        },
      );
    return () => {
      gone = true;
    };
  }, [view, connectionId, drop]);

  // The block goes: the view is told (while its frame is still in the page), and its asks are refused.
  useLayoutEffect(
    () => () => {
      connection.current?.close();
      connection.current = null;
    },
    [view],
  );

  // After the handshake: the call's arguments, then its result once it came (or that it never will).
  const { result, state: callState, structuredContent, arguments: args } = block;
  useEffect(() => {
    const conn = connection.current;
    if (!initialized || !conn) return;
    if (!sent.current.input) {
      sent.current.input = true;
      conn.sendInput(argumentsObject(args));
    }
    if (sent.current.result) return;
    if (result && (callState === 'done' || callState === 'failed')) {
      sent.current.result = true;
      conn.sendResult(resultFor(latest.current.block));
    } else if (callState === 'interrupted') {
      sent.current.result = true;
      conn.sendCancelled('The call was interrupted.');
    }
  }, [initialized, result, callState, structuredContent, args]);

  // The chat's theme changes: the view is told its new colours.
  useEffect(() => {
    if (!initialized || typeof MutationObserver === 'undefined') return;
    const observer = new MutationObserver(() => connection.current?.setHostContext(hostContext()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, [initialized]);

  const title = `${block.serverName || 'Server'} view: ${block.tool || 'tool'}`;
  const border = state.status === 'ready' && state.view.prefersBorder === false ? ' chat-app--borderless' : '';
  return (
    <div className={`chat-app${border}`} data-testid="mcp-app-view" data-state={state.status} data-dropped={dropped}>
      {state.status === 'loading' ? (
        <p className="chat-app__note" role="status">
          <span className="chat-spinner" aria-hidden="true" />
          {VIEW_LOADING}
        </p>
      ) : state.status === 'unavailable' ? (
        <p className="chat-app__note" role="note" data-testid="mcp-app-unavailable">
          {VIEW_UNAVAILABLE} {state.reason}
        </p>
      ) : (
        <iframe
          ref={frameRef}
          className="chat-app__frame"
          title={title}
          sandbox="allow-scripts"
          allow={state.allow || undefined}
          referrerPolicy="no-referrer"
          style={{ height }}
          data-testid="mcp-app-frame"
        />
      )}
      {asks.map((a) => (
        <ViewApproval key={a.id} ask={a} serverName={block.serverName} />
      ))}
      {links.map((l) => (
        <div key={l.id} role="group" className="chat-app__ask" data-testid="mcp-app-link" aria-label={`The view wants to open ${l.host}`}>
          <p className="chat-tool__ask">
            The view wants to open <strong>{l.host}</strong>
          </p>
          <p className="chat-tool__uri">{l.url}</p>
          <div className="chat-tool__actions">
            <button type="button" className="chat-button chat-button--small chat-button--primary" onClick={() => l.decide(true)}>
              Open
            </button>
            <button type="button" className="chat-button chat-button--small" onClick={() => l.decide(false)}>
              Dismiss
            </button>
          </div>
        </div>
      ))}
    </div>
  );
}

/** A tool call the view made waits for the user: Allow runs it, Deny answers the view that the user declined. */
function ViewApproval({ ask, serverName }: { ask: Ask; serverName: string }) {
  const text = `${serverName || 'The server'} view wants to run ${ask.tool}`;
  return (
    <div role="group" className="chat-app__ask chat-app__ask--approval" data-testid="mcp-app-approval" data-tool={ask.tool} aria-label={text}>
      <p className="chat-tool__ask">
        {serverName || 'The server'} view wants to run <code>{ask.tool}</code>
      </p>
      <details className="chat-tool__section" open>
        <summary>Arguments</summary>
        <pre className="chat-tool__pre" data-testid="tool-arguments">
          {formatArguments(ask.args)}
        </pre>
      </details>
      <div className="chat-tool__actions">
        <button type="button" className="chat-button chat-button--small chat-button--primary" onClick={() => ask.decide(true)}>
          Allow
        </button>
        <button type="button" className="chat-button chat-button--small" onClick={() => ask.decide(false)}>
          Deny
        </button>
      </div>
    </div>
  );
}
