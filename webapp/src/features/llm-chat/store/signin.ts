// A reply paused until the user signs in to a tool call's server again
// (the tool_signin frame): Sign in leaves for the server's page with the
// scope it asked for and comes back to the chat page, where the reply
// resumes by itself (resumeSignedIn) or on Continue (resumeSignIn), in
// the same message, the call running again.

import type { StreamRequest } from '../api/chat-stream';
import type { StreamError } from '../api/frames';
import { startToolSignIn } from '../api/tool-signin';
import { pausedForSignIn } from '../state/message-parts';
import { heldTarget, resumeFailed, setSending, settleReply, streamReply, tabTarget } from './reply';
import { saveNow } from './save';
import { dispatch, findMessage, track, type Session } from './session';
import { chatError, streamFailure } from './toasts';

/** Where Sign in sends the browser (a test replaces it). */
export const leavePage = { to: (url: string) => window.location.assign(url) };

/** Sign in: the server's authorization page, with the scope the call's server asked for; false when it could not start. */
export async function signIn(s: Session, tabId: string, messageId: string): Promise<boolean> {
  const signin = findMessage(s, tabId, messageId)?.signin;
  if (!signin || !pausedForSignIn({ signin })) return false;
  let url: string;
  try {
    url = await startToolSignIn(signin.serverId, signin.endpointUrl, signin.scope, signin.mcpConnectionId);
  } catch (error) {
    chatError(streamFailure(error));
    return false;
  }
  if (s.ended) return false;
  dispatch(s, { type: 'signInStatus', tabId, messageId, status: 'signing' });
  saveNow(s); // the paused reply is there when the browser comes back
  leavePage.to(url);
  return true;
}

/**
 * The paused reply goes on (after the sign-in, or on Continue): the call
 * runs again in the same message. A token the server no longer knows
 * (404/409) ends the reply with its detail on the card.
 */
export async function resumeSignIn(s: Session, tabId: string, messageId: string): Promise<boolean> {
  const message = findMessage(s, tabId, messageId);
  const signin = message?.signin;
  if (!message || !signin || !pausedForSignIn(message) || message.complete || s.snap.sending[tabId]) return false;
  const target = heldTarget(tabId, messageId, signin) ?? (await tabTarget(s, tabId, messageId, () => pausedForSignIn(findMessage(s, tabId, messageId) ?? {}) && !s.snap.sending[tabId]));
  if (!target) return false;
  setSending(s, tabId, true);
  dispatch(s, { type: 'signInStatus', tabId, messageId, status: 'resumed' });
  const request: StreamRequest = {
    connection_id: target.connectionId,
    message: '',
    model: target.model,
    context: [],
    // History keeps no token: a pause read back from it resumes by its id.
    signin: signin.token ? { token: signin.token } : { id: signin.id },
  };
  const controller = new AbortController();
  const untrack = track(s, tabId, controller);
  let started = false;
  try {
    const result = await streamReply(s, target, request, controller.signal, () => (started = true));
    settleReply(s, target, result);
    return true;
  } catch (error) {
    const refused = (e: StreamError) => ({ type: 'signInStatus', tabId, messageId, status: 'failed', detail: e.detail || e.message }) as const;
    resumeFailed(s, target, error, started, refused, { type: 'signInStatus', tabId, messageId, status: 'pending' });
    return false;
  } finally {
    untrack();
    setSending(s, tabId, false);
  }
}

/** Back from signing in to `serverId`: the replies of the tab that wait on it resume. */
export async function resumeSignedIn(s: Session, tabId: string, serverId: string): Promise<boolean> {
  const waiting = (s.snap.state.conversations[tabId] ?? []).find((m) => m.signin?.serverId === serverId && pausedForSignIn(m) && !m.complete);
  return waiting ? resumeSignIn(s, tabId, waiting.id) : false;
}
