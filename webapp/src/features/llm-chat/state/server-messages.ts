// A conversation's messages as the server keeps them (GET …/messages),
// turned into the chat's messages (pure). A reply is rebuilt the way it
// streamed: its text up to each kept frame (placed by a UTF-8 byte offset
// into the text), the frame, and so on; then how it ended. What only this
// browser knows about a message (its summary, View Full, a tool approval's
// connection) is kept from the copy it already had.

import { interpretEvent, readApproval, readElicitation, readToolSignin } from '../api/frames';
import type { ServerMessage } from '../api/conversations';
import { messageUsage } from '../usage';
import { chatReducer, createMessage, type ChatAction } from './chat-state';
import { approvalFrom, elicitationFrom, samePause, signinFrom, toolCallInput } from './message-parts';
import type { ChatMessage, ChatState } from './types';

/**
 * The index into `text` (UTF-16) after `bytes` bytes of its UTF-8 form (an
 * offset inside a character counts as after it), and the bytes up to there;
 * counted on from index `from`, which is `fromBytes` bytes in.
 */
export function utf16Offset(text: string, bytes: number, from = 0, fromBytes = 0): [index: number, bytes: number] {
  let i = from;
  let n = fromBytes;
  while (i < text.length && n < bytes) {
    const cp = text.codePointAt(i)!;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    i += cp > 0xffff ? 2 : 1;
  }
  return [i, n];
}

/** What a paused reply from history needs to resume when this browser did not see the pause. */
export interface ResumeTarget {
  connectionId: string;
  model: string;
  demo: boolean;
}

const TAB = 'history';

/** One server message as a chat message (its id is the server's). `resume` completes a pause found in it. */
export function fromServer(m: ServerMessage, resume: ResumeTarget, now: string): ChatMessage {
  const timestamp = m.created_at || now;
  if (m.role === 'user') {
    const message = createMessage(m.id, 'user', m.content, timestamp, true);
    return m.attachments?.length ? { ...message, serverId: m.id, attachments: m.attachments } : { ...message, serverId: m.id };
  }
  // Replayed through the reducer, as the stream would have been.
  let state: ChatState = {
    tabs: [{ id: TAB, title: '', provider: 'openai', model: resume.model, createdAt: timestamp }],
    activeTabId: TAB,
    conversations: { [TAB]: [createMessage(m.id, 'assistant', '', timestamp, false)] },
  };
  const apply = (action: ChatAction) => (state = chatReducer(state, action));
  const messageId = m.id;
  let pos = 0;
  let posBytes = 0;
  let paused = false;
  m.blocks.forEach((block, i) => {
    const [at, atBytes] = utf16Offset(m.content, block.at, pos, posBytes);
    if (at > pos) {
      apply({ type: 'appendContent', tabId: TAB, messageId, chunk: m.content.slice(pos, at) });
      pos = at;
      posBytes = atBytes;
    }
    if ('tool_approval' in block.frame) {
      const approval = readApproval(JSON.stringify(block.frame.tool_approval));
      if (!approval) return;
      if (i === m.blocks.length - 1 && m.complete && !m.error) {
        apply({ type: 'pauseForApproval', tabId: TAB, messageId, approval: approvalFrom(approval, resume) });
        paused = true;
      } else {
        // Answered since: its call's result follows.
        const { call } = approval;
        apply({ type: 'toolCall', tabId: TAB, messageId, call: toolCallInput(call) });
      }
      return;
    }
    if ('elicitation' in block.frame) {
      const question = readElicitation(JSON.stringify(block.frame.elicitation));
      if (!question) return;
      const last = i === m.blocks.length - 1;
      if (last && m.complete && !m.error) {
        // The reply paused for it: the card is back.
        apply({ type: 'pauseForElicitation', tabId: TAB, messageId, elicitation: elicitationFrom(question, resume, false) });
        paused = true;
      } else if (last && !m.complete) {
        // Asked inside a call still running: the reply's stream (re-attached) carries on past it.
        apply({ type: 'askElicitation', tabId: TAB, messageId, elicitation: elicitationFrom(question, resume, true) });
      } else {
        const { call } = question;
        apply({ type: 'toolCall', tabId: TAB, messageId, call: toolCallInput(call) });
      }
      return;
    }
    if ('tool_signin' in block.frame) {
      const signin = readToolSignin(block.frame.tool_signin);
      // The reply paused for it (its last block): the card is back; otherwise it went on since.
      if (signin && i === m.blocks.length - 1 && m.complete && !m.error) {
        apply({ type: 'pauseForSignIn', tabId: TAB, messageId, signin: signinFrom(signin, resume) });
        paused = true;
      }
      return;
    }
    let meaning;
    try {
      meaning = interpretEvent({ event: 'message', data: JSON.stringify(block.frame) });
    } catch {
      return; // an error frame kept as a block: the message's error says it
    }
    const { toolCall, toolResult, notice, toolProgress, toolLog } = meaning;
    if (toolCall) {
      apply({
        type: 'toolCall',
        tabId: TAB,
        messageId,
        call: toolCallInput(toolCall),
      });
    }
    if (toolResult) apply({ type: 'toolResult', tabId: TAB, messageId, result: toolResult });
    if (notice) apply({ type: 'notice', tabId: TAB, messageId, text: notice });
    if (toolProgress) apply({ type: 'toolProgress', tabId: TAB, messageId, progress: toolProgress });
    if (toolLog) apply({ type: 'toolLog', tabId: TAB, messageId, log: toolLog });
  });
  if (pos < m.content.length) apply({ type: 'appendContent', tabId: TAB, messageId, chunk: m.content.slice(pos) });
  if (m.error) {
    apply({ type: 'failMessage', tabId: TAB, messageId, error: m.error });
  } else if (m.complete && !paused) {
    const usage = m.usage ? messageUsage(m.usage, m.usage.demo === true) : undefined;
    apply({ type: 'completeMessage', tabId: TAB, messageId, usage, stopped: m.stopped });
  }
  let message = state.conversations[TAB][0];
  if (m.error && m.usage) message = { ...message, usage: messageUsage(m.usage, m.usage.demo === true) };
  if (m.stopped) message = { ...message, stopped: true };
  if (m.truncated) message = { ...message, cut: true };
  return { ...message, timestamp, serverId: m.id };
}

/**
 * A failed reply retried: the message and its failed reply are left out
 * when the same message follows them (Retry sends it again).
 */
export function withoutRetried(messages: readonly ServerMessage[]): ServerMessage[] {
  const out: ServerMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    const reply = messages[i + 1];
    const next = messages[i + 2];
    if (m.role === 'user' && reply?.role === 'assistant' && reply.error && next?.role === 'user' && next.content === m.content) {
      i++;
      continue;
    }
    out.push(m);
  }
  return out;
}

/** Keeps what only this browser knew of a message it had already. */
function keepLocal(fresh: ChatMessage, old: ChatMessage): ChatMessage {
  const merged: ChatMessage = { ...fresh, id: old.id, summary: old.summary, summaryRequested: old.summaryRequested, showFull: old.showFull };
  if (old.summaryUsage) merged.summaryUsage = old.summaryUsage;
  if (fresh.approval && old.approval && samePause(old.approval, fresh.approval)) {
    // This browser saw the pause: its copy has the connection to resume on,
    // and how the user's answer went (a refused token ended the reply).
    if (old.approval.status === 'pending') merged.approval = old.approval;
    else return { ...merged, complete: old.complete, approval: old.approval, blocks: old.blocks };
  }
  if (fresh.elicitation && old.elicitation && samePause(old.elicitation, fresh.elicitation)) {
    // Likewise a server's question: this browser's copy has its token and connection.
    if (old.elicitation.status === 'pending') merged.elicitation = { ...old.elicitation, live: fresh.elicitation.live };
    else if (!fresh.elicitation.live) return { ...merged, complete: old.complete, elicitation: old.elicitation, blocks: old.blocks };
  }
  if (fresh.signin && old.signin && old.signin.id === fresh.signin.id && old.signin.status === 'pending') {
    // This browser saw the sign-in asked for: its copy has the token and the connection to resume on.
    merged.signin = old.signin;
  }
  return merged;
}

/**
 * The tab's messages from the server's, merged with what the tab shows:
 * messages it has already keep their local id and browser-only fields;
 * messages uploaded from old storage (legacy) stay first; messages the
 * server does not have (a message refused before it was kept) go.
 */
export function mergeServerMessages(server: readonly ServerMessage[], local: readonly ChatMessage[], resume: ResumeTarget, now: string): ChatMessage[] {
  const byServerId = new Map(local.filter((m) => m.serverId).map((m) => [m.serverId, m]));
  const legacy = local.filter((m) => m.legacy);
  const messages = withoutRetried(server).map((sm) => {
    const old = byServerId.get(sm.id);
    const fresh = fromServer(sm, old?.approval ?? old?.elicitation ?? resume, now);
    return old ? keepLocal(fresh, old) : fresh;
  });
  return [...legacy, ...messages];
}
