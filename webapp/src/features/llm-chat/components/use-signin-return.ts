// Back on the chat page from a sign-in a tool call asked for
// (/llm-chat?connected={server_id}, or ?oauth_error={code}&server=…, the
// same codes and ids as the registry's return): once the paused reply
// waiting on that server is in the tab (the full-page round trip reloaded
// it), it goes on by itself; a failed sign-in says why and leaves the card
// to try again. The parameters are dropped either way.

import { useEffect, useRef, useState } from 'react';
import { readSignInReturn, signInFailureMessage, withoutSignInReturn, type SignInReturn } from '../../../lib/mcp-sign-in-return';
import { pausedForSignIn } from '../state/message-parts';
import type { ChatMessage } from '../state/types';
import { chatStore } from '../store/chat-store';
import { chatError } from '../store/toasts';

function dropParams(): void {
  const rest = withoutSignInReturn(new URLSearchParams(window.location.search)).toString();
  window.history.replaceState(window.history.state, '', window.location.pathname + (rest ? `?${rest}` : '') + window.location.hash);
}

export function useSignInReturn(messages: readonly ChatMessage[]): void {
  const [back] = useState<SignInReturn | null>(() => readSignInReturn(new URLSearchParams(window.location.search)));
  const handled = useRef(false);
  useEffect(() => {
    if (back) dropParams();
  }, [back]);
  useEffect(() => {
    if (!back || handled.current) return;
    const waiting = messages.find((m) => !m.complete && pausedForSignIn(m) && (!back.serverId || m.signin?.serverId === back.serverId));
    if (!waiting) return;
    handled.current = true;
    if (back.kind === 'connected') void chatStore.resumeSignedIn(back.serverId);
    else chatError(signInFailureMessage(back.code));
  }, [back, messages]);
}
