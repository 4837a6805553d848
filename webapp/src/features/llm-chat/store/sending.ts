// Sending a message (SPEC §4): connect when needed, add the user's message
// and an empty reply, then stream the reply into it with the conversation
// so far as context and the MCP servers whose tools the model may call.
// The message goes to the tab's server conversation (made first when the
// tab has none): the stream's first frame gives the ids the server
// keeps both under, and the server keeps generating if the page goes.
// A failed reply stays, saying why, with Retry (which sends the same
// message again in its place), and the chat's toast says why too; a reply
// given up (the session over) ends quietly.

import { errorMessage } from '../../../lib/api-client';
import { isAbortError, type StreamRequest } from '../api/chat-stream';
import { StreamError } from '../api/frames';
import { connectionKey } from '../connection';
import { newId } from '../ids';
import { contextFor, createMessage } from '../state/chat-state';
import type { MessageAttachment } from '../state/types';
import { openApproval } from './approvals';
import { connectTo, storeConnection } from './connections';
import { CONVERSATION_FAILED, ensureConversation, updateConversation } from './conversations';
import { setDraft } from './drafts';
import { setSending, settleReply, streamReply, type ReplyTarget } from './reply';
import { dispatch, findTab, nowIso, track, type Session } from './session';
import { requestStop } from './stop';
import { chatError, pauseFirst, streamFailure } from './toasts';

export interface SendOptions {
  /** The tab to send in; the active tab by default. */
  tabId?: string;
  /** Clear the tab's draft once the message is on its way. */
  clearDraft?: boolean;
  /** The MCP tools the model may call: the enabled servers' connection ids (none: no tools offered). */
  tools?: { connectionIds: readonly string[]; confirmReadOnly: boolean };
  /** Retry: the failed message and reply this one takes the place of (removed once it goes). */
  replaces?: readonly string[];
  /** Resources given to the model with the message (shown as chips on it). */
  attachments?: readonly MessageAttachment[];
}

/**
 * Sends `text` (trimmed; nothing when empty, while the tab sends, or while
 * a reply waits for a tool approval). True when the reply arrived.
 */
export async function send(s: Session, text: string, options: SendOptions): Promise<boolean> {
  const tabId = options.tabId ?? s.snap.state.activeTabId;
  const message = text.trim();
  if (!message || s.snap.sending[tabId]) return false;
  const waiting = openApproval(s, tabId);
  if (waiting) {
    chatError(pauseFirst(waiting));
    return false;
  }
  setSending(s, tabId, true);
  try {
    const tabAtStart = findTab(s, tabId);
    if (!tabAtStart) return false;
    const conversation = ensureConversation(s, tabId).catch((error: unknown) => {
      if (!s.ended) chatError(errorMessage(error, CONVERSATION_FAILED));
      return null;
    });
    const [connection, conversationId] = await Promise.all([connectTo(s, tabAtStart.provider, tabAtStart.model), conversation]);
    const tab = findTab(s, tabId);
    if (!connection || !conversationId || !tab || s.ended) return false;

    const context = contextFor(s.snap.state.conversations[tabId] ?? []);
    for (const id of options.replaces ?? []) dispatch(s, { type: 'removeMessage', tabId, messageId: id });
    const now = nowIso();
    const userId = newId('msg');
    const assistantId = newId('msg');
    const attachments = options.attachments ?? [];
    const userMessage = createMessage(userId, 'user', message, now, true);
    dispatch(s, { type: 'addMessage', tabId, message: attachments.length > 0 ? { ...userMessage, attachments: [...attachments] } : userMessage });
    if (options.clearDraft) setDraft(s, '', tabId);
    dispatch(s, { type: 'addMessage', tabId, message: createMessage(assistantId, 'assistant', '', now, false) });
    // The first message names the tab: the conversation too.
    const title = findTab(s, tabId)?.title;
    if (title !== undefined && title !== tab.title) void updateConversation(s, tabId, { title });

    const request: StreamRequest = { connection_id: connection.id, message, model: connection.model, context, conversation_id: conversationId };
    // The server runs the message as the tab's agent (its instructions, model and allowed tools).
    if (tab.agent) request.agent_id = tab.agent.id;
    const ids = options.tools?.connectionIds ?? [];
    if (ids.length > 0) {
      request.mcp_connection_ids = [...ids];
      request.confirm_read_only = options.tools?.confirmReadOnly ?? false;
    }
    if (attachments.length > 0) request.attachments = attachments.map((a) => ({ connection_id: a.connection_id, uri: a.uri, name: a.name }));
    const target: ReplyTarget = { tabId, messageId: assistantId, connectionId: connection.id, model: connection.model, demo: connection.demo };
    const controller = new AbortController();
    const untrack = track(s, tabId, controller);
    const onMessageIds = (ids: { user: string; assistant: string }) => {
      if (ids.user) dispatch(s, { type: 'setServerId', tabId, messageId: userId, serverId: ids.user });
      if (!ids.assistant) return;
      dispatch(s, { type: 'setServerId', tabId, messageId: assistantId, serverId: ids.assistant });
      // Stop was pressed before the server had named the reply.
      if (s.stopping.has(assistantId)) void requestStop(s, tabId, assistantId);
    };
    try {
      const result = await streamReply(s, target, request, controller.signal, () => undefined, { onMessageIds });
      settleReply(s, target, result);
      return true;
    } catch (error) {
      if (isAbortError(error) || s.ended) return false;
      s.stopping.delete(assistantId);
      // The reply stays, saying why (with what arrived: tool calls that ran, text), with Retry.
      dispatch(s, { type: 'failMessage', tabId, messageId: assistantId, error: streamFailure(error) });
      if (error instanceof StreamError && error.status === 404) {
        if (/conversation/i.test(error.detail ?? '')) {
          // Deleted elsewhere: Retry makes a new conversation for the tab.
          dispatch(s, { type: 'forgetConversation', tabId });
        } else {
          // The server forgot the connection: connect afresh next time.
          storeConnection(s, connectionKey(tab.provider, tab.model), null);
        }
      }
      chatError(streamFailure(error));
      return false;
    } finally {
      untrack();
    }
  } finally {
    setSending(s, tabId, false);
  }
}

/**
 * Retry of a failed reply (the tab's last message): the message it answered
 * is sent again, the pair taking the old one's place.
 */
export function retry(s: Session, tabId: string, messageId: string, options: Omit<SendOptions, 'tabId' | 'replaces'>): Promise<boolean> {
  const list = s.snap.state.conversations[tabId] ?? [];
  const at = list.findIndex((m) => m.id === messageId);
  const reply = list[at];
  const question = list[at - 1];
  if (!reply?.error || at !== list.length - 1 || question?.role !== 'user' || s.snap.sending[tabId]) return Promise.resolve(false);
  return send(s, question.content, { ...options, tabId, replaces: [question.id, reply.id], attachments: question.attachments });
}
