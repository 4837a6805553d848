// A reply still being generated when the page (re)loads, or on another
// device: the server sends it again from its start (GET …/stream), and it
// goes on streaming into its message as if it had never been left. It ends
// as the reply ends: complete, paused for a tool approval, or failed (its
// error shown with Retry, no toast: nobody is waiting on a send).

import { isAbortError, reattachReply } from '../api/chat-stream';
import type { ToolBlock } from '../state/types';
import { reusableConnection } from './connections';
import { replyHandlers, setSending, settleReply, type ReplyTarget } from './reply';
import { dispatch, findMessage, findTab, track, type Session } from './session';
import { streamFailure } from './toasts';

/** Re-attaches to the reply `messageId` of the tab; true when it ended (complete or paused). */
export async function reattach(s: Session, tabId: string, messageId: string): Promise<boolean> {
  const tab = findTab(s, tabId);
  const message = findMessage(s, tabId, messageId);
  const conversationId = tab?.conversationId;
  const serverId = message?.serverId;
  if (!tab || !conversationId || !message || !serverId || message.complete || s.snap.sending[tabId] || s.ended) return false;
  setSending(s, tabId, true);
  const connection = reusableConnection(s, tab.provider, tab.model);
  const target: ReplyTarget = { tabId, messageId, connectionId: connection?.id ?? '', model: connection?.model ?? tab.model, demo: connection?.demo ?? false };
  // What the message showed: the stream repeats it from the start.
  const before = new Map((message.blocks ?? []).filter((b): b is ToolBlock => b.kind === 'tool').map((b) => [b.id, b]));
  let fresh = true;
  const started = () => {
    if (!fresh) return;
    fresh = false;
    dispatch(s, { type: 'resetReply', tabId, messageId });
  };
  const handlers = replyHandlers(s, target, started);
  const controller = new AbortController();
  const untrack = track(s, tabId, controller);
  try {
    const result = await reattachReply(conversationId, serverId, {
      signal: controller.signal,
      ...handlers,
      onToolResult: (result) => {
        // A call answered after a pause is not repeated as a tool_call: its block comes from what was shown.
        const known = findMessage(s, tabId, messageId)?.blocks?.some((b) => b.kind === 'tool' && b.id === result.id);
        const seen = before.get(result.id);
        if (!known && seen) {
          started();
          dispatch(s, { type: 'toolCall', tabId, messageId, call: { id: seen.id, serverId: seen.serverId, serverName: seen.serverName, tool: seen.tool, arguments: seen.arguments } });
        }
        handlers.onToolResult?.(result);
      },
    });
    settleReply(s, target, result);
    return true;
  } catch (error) {
    if (isAbortError(error) || s.ended) return false;
    s.stopping.delete(messageId);
    dispatch(s, { type: 'failMessage', tabId, messageId, error: streamFailure(error) });
    return false;
  } finally {
    untrack();
    setSending(s, tabId, false);
  }
}
