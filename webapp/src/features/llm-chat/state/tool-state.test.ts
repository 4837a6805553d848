import { describe, expect, it } from 'vitest';
import { readBack } from '../test-fixtures';
import { chatReducer, contextFor, createMessage, freshChatState, type ChatAction, type ToolCallInput } from './chat-state';
import { approvalExpired, awaitingApproval, isDestructive, isPaused, messageParts, toolStateText } from './message-parts';
import { restoreChatState, storableMessage, STORED_IMAGE_CHARS, STORED_TOOL_TEXT_CHARS } from './persistence';
import type { ChatMessage, ChatState, PendingApproval, ToolBlock } from './types';

const NOW = '2026-03-07T10:00:00.000Z';
const NOW_MS = Date.parse(NOW);
const T = 't1';
const A = 'a1';
const run = (state: ChatState, ...actions: ChatAction[]) => actions.reduce(chatReducer, state);

/** A tab with a user message and an empty, streaming reply. */
function replying(): ChatState {
  return run(
    freshChatState(T, NOW),
    { type: 'addMessage', tabId: T, message: createMessage('u1', 'user', 'use get-sum with 2 and 3', NOW, true) },
    { type: 'addMessage', tabId: T, message: createMessage(A, 'assistant', '', NOW, false) },
  );
}
const reply = (s: ChatState) => s.conversations[T].find((m) => m.id === A) as ChatMessage;
const text = (chunk: string): ChatAction => ({ type: 'appendContent', tabId: T, messageId: A, chunk });
const call = (id: string, tool = 'get-sum', args: unknown = { a: 2, b: 3 }): ChatAction => ({
  type: 'toolCall',
  tabId: T,
  messageId: A,
  call: { id, serverId: 'local-everything', serverName: 'Everything', tool, arguments: args } satisfies ToolCallInput,
});
const result = (id: string, extra: Partial<{ is_error: boolean; denied: boolean; truncated: boolean }> = {}): ChatAction => ({
  type: 'toolResult',
  tabId: T,
  messageId: A,
  result: { id, is_error: false, content: [{ type: 'text', text: 'The sum of 2 and 3 is 5.' }], duration_ms: 12, ...extra },
});
const approval = (over: Partial<PendingApproval> = {}): PendingApproval => ({
  token: 'tok',
  expiresAt: '2026-03-07T10:10:00Z',
  callId: 'c2',
  serverId: 'local-everything',
  serverName: 'Everything',
  tool: 'toggle-simulated-logging',
  arguments: {},
  description: 'Toggles logging.',
  readOnly: false,
  destructive: false,
  connectionId: 'conn-1',
  model: 'gpt-4o-mini',
  demo: true,
  status: 'pending',
  ...over,
});
const pause = (a = approval()): ChatAction => ({ type: 'pauseForApproval', tabId: T, messageId: A, approval: a });
const tool = (s: ChatState, id: string) => reply(s).blocks?.find((b): b is ToolBlock => b.kind === 'tool' && b.id === id);

describe('a reply with tool calls', () => {
  it('keeps text, calls and notices in stream order; content stays the whole text', () => {
    const s = run(replying(), text('Let me add. '), call('c1'), result('c1'), text('It is 5.'), { type: 'notice', tabId: T, messageId: A, text: 'Limit reached.' });
    const m = reply(s);
    expect(m.content).toBe('Let me add. It is 5.');
    expect(messageParts(m).map((p) => (p.kind === 'text' ? `text:${p.text}` : p.kind === 'tool' ? `tool:${p.tool}:${p.state}` : `notice:${p.text}`))).toEqual([
      'text:Let me add. ',
      'tool:get-sum:done',
      'text:It is 5.',
      'notice:Limit reached.',
    ]);
  });

  it('a call starts running; its result sets done with the duration, failed on is_error, denied when denied', () => {
    let s = run(replying(), call('c1'));
    expect(tool(s, 'c1')).toMatchObject({ state: 'running', at: 0, arguments: { a: 2, b: 3 } });
    expect(toolStateText(tool(s, 'c1') as ToolBlock)).toBe('Running…');
    s = run(s, result('c1'), call('c2'), result('c2', { is_error: true }), call('c3'), result('c3', { is_error: true, denied: true, truncated: true }));
    expect(tool(s, 'c1')).toMatchObject({ state: 'done', durationMs: 12, result: [{ type: 'text', text: 'The sum of 2 and 3 is 5.' }] });
    expect(toolStateText(tool(s, 'c1') as ToolBlock)).toBe('Done in 12 ms');
    expect(tool(s, 'c2')?.state).toBe('failed');
    expect(tool(s, 'c3')).toMatchObject({ state: 'denied', truncated: true });
  });

  it('two calls before any text sit in order at the start', () => {
    const parts = messageParts(reply(run(replying(), call('c1'), call('c2', 'echo'), text('Both done.'))));
    expect(parts.map((p) => p.kind)).toEqual(['tool', 'tool', 'text']);
  });

  it('a result for a call never seen is kept, not lost', () => {
    expect(tool(run(replying(), result('ghost')), 'ghost')?.state).toBe('done');
  });

  it('the same call id again updates its block instead of adding one', () => {
    const s = run(replying(), call('c1'), call('c1', 'get-sum', { a: 1 }));
    expect(reply(s).blocks).toHaveLength(1);
    expect(tool(s, 'c1')?.arguments).toEqual({ a: 1 });
  });

  it('completing cuts off a call still running, and context takes the text only', () => {
    const s = run(replying(), text('Working.'), call('c1'), { type: 'completeMessage', tabId: T, messageId: A });
    expect(tool(s, 'c1')?.state).toBe('interrupted');
    expect(contextFor(s.conversations[T])).toEqual([
      { role: 'user', content: 'use get-sum with 2 and 3' },
      { role: 'assistant', content: 'Working.' },
    ]);
  });
});

describe('approval', () => {
  it('pausing marks the call waiting and keeps the message open (not complete, not streaming)', () => {
    const s = run(replying(), text('Checking.'), call('c2', 'toggle-simulated-logging', {}), pause());
    const m = reply(s);
    expect(m.complete).toBe(false);
    expect(isPaused(m)).toBe(true);
    expect(tool(s, 'c2')?.state).toBe('waiting');
    expect(toolStateText(tool(s, 'c2') as ToolBlock)).toBe('Waiting for approval');
    expect(awaitingApproval(s.conversations[T], NOW_MS)?.id).toBe(A);
    // Paused is not complete: it is not context yet.
    expect(contextFor(s.conversations[T])).toHaveLength(1);
  });

  it('pausing adds the call when no tool_call frame came for it', () => {
    const s = run(replying(), pause());
    expect(tool(s, 'c2')).toMatchObject({ tool: 'toggle-simulated-logging', state: 'waiting', serverName: 'Everything' });
  });

  it('approve runs the call; the resumed stream completes the same message and the approval is spent', () => {
    let s = run(replying(), call('c2', 'toggle-simulated-logging', {}), pause(), { type: 'answerApproval', tabId: T, messageId: A, decision: 'approve' });
    expect(reply(s).approval?.status).toBe('answered');
    expect(tool(s, 'c2')?.state).toBe('running');
    expect(isPaused(reply(s))).toBe(false);
    s = run(s, result('c2'), text('Logging is on.'), { type: 'completeMessage', tabId: T, messageId: A, usage: { input_tokens: 1, output_tokens: 2, cost_usd: 0 } });
    const m = reply(s);
    expect(m.complete).toBe(true);
    expect(m.approval).toBeUndefined();
    expect(tool(s, 'c2')?.state).toBe('done');
    expect(messageParts(m).map((p) => p.kind)).toEqual(['tool', 'text']);
  });

  it('deny shows denied at once; always runs it', () => {
    const denied = run(replying(), pause(), { type: 'answerApproval', tabId: T, messageId: A, decision: 'deny' });
    expect(tool(denied, 'c2')?.state).toBe('denied');
    const always = run(replying(), pause(), { type: 'answerApproval', tabId: T, messageId: A, decision: 'always' });
    expect(tool(always, 'c2')?.state).toBe('running');
  });

  it('a second answer is ignored', () => {
    const s = run(replying(), pause(), { type: 'answerApproval', tabId: T, messageId: A, decision: 'deny' });
    expect(run(s, { type: 'answerApproval', tabId: T, messageId: A, decision: 'approve' })).toBe(s);
  });

  it('a decision that did not reach the server asks again', () => {
    const s = run(replying(), pause(), { type: 'answerApproval', tabId: T, messageId: A, decision: 'approve' }, { type: 'approvalNotAnswered', tabId: T, messageId: A });
    expect(reply(s).approval?.status).toBe('pending');
    expect(tool(s, 'c2')?.state).toBe('waiting');
    expect(isPaused(reply(s))).toBe(true);
  });

  it('a refused token resolves the card with its detail and ends the reply', () => {
    const s = run(replying(), pause(), { type: 'answerApproval', tabId: T, messageId: A, decision: 'approve' }, { type: 'approvalRefused', tabId: T, messageId: A, detail: 'This approval expired.' });
    const m = reply(s);
    expect(m.complete).toBe(true);
    expect(m.approval).toMatchObject({ status: 'failed', detail: 'This approval expired.' });
    expect(tool(s, 'c2')).toMatchObject({ state: 'failed', detail: 'This approval expired.' });
    expect(awaitingApproval(s.conversations[T], NOW_MS)).toBeUndefined();
  });

  it('an expired approval no longer holds the tab: expiring ends the reply, the card stays to say so', () => {
    const s = run(replying(), pause());
    const later = Date.parse('2026-03-07T10:10:00Z');
    expect(approvalExpired(reply(s).approval as PendingApproval, later - 1)).toBe(false);
    expect(awaitingApproval(s.conversations[T], later)).toBeUndefined();
    const expired = run(s, { type: 'expireApprovals', tabId: T, nowMs: later });
    expect(reply(expired).complete).toBe(true);
    expect(reply(expired).approval?.status).toBe('pending');
    expect(tool(expired, 'c2')?.state).toBe('waiting');
    expect(run(s, { type: 'expireApprovals', tabId: T, nowMs: later - 1 })).toBe(s);
  });

  it('destructive: when it says so, or says nothing and is not read-only', () => {
    expect(isDestructive({ readOnlyHint: false, destructiveHint: true })).toBe(true);
    expect(isDestructive({ readOnlyHint: false })).toBe(true);
    expect(isDestructive({ readOnlyHint: true })).toBe(false);
    expect(isDestructive({ readOnlyHint: false, destructiveHint: false })).toBe(false);
  });
});

describe('tab tool settings', () => {
  it('turns servers off and on per tab, and the read-only setting', () => {
    let s = run(freshChatState(T, NOW), { type: 'newTab', id: 't2', now: NOW });
    const tab = (id: string) => s.tabs.find((t) => t.id === id)!;
    s = run(s, { type: 'setToolServer', tabId: T, connectionId: 'c-a', on: false }, { type: 'setToolServer', tabId: T, connectionId: 'c-b', on: false });
    expect(tab(T).toolsOff).toEqual(['c-a', 'c-b']);
    expect(tab('t2').toolsOff).toBeUndefined();
    s = run(s, { type: 'setToolServer', tabId: T, connectionId: 'c-a', on: true }, { type: 'setConfirmReadOnly', tabId: T, on: true });
    expect(tab(T)).toMatchObject({ toolsOff: ['c-b'], confirmReadOnly: true });
    expect(run(s, { type: 'setToolServer', tabId: T, connectionId: 'c-b', on: false })).toBe(s);
  });
});

describe('persistence of tool calls and approvals', () => {
  // Tabs are stored once they have a server conversation.
  const roundTrip = (s: ChatState) => readBack({ ...s, tabs: s.tabs.map((t) => ({ ...t, conversationId: `c-${t.id}` })) }, NOW);

  it('a paused reply survives a reload with its approval, still paused', () => {
    const s = run(replying(), text('Checking.'), call('c1'), result('c1'), call('c2', 'toggle-simulated-logging', {}), pause());
    const back = roundTrip(s);
    const m = reply(back);
    expect(m.complete).toBe(false);
    expect(isPaused(m)).toBe(true);
    expect(m.approval).toEqual(approval());
    expect(m.blocks).toEqual(reply(s).blocks);
    expect(m.content).toBe('Checking.');
  });

  it("a call's view survives a reload: its connection, view and structured result; a view that is not ui:// is dropped", () => {
    const s = run(
      replying(),
      { type: 'toolCall', tabId: T, messageId: A, call: { id: 'c1', serverId: 's', serverName: 'S', tool: 'get-time', arguments: {}, connectionId: 'mcp-1', uiResourceUri: 'ui://t/v.html' } },
      { type: 'toolResult', tabId: T, messageId: A, result: { id: 'c1', is_error: false, content: [], duration_ms: 1, structured_content: { t: 1 } } },
    );
    expect(tool(s, 'c1')).toMatchObject({ connectionId: 'mcp-1', uiResourceUri: 'ui://t/v.html', structuredContent: { t: 1 }, state: 'done' });
    expect(tool(roundTrip(s), 'c1')).toMatchObject({ connectionId: 'mcp-1', uiResourceUri: 'ui://t/v.html', structuredContent: { t: 1 } });
    const raw = [{ id: A, role: 'assistant', content: '', complete: true, blocks: [{ kind: 'tool', id: 'c1', state: 'done', connectionId: 'mcp-1', uiResourceUri: 'https://x/v.html' }] }];
    const restored = restoreChatState([{ id: T, title: 'Chat 1', provider: 'openai', model: 'gpt-4o-mini', createdAt: NOW, conversationId: 'cv' }], T, { [T]: raw }, 'fresh', NOW);
    expect(restored.conversations[T][0].blocks?.[0]).not.toHaveProperty('uiResourceUri');
    // A later frame for the call (its approval) keeps what the tool_call frame said.
    const paused = run(s, { type: 'toolCall', tabId: T, messageId: A, call: { id: 'c1', serverId: 's', serverName: 'S', tool: 'get-time', arguments: {} } });
    expect(tool(paused, 'c1')).toMatchObject({ connectionId: 'mcp-1', uiResourceUri: 'ui://t/v.html' });
  });

  it('tab tool settings survive a reload', () => {
    const s = run(freshChatState(T, NOW), { type: 'setToolServer', tabId: T, connectionId: 'c-a', on: false }, { type: 'setConfirmReadOnly', tabId: T, on: true });
    expect(roundTrip(s).tabs[0]).toMatchObject({ toolsOff: ['c-a'], confirmReadOnly: true });
  });

  it('a reply cut off by a reload while a tool ran is kept, its call interrupted; an answered approval is spent', () => {
    const s = run(replying(), call('c1'), call('c2', 'toggle-simulated-logging', {}), pause(), { type: 'answerApproval', tabId: T, messageId: A, decision: 'approve' });
    const m = reply(roundTrip(s));
    expect(m.complete).toBe(true);
    expect(m.approval).toBeUndefined();
    expect(m.blocks?.map((b) => (b.kind === 'tool' ? b.state : b.kind))).toEqual(['interrupted', 'interrupted']);
  });

  it('a refused approval stays resolved after a reload', () => {
    const s = run(replying(), pause(), { type: 'answerApproval', tabId: T, messageId: A, decision: 'approve' }, { type: 'approvalRefused', tabId: T, messageId: A, detail: 'Used.' });
    const m = reply(roundTrip(s));
    expect(m.complete).toBe(true);
    expect(m.approval).toMatchObject({ status: 'failed', detail: 'Used.' });
  });

  it('drops unusable blocks and approvals when reading storage', () => {
    const raw = [
      {
        id: A,
        role: 'assistant',
        content: 'x',
        complete: true,
        blocks: [{ kind: 'tool' }, { kind: 'tool', id: 'c1', at: -4, state: 'weird', result: [{ type: 'text', text: 'ok' }, { no: 'type' }] }, { kind: 'notice', text: '' }, 'junk'],
        approval: { token: '', callId: 'c1' },
      },
    ];
    const s = restoreChatState([{ id: T, title: 'Chat 1', provider: 'openai', model: 'gpt-4o-mini', createdAt: NOW }], T, { [T]: raw }, 'fresh', NOW);
    const m = s.conversations[T][0];
    expect(m.blocks).toEqual([
      { kind: 'tool', at: 0, id: 'c1', serverId: '', serverName: '', tool: '', arguments: null, state: 'interrupted', result: [{ type: 'text', text: 'ok' }] },
    ]);
    expect(m.approval).toBeUndefined();
  });

  it('large tool results are cut for storage; the reply in memory keeps them whole', () => {
    const big = 'x'.repeat(STORED_TOOL_TEXT_CHARS + 10);
    const image = 'A'.repeat(STORED_IMAGE_CHARS + 4);
    const s = run(replying(), call('c1'), {
      type: 'toolResult',
      tabId: T,
      messageId: A,
      result: { id: 'c1', is_error: false, duration_ms: 1, content: [{ type: 'text', text: big }, { type: 'image', mimeType: 'image/png', data: image }, { type: 'image', mimeType: 'image/png', data: 'AAAA' }] },
    });
    const stored = storableMessage(reply(s));
    const block = stored.blocks?.[0] as ToolBlock;
    expect(block.truncated).toBe(true);
    expect(block.result?.[0]).toEqual({ type: 'text', text: big.slice(0, STORED_TOOL_TEXT_CHARS) });
    expect(block.result?.[1]).toEqual({ type: 'image', mimeType: 'image/png', omitted: true });
    expect(block.result?.[2]).toEqual({ type: 'image', mimeType: 'image/png', data: 'AAAA' });
    expect(tool(s, 'c1')?.result?.[0]?.text).toBe(big);
    // Small results are stored as they are.
    const small = run(replying(), call('c1'), result('c1'));
    expect(storableMessage(reply(small))).toBe(reply(small));
  });
});
