// The chat's own toasts (connection results, stream failures, a message
// held back by a tool approval). They share one id, so the newest replaces
// the last instead of stacking up over the picker's status and Reconnect.

import { toast } from '../../../components/notifications/notification-store';

export const STREAM_FAILED = 'Failed to stream message';
/** A new message waits while a reply in the tab waits for the user's decision on a tool call. */
export const APPROVAL_FIRST = 'Answer the tool approval first';
/** A new message waits while a reply in the tab waits for the answer to a server's question. */
export const QUESTION_FIRST = "Answer the server's question first";
/** A new message waits while a reply in the tab waits for the user to sign in to a tool's server. */
export const SIGNIN_FIRST = "Sign in to the tool's server first, or continue the reply";

/** What a new message waits for in a tab whose reply is paused. */
export function pauseFirst(m: { approval?: { status: string }; signin?: { status: string } }): string {
  if (m.approval?.status === 'pending') return APPROVAL_FIRST;
  if (m.signin?.status === 'pending' || m.signin?.status === 'signing') return SIGNIN_FIRST;
  return QUESTION_FIRST;
}
/** A tool's view put a follow-up message in the message box (for the user to send, or not). */
export const VIEW_SUGGESTED_MESSAGE = 'The view suggested a message';

/** The one id every chat toast is raised under. */
export const CHAT_TOAST_ID = 'llm-chat';

export function chatSuccess(text: string): void {
  toast.success(text, { id: CHAT_TOAST_ID });
}

export function chatError(text: string): void {
  toast.error(text, { id: CHAT_TOAST_ID });
}

/** What a failed stream's toast says: the error's own message, else STREAM_FAILED. */
export const streamFailure = (error: unknown): string => (error instanceof Error && error.message ? error.message : STREAM_FAILED);

export function chatInfo(text: string): void {
  toast.info(text, { id: CHAT_TOAST_ID });
}
