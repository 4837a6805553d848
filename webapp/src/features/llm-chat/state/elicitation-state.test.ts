// A server's question and a running call's progress and logs in the chat
// state (pure): asked while the stream is open or paused on, answered,
// acknowledged, refused, ended with its call or its reply; kept in storage
// and read back; rebuilt from a kept conversation.

import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../api/conversations';
import { readBack } from '../test-fixtures';
import { chatReducer, createMessage, freshChatState, TOOL_LOG_LINES, type ChatAction } from './chat-state';
import { awaitingApproval, isPaused } from './message-parts';
import { fromServer } from './server-messages';
import type { ChatMessage, ChatState, PendingElicitation, ToolBlock } from './types';

const NOW = '2026-03-07T10:00:00.000Z';
const LATER = '2026-03-07T10:09:00.000Z';
const CALL = { id: 'call_1', serverId: 'local-everything', serverName: 'Everything', tool: 'trigger-elicitation-request', arguments: {} };
const QUESTION: PendingElicitation = {
  token: 'el_1',
  id: 'elid_1',
  mode: 'form',
  message: 'Who are you?',
  schema: { type: 'object', properties: { name: { type: 'string' } } },
  expiresAt: LATER,
  callId: 'call_1',
  serverId: 'local-everything',
  serverName: 'Everything',
  tool: 'trigger-elicitation-request',
  live: true,
  connectionId: 'chat-conn',
  model: 'gpt-4o-mini',
  demo: true,
  status: 'pending',
};

function start(): ChatState {
  let state = freshChatState('t1', NOW);
  state = { ...state, tabs: [{ ...state.tabs[0], conversationId: 'c1' }] };
  state = chatReducer(state, { type: 'addMessage', tabId: 't1', message: createMessage('u1', 'user', 'ask me', NOW, true) });
  state = chatReducer(state, { type: 'addMessage', tabId: 't1', message: { ...createMessage('a1', 'assistant', '', NOW, false), serverId: 'sa1' } });
  return chatReducer(state, { type: 'toolCall', tabId: 't1', messageId: 'a1', call: CALL });
}
/** An action on the reply a1 of tab t1, without naming them. */
type Step = ChatAction extends infer A ? (A extends ChatAction ? Omit<A, 'tabId' | 'messageId'> : never) : never;
const apply = (state: ChatState, ...actions: Step[]) =>
  actions.reduce((s, a) => chatReducer(s, { tabId: 't1', messageId: 'a1', ...a } as ChatAction), state);
const reply = (state: ChatState): ChatMessage => state.conversations.t1[1];
const block = (state: ChatState): ToolBlock => reply(state).blocks!.find((b): b is ToolBlock => b.kind === 'tool')!;

describe('a question asked while the stream is open', () => {
  it('the call waits for the answer; the reply is not paused; the answer acknowledged, the call runs on and its result ends the question', () => {
    let state = apply(start(), { type: 'askElicitation', elicitation: QUESTION });
    expect(block(state).state).toBe('asking');
    expect(reply(state).elicitation).toEqual(QUESTION);
    expect(isPaused(reply(state))).toBe(false);
    state = apply(state, { type: 'answerElicitation', action: 'accept' });
    expect(reply(state).elicitation?.status).toBe('answered');
    expect(block(state).state).toBe('running');
    state = apply(state, { type: 'elicitationAcknowledged' });
    expect(reply(state).elicitation).toBeUndefined();
    state = apply(state, { type: 'askElicitation', elicitation: { ...QUESTION, token: 'el_2', id: 'elid_2' } });
    state = apply(state, { type: 'toolResult', result: { id: 'call_1', is_error: false, content: [], duration_ms: 5 } });
    expect(reply(state).elicitation).toBeUndefined();
    expect(block(state).state).toBe('done');
  });

  it('a refusal shows on the card while the call runs on; a reply that ends with a question unanswered interrupts its call', () => {
    let state = apply(start(), { type: 'askElicitation', elicitation: QUESTION }, { type: 'answerElicitation', action: 'accept' }, { type: 'elicitationRefused', detail: 'Used.' });
    expect(reply(state).elicitation).toMatchObject({ status: 'failed', detail: 'Used.' });
    expect(reply(state).complete).toBe(false);
    state = apply(start(), { type: 'askElicitation', elicitation: QUESTION }, { type: 'completeMessage' });
    expect(reply(state).elicitation).toBeUndefined();
    expect(block(state).state).toBe('interrupted');
  });
});

describe('a reply paused on a question', () => {
  it('is paused until answered or expired, and holds new messages back meanwhile', () => {
    let state = apply(start(), { type: 'askElicitation', elicitation: QUESTION }, { type: 'pauseForElicitation', elicitation: { ...QUESTION, live: false } });
    expect(reply(state).elicitation?.live).toBe(false);
    expect(isPaused(reply(state))).toBe(true);
    expect(awaitingApproval(state.conversations.t1, Date.parse(NOW))?.id).toBe('a1');
    expect(awaitingApproval(state.conversations.t1, Date.parse(LATER))).toBeUndefined();
    // The answer did not arrive: ask again.
    state = apply(state, { type: 'answerElicitation', action: 'decline' }, { type: 'elicitationNotAnswered' });
    expect(reply(state).elicitation?.status).toBe('pending');
    expect(block(state).state).toBe('asking');
    // Refused: the reply is over and the call says why.
    const refused = apply(state, { type: 'answerElicitation', action: 'decline' }, { type: 'elicitationRefused', detail: 'Expired.' });
    expect(reply(refused).complete).toBe(true);
    expect(block(refused)).toMatchObject({ state: 'failed', detail: 'Expired.' });
    // Expired: the reply is over; the card stays to say so.
    const expired = apply(state, { type: 'expireApprovals', nowMs: Date.parse(LATER) });
    expect(reply(expired).complete).toBe(true);
    expect(reply(expired).elicitation?.status).toBe('pending');
  });

  it('answered before its stream ended: the end does not pause it again', () => {
    let state = apply(start(), { type: 'askElicitation', elicitation: QUESTION }, { type: 'answerElicitation', action: 'accept' });
    state = apply(state, { type: 'pauseForElicitation', elicitation: { ...QUESTION, live: false } });
    expect(reply(state).elicitation?.status).toBe('answered');
    expect(isPaused(reply(state))).toBe(false);
  });

  it('is kept in storage and read back as it was, the token with it', () => {
    const state = apply(start(), { type: 'askElicitation', elicitation: QUESTION }, { type: 'pauseForElicitation', elicitation: { ...QUESTION, live: false } });
    const back = readBack(state, NOW);
    expect(reply(back).elicitation).toEqual({ ...QUESTION, live: false });
    expect(block(back).state).toBe('asking');
    expect(isPaused(reply(back))).toBe(true);
  });
});

describe('progress and logs', () => {
  it('a call keeps its latest progress and its newest log lines, also in storage', () => {
    let state = apply(start(), { type: 'toolProgress', progress: { id: 'call_1', progress: 1, total: 4, message: 'Starting' } });
    state = apply(state, { type: 'toolProgress', progress: { id: 'call_1', progress: 2 } });
    expect(block(state).progress).toEqual({ progress: 2 });
    for (let i = 0; i < TOOL_LOG_LINES + 5; i++) state = apply(state, { type: 'toolLog', log: { id: 'call_1', level: 'info', data: i === 0 ? { n: 0 } : `line ${i}` } });
    expect(block(state).logs).toHaveLength(TOOL_LOG_LINES);
    expect(block(state).logs?.[0]).toEqual({ level: 'info', text: 'line 5' });
    // A frame for a call the reply does not have changes nothing.
    expect(apply(state, { type: 'toolProgress', progress: { id: 'other', progress: 1 } })).toBe(state);
    const back = readBack(state, NOW);
    expect(block(back).progress).toEqual({ progress: 2 });
    expect(block(back).logs).toHaveLength(TOOL_LOG_LINES);
  });
});

describe('from a kept conversation', () => {
  const kept = (complete: boolean, more: ServerMessage['blocks'] = []): ServerMessage => ({
    id: 'sa1',
    role: 'assistant',
    content: '',
    created_at: NOW,
    complete,
    error: '',
    usage: null,
    truncated: false,
    stopped: false,
    blocks: [
      { at: 0, frame: { tool_call: { id: 'call_1', server_id: 'local-everything', server_name: 'Everything', tool: 'trigger-elicitation-request', arguments: {} } } },
      { at: 0, frame: { tool_progress: { id: 'call_1', progress: 1, total: 2 } } },
      { at: 0, frame: { tool_log: { id: 'call_1', level: 'debug', data: 'asking' } } },
      {
        at: 0,
        frame: {
          elicitation: {
            id: 'elid_1',
            mode: 'url',
            message: 'Pay',
            url: 'https://pay.example.com/x',
            expires_at: LATER,
            call: { id: 'call_1', server_id: 'local-everything', server_name: 'Everything', tool: 'trigger-elicitation-request', arguments: {} },
          },
        },
      },
      ...more,
    ],
  });
  const resume = { connectionId: '', model: 'gpt-4o-mini', demo: false };

  it('paused on it (its last block, the reply kept complete): the card is back, answered by id', () => {
    const m = fromServer(kept(true), resume, NOW);
    expect(m.complete).toBe(false);
    expect(isPaused(m)).toBe(true);
    expect(m.elicitation).toMatchObject({ token: '', id: 'elid_1', mode: 'url', url: 'https://pay.example.com/x', live: false, status: 'pending' });
    const b = m.blocks!.find((x): x is ToolBlock => x.kind === 'tool')!;
    expect(b).toMatchObject({ state: 'asking', progress: { progress: 1, total: 2 }, logs: [{ level: 'debug', text: 'asking' }] });
  });

  it('asked in a reply still being generated: shown, and not a pause (the re-attached stream goes on)', () => {
    const m = fromServer(kept(false), resume, NOW);
    expect(m.elicitation?.live).toBe(true);
    expect(isPaused(m)).toBe(false);
  });

  it('answered since (its call has a result): only the call and its result', () => {
    const m = fromServer(kept(true, [{ at: 0, frame: { tool_result: { id: 'call_1', is_error: false, content: [], duration_ms: 9 } } }]), resume, NOW);
    expect(m.elicitation).toBeUndefined();
    expect(m.complete).toBe(true);
  });
});
