// Stop: the server ends the generation of a reply; its stream
// then ends as a finished one, and the message is marked stopped. Pressed
// before the server named the reply (its message_ids frame), the request
// goes as soon as it does (sending.ts).

import { errorMessage } from '../../../lib/api-client';
import { stopReply } from '../api/conversations';
import { isPaused } from '../state/message-parts';
import type { ChatMessage } from '../state/types';
import { findMessage, findTab, type Session } from './session';
import { chatError } from './toasts';

export const STOP_FAILED = 'Failed to stop the reply';

/** The reply streaming in the tab, if one is (not one paused for an approval). */
export function streamingReply(messages: readonly ChatMessage[]): ChatMessage | undefined {
  const last = messages[messages.length - 1];
  return last?.role === 'assistant' && !last.complete && !isPaused(last) ? last : undefined;
}

/** Asks the server to stop the tab's streaming reply; false when there is none, or the server refused (a toast says why). */
export async function stop(s: Session, tabId: string): Promise<boolean> {
  const reply = streamingReply(s.snap.state.conversations[tabId] ?? []);
  if (!reply || s.stopping.has(reply.id)) return false;
  s.stopping.add(reply.id);
  if (!reply.serverId) return true; // asked for when the ids come
  return requestStop(s, tabId, reply.id);
}

/** POST …/stop for a reply the server named. */
export async function requestStop(s: Session, tabId: string, messageId: string): Promise<boolean> {
  const conversationId = findTab(s, tabId)?.conversationId;
  const serverId = findMessage(s, tabId, messageId)?.serverId;
  if (!conversationId || !serverId || s.ended) return false;
  try {
    await stopReply(conversationId, serverId, s.lifetime.signal);
    return true;
  } catch (error) {
    if (s.ended) return false;
    s.stopping.delete(messageId);
    chatError(errorMessage(error, STOP_FAILED));
    return false;
  }
}
