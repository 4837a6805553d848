// Tool approvals: a reply paused for the user's decision on a
// tool call holds new messages in its tab back until it is answered or
// expires; the decision resumes the same reply in the same message.

import type { ApprovalDecision, StreamRequest } from '../api/chat-stream';
import type { StreamError } from '../api/frames';
import { approvalExpired, awaitingApproval } from '../state/message-parts';
import type { ChatMessage } from '../state/types';
import { heldTarget, resumeFailed, setSending, settleReply, streamReply, tabTarget } from './reply';
import { dispatch, findMessage, track, type Session } from './session';

/** The reply in the tab still waiting for an answer; expired ones are closed on the way. */
export function openApproval(s: Session, tabId: string): ChatMessage | undefined {
  dispatch(s, { type: 'expireApprovals', tabId, nowMs: Date.now() });
  return awaitingApproval(s.snap.state.conversations[tabId] ?? [], Date.now());
}

/**
 * The user's decision on the tool call a reply paused for: the rest of the
 * same reply streams into the same message. A token the server no longer
 * knows (404/409: unknown, used or expired) ends the reply with its detail
 * on the card; a refusal before the stream started (a limit, a network
 * failure) leaves the card to try again.
 */
export async function answerApproval(s: Session, tabId: string, messageId: string, decision: ApprovalDecision): Promise<boolean> {
  const message = findMessage(s, tabId, messageId);
  const approval = message?.approval;
  if (!message || !approval || approval.status !== 'pending' || message.complete || s.snap.sending[tabId]) return false;
  if (approvalExpired(approval, Date.now())) {
    dispatch(s, { type: 'expireApprovals', tabId, nowMs: Date.now() });
    return false;
  }
  const target = heldTarget(tabId, messageId, approval) ?? (await tabTarget(s, tabId, messageId, () => findMessage(s, tabId, messageId)?.approval?.status === 'pending' && !s.snap.sending[tabId]));
  if (!target) return false;
  setSending(s, tabId, true);
  dispatch(s, { type: 'answerApproval', tabId, messageId, decision });
  const request: StreamRequest = {
    connection_id: target.connectionId,
    message: '',
    model: target.model,
    context: [],
    // History keeps no token: a pause read back from it is answered by its id.
    approval: approval.token ? { token: approval.token, decision } : { id: approval.id ?? '', decision },
  };
  const controller = new AbortController();
  const untrack = track(s, tabId, controller);
  let started = false;
  try {
    const result = await streamReply(s, target, request, controller.signal, () => (started = true));
    settleReply(s, target, result);
    return true;
  } catch (error) {
    const refused = (e: StreamError) => ({ type: 'approvalRefused', tabId, messageId, detail: e.detail || e.message }) as const;
    resumeFailed(s, target, error, started, refused, { type: 'approvalNotAnswered', tabId, messageId });
    return false;
  } finally {
    untrack();
    setSending(s, tabId, false);
  }
}
