// Streaming a reply into its message, shared by a new message (sending.ts)
// and a reply resumed after a tool approval (approvals.ts): text, tool
// calls, results and notes are applied as they come; the end is either a
// pause (the approval or a server's question is kept with the message) or completion with the
// reply's usage. Also the tab's "sending" flag both of them hold meanwhile.

import { streamChatMessage, type StreamOptions, type StreamRequest, type StreamResult } from '../api/chat-stream';
import { approvalFrom, elicitationFrom, signinFrom } from '../state/message-parts';
import { messageUsage } from '../usage';
import { dispatch, setSnap, type Session } from './session';

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
        call: { id: call.id, serverId: call.server_id, serverName: call.server_name, tool: call.tool, arguments: call.arguments },
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
