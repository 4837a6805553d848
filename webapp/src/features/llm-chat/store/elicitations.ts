// A server's question to the user while one of the reply's tool calls
// runs (MCP elicitation): the card's answer goes to the message route as
// `elicitation`. A reply paused for the question (its stream ended) streams
// on in the answer's own response, as after a tool approval; a question
// asked while the reply's stream stays open is only acknowledged (a JSON
// 202) and that stream carries on.

import { answerElicitation as postAnswer, type ElicitationAction, type StreamRequest } from '../api/chat-stream';
import type { StreamError } from '../api/frames';
import { approvalExpired } from '../state/message-parts';
import { heldTarget, replyHandlers, resumeFailed, setSending, settleReply, tabTarget } from './reply';
import { dispatch, findMessage, track, type Session } from './session';

/** What the card says when the server no longer takes the answer: used or expired (409), or not found (404). */
export const QUESTION_ANSWERED_OR_EXPIRED = 'This question was already answered, or its time ran out.';
export const QUESTION_NOT_FOUND = 'This question is no longer open on the server.';

/**
 * The user's answer to the question a reply's tool call is waiting on. True
 * when the server took it. A refusal of the token (404/409) shows on the
 * card; a failure before the server answered leaves the card to try again.
 */
export async function answerElicitation(
  s: Session,
  tabId: string,
  messageId: string,
  action: ElicitationAction,
  content?: Record<string, unknown>,
): Promise<boolean> {
  const message = findMessage(s, tabId, messageId);
  const question = message?.elicitation;
  if (!message || !question || question.status !== 'pending' || message.complete) return false;
  // A paused reply is resumed by this answer's stream: not while another is on its way in the tab.
  if (!question.live && s.snap.sending[tabId]) return false;
  if (approvalExpired(question, Date.now())) {
    dispatch(s, { type: 'expireApprovals', tabId, nowMs: Date.now() });
    return false;
  }
  const target = heldTarget(tabId, messageId, question) ?? (await tabTarget(s, tabId, messageId, () => findMessage(s, tabId, messageId)?.elicitation?.status === 'pending'));
  if (!target) return false;
  const paused = !question.live;
  if (paused) setSending(s, tabId, true);
  dispatch(s, { type: 'answerElicitation', tabId, messageId, action });
  const answer = { action, ...(action === 'accept' && content ? { content } : {}) };
  const request: StreamRequest = {
    connection_id: target.connectionId,
    message: '',
    model: target.model,
    context: [],
    // History keeps no token: a question read back from it is answered by its id.
    elicitation: question.token ? { token: question.token, ...answer } : { id: question.id ?? '', ...answer },
  };
  const controller = new AbortController();
  const untrack = track(s, tabId, controller);
  let started = false;
  let streaming = false;
  try {
    const result = await postAnswer(request, {
      signal: controller.signal,
      ...replyHandlers(s, target, () => {
        started = true;
        if (!streaming && !paused) {
          // Answered as a stream after all (the pause came as the stream ended): it carries the reply now.
          streaming = true;
          setSending(s, tabId, true);
        }
      }),
    });
    if (result.acknowledged) {
      dispatch(s, { type: 'elicitationAcknowledged', tabId, messageId });
      return true;
    }
    settleReply(s, target, result);
    return true;
  } catch (error) {
    const refused = (e: StreamError) =>
      ({ type: 'elicitationRefused', tabId, messageId, detail: e.status === 409 ? QUESTION_ANSWERED_OR_EXPIRED : QUESTION_NOT_FOUND }) as const;
    resumeFailed(s, target, error, started, refused, { type: 'elicitationNotAnswered', tabId, messageId });
    return false;
  } finally {
    untrack();
    if (paused || streaming) setSending(s, tabId, false);
  }
}
