// Sending a message (SPEC §4): connect when needed, add the user's message
// and an empty reply, then stream the reply into it with the conversation
// so far as context and the MCP servers whose tools the model may call.
// A failed reply goes (unless it called tools: that record stays) and the
// chat's toast says why; a reply given up (its tab closed, the session
// over) ends quietly.

import { isAbortError, StreamError, type StreamRequest } from '../api/chat-stream';
import { connectionKey } from '../connection';
import { newId } from '../ids';
import { contextFor, createMessage } from '../state/chat-state';
import { openApproval } from './approvals';
import { connectTo, storeConnection } from './connections';
import { setDraft } from './drafts';
import { setSending, settleReply, streamReply, type ReplyTarget } from './reply';
import { dispatch, findMessage, findTab, nowIso, track, type Session } from './session';
import { APPROVAL_FIRST, chatError, streamFailure } from './toasts';

export interface SendOptions {
  /** The tab to send in; the active tab by default. */
  tabId?: string;
  /** Clear the tab's draft once the message is on its way. */
  clearDraft?: boolean;
  /** The MCP tools the model may call: the enabled servers' connection ids (none: no tools offered). */
  tools?: { connectionIds: readonly string[]; confirmReadOnly: boolean };
}

/**
 * Sends `text` (trimmed; nothing when empty, while the tab sends, or while
 * a reply waits for a tool approval). True when the reply arrived.
 */
export async function send(s: Session, text: string, options: SendOptions): Promise<boolean> {
  const tabId = options.tabId ?? s.snap.state.activeTabId;
  const message = text.trim();
  if (!message || s.snap.sending[tabId]) return false;
  if (openApproval(s, tabId)) {
    chatError(APPROVAL_FIRST);
    return false;
  }
  setSending(s, tabId, true);
  try {
    const tabAtStart = findTab(s, tabId);
    if (!tabAtStart) return false;
    const connection = await connectTo(s, tabAtStart.provider, tabAtStart.model);
    const tab = findTab(s, tabId);
    if (!connection || !tab || s.ended) return false;

    const context = contextFor(s.snap.state.conversations[tabId] ?? []);
    const now = nowIso();
    const assistantId = newId('msg');
    dispatch(s, { type: 'addMessage', tabId, message: createMessage(newId('msg'), 'user', message, now, true) });
    if (options.clearDraft) setDraft(s, '', tabId);
    dispatch(s, { type: 'addMessage', tabId, message: createMessage(assistantId, 'assistant', '', now, false) });

    const request: StreamRequest = { connection_id: connection.id, message, model: connection.model, context };
    const ids = options.tools?.connectionIds ?? [];
    if (ids.length > 0) {
      request.mcp_connection_ids = [...ids];
      request.confirm_read_only = options.tools?.confirmReadOnly ?? false;
    }
    const target: ReplyTarget = { tabId, messageId: assistantId, connectionId: connection.id, model: connection.model, demo: connection.demo };
    const controller = new AbortController();
    const untrack = track(s, tabId, controller);
    try {
      const result = await streamReply(s, target, request, controller.signal, () => undefined);
      settleReply(s, target, result);
      return true;
    } catch (error) {
      if (isAbortError(error) || s.ended) return false;
      // A reply that called tools keeps its record (the calls ran); an empty one goes.
      if (findMessage(s, tabId, assistantId)?.blocks?.length) dispatch(s, { type: 'completeMessage', tabId, messageId: assistantId });
      else dispatch(s, { type: 'removeMessage', tabId, messageId: assistantId });
      // The server forgot the connection (404): connect afresh next time.
      if (error instanceof StreamError && error.status === 404) storeConnection(s, connectionKey(tab.provider, tab.model), null);
      chatError(streamFailure(error));
      return false;
    } finally {
      untrack();
    }
  } finally {
    setSending(s, tabId, false);
  }
}
