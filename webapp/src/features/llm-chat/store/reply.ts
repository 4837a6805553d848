// Streaming a reply into its message, shared by a new message (sending.ts)
// and a reply resumed after a tool approval (approvals.ts): text, tool
// calls, results and notes are applied as they come; the end is either a
// pause (the approval or a server's question is kept with the message) or completion with the
// reply's usage. Also the tab's "sending" flag both of them hold meanwhile.

import { isAbortError, streamChatMessage, type StreamOptions, type StreamRequest, type StreamResult } from '../api/chat-stream';
import { StreamError } from '../api/frames';
import type { ChatAction } from '../state/chat-state';
import { approvalFrom, elicitationFrom, signinFrom, toolCallInput } from '../state/message-parts';
import { messageUsage } from '../usage';
import { connectTo } from './connections';
import { dispatch, findTab, setSnap, type Session } from './session';
import { chatError, streamFailure } from './toasts';

/** Where a reply streams to, and what it needs to resume after a pause. */
export interface ReplyTarget {
  tabId: string;
  messageId: string;
  connectionId: string;
  model: string;
  demo: boolean;
}

/** Marks a tab as sending (connect + stream) or not. */
export function setSending(s: Session, tabId: string, on: boolean): void {
  if (on === Boolean(s.snap.sending[tabId])) return;
  const sending = { ...s.snap.sending };
  if (on) sending[tabId] = true;
  else delete sending[tabId];
  setSnap(s, { sending });
}

export { approvalFrom };

/** Streams into the target message; `started` is told whenever a frame arrives. */
export function streamReply(
  s: Session,
  target: ReplyTarget,
  request: StreamRequest,
  signal: AbortSignal,
  started: () => void,
  extra: Pick<StreamOptions, 'onMessageIds'> = {},
): Promise<StreamResult> {
  return streamChatMessage(request, { signal, ...extra, ...replyHandlers(s, target, started) });
}

/** The stream callbacks that apply a reply's frames to its message; `started` is told whenever one arrives. */
export function replyHandlers(
  s: Session,
  target: ReplyTarget,
  started: () => void,
): Pick<StreamOptions, 'onContent' | 'onToolCall' | 'onToolResult' | 'onNotice' | 'onElicitation' | 'onToolProgress' | 'onToolLog'> {
  const { tabId, messageId } = target;
  return {
    onContent: (chunk) => {
      started();
      dispatch(s, { type: 'appendContent', tabId, messageId, chunk });
    },
    onToolCall: (call) => {
      started();
      dispatch(s, {
        type: 'toolCall',
        tabId,
        messageId,
        call: toolCallInput(call),
      });
    },
    onToolResult: (result) => {
      started();
      dispatch(s, { type: 'toolResult', tabId, messageId, result });
    },
    onNotice: (text) => {
      started();
      dispatch(s, { type: 'notice', tabId, messageId, text });
    },
    onElicitation: (question) => {
      started();
      // Asked while this stream is open; if the stream ends right after it, settleReply makes it a pause.
      dispatch(s, { type: 'askElicitation', tabId, messageId, elicitation: elicitationFrom(question, target, true) });
    },
    onToolProgress: (progress) => {
      started();
      dispatch(s, { type: 'toolProgress', tabId, messageId, progress });
    },
    onToolLog: (log) => {
      started();
      dispatch(s, { type: 'toolLog', tabId, messageId, log });
    },
  };
}

/**
 * The stream ended: paused for an approval (the message stays open), or
 * complete with its usage (stopped, when the user pressed Stop).
 */
export function settleReply(s: Session, target: ReplyTarget, result: StreamResult): void {
  const { tabId, messageId } = target;
  const stopped = s.stopping.delete(messageId);
  if (result.approval) {
    dispatch(s, { type: 'pauseForApproval', tabId, messageId, approval: approvalFrom(result.approval, target) });
    return;
  }
  if (result.signin) {
    // A call's server wants the user to sign in again: the reply waits (Sign in, then it resumes).
    dispatch(s, { type: 'pauseForSignIn', tabId, messageId, signin: signinFrom(result.signin, target) });
    return;
  }
  if (result.elicitation) {
    // The stream ended on a server's question: the reply waits for the answer (a new POST resumes it).
    dispatch(s, { type: 'pauseForElicitation', tabId, messageId, elicitation: elicitationFrom(result.elicitation, target, false) });
    return;
  }
  const usage = result.usage ? messageUsage(result.usage, target.demo || result.usage.demo === true) : undefined;
  dispatch(s, { type: 'completeMessage', tabId, messageId, usage, ...(stopped ? { stopped } : {}) });
}

/**
 * The connection a paused reply was paused on, as its target; null when it
 * does not say (read back from history, or paused on another device). Read
 * without a wait, so the answer is marked before a second click can send it.
 */
export function heldTarget(tabId: string, messageId: string, held: Pick<ReplyTarget, 'connectionId' | 'model' | 'demo'>): ReplyTarget | null {
  return held.connectionId ? { tabId, messageId, connectionId: held.connectionId, model: held.model, demo: held.demo } : null;
}

/**
 * A paused reply whose pause does not name its connection resumes on the
 * tab's own. Null when there is none, the session ended, or `stillPaused`
 * no longer holds once connected.
 */
export async function tabTarget(s: Session, tabId: string, messageId: string, stillPaused: () => boolean): Promise<ReplyTarget | null> {
  const tab = findTab(s, tabId);
  const connection = tab ? await connectTo(s, tab.provider, tab.model) : null;
  if (!connection || s.ended || !stillPaused()) return null;
  return { tabId, messageId, connectionId: connection.id, model: connection.model, demo: connection.demo };
}

/**
 * A resume that failed: a token the server no longer takes (404/409) gets
 * `refused`; a failure before the stream started gets `notAnswered` (the
 * card asks again); one after it ends the reply. Both failures are told in
 * the chat's toast; an abort (Stop, the session ending) says nothing.
 */
export function resumeFailed(
  s: Session,
  target: ReplyTarget,
  error: unknown,
  started: boolean,
  refused: (error: StreamError) => ChatAction,
  notAnswered: ChatAction,
): void {
  if (isAbortError(error) || s.ended) return;
  if (error instanceof StreamError && (error.status === 404 || error.status === 409)) {
    dispatch(s, refused(error));
    return;
  }
  dispatch(s, started ? { type: 'completeMessage', tabId: target.tabId, messageId: target.messageId } : notAnswered);
  chatError(streamFailure(error));
}
