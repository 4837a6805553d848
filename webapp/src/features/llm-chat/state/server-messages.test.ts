import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../api/conversations';
import { createMessage } from './chat-state';
import { isPaused, messageParts } from './message-parts';
import { fromServer, mergeServerMessages, utf16Offset, withoutRetried } from './server-messages';
import type { ChatMessage, PendingApproval } from './types';

const NOW = '2026-03-07T10:00:00.000Z';
const RESUME = { connectionId: 'conn-1', model: 'gpt-4o-mini', demo: true };
const bytes = (text: string) => new TextEncoder().encode(text).length;

const msg = (over: Partial<ServerMessage>): ServerMessage => ({
  id: 'm1',
  role: 'assistant',
  content: '',
  created_at: NOW,
  complete: true,
  error: '',
  usage: null,
  blocks: [],
  truncated: false,
  stopped: false,
  ...over,
});
const CALL = { id: 'call_1', server_id: 'srv', server_name: 'Everything', tool: 'get-sum', arguments: { a: 2, b: 3 } };
const RESULT = { id: 'call_1', is_error: false, content: [{ type: 'text', text: '5' }], duration_ms: 12 };
const APPROVAL = {
  token: 'tok_1',
  expires_at: '2099-01-01T00:00:00Z',
  call: { id: 'call_2', server_id: 'srv', server_name: 'Everything', tool: 'toggle', arguments: {}, description: 'Toggles.', annotations: { readOnlyHint: false } },
};

describe('utf16Offset', () => {
  it('turns a UTF-8 byte offset into a string index, past multi-byte characters', () => {
    const text = 'aé€😀b';
    expect(utf16Offset(text, 0)).toEqual([0, 0]);
    expect(utf16Offset(text, 1)).toEqual([1, 1]);
    expect(utf16Offset(text, 3)).toEqual([2, 3]); // after é (2 bytes)
    expect(utf16Offset(text, 6)).toEqual([3, 6]); // after € (3 bytes)
    expect(utf16Offset(text, 10)).toEqual([5, 10]); // after 😀 (4 bytes, 2 code units)
    expect(utf16Offset(text, 8)).toEqual([5, 10]); // inside a character: after it
    expect(utf16Offset(text, 99)).toEqual([6, 11]);
    expect(utf16Offset(text, 10, 3, 6)).toEqual([5, 10]); // counted on from a known point
  });
});

describe('fromServer', () => {
  it('a user message keeps its server id', () => {
    expect(fromServer(msg({ id: 'u1', role: 'user', content: 'Hi' }), RESUME, NOW)).toEqual({
      ...createMessage('u1', 'user', 'Hi', NOW, true),
      serverId: 'u1',
    });
  });

  it('a finished reply: its text, its tool calls placed by byte offset, notes, and its usage', () => {
    const before = 'Voilà 😀 ';
    const after = 'It is 5.';
    const m = fromServer(
      msg({
        content: before + after,
        usage: { input_tokens: 10, output_tokens: 4, cost_usd: 0, demo: true },
        blocks: [
          { at: bytes(before), frame: { tool_call: CALL } },
          { at: bytes(before), frame: { tool_result: RESULT } },
          { at: bytes(before + after), frame: { notice: 'Tool rounds used up.' } },
        ],
      }),
      RESUME,
      NOW,
    );
    expect(m).toMatchObject({ id: 'm1', serverId: 'm1', content: before + after, complete: true, usage: { input_tokens: 10, output_tokens: 4, cost_usd: 0, demo: true } });
    expect(messageParts(m).map((p) => (p.kind === 'text' ? p.text : p.kind === 'tool' ? `${p.tool}:${p.state}` : `note:${p.text}`))).toEqual([
      before,
      'get-sum:done',
      after,
      'note:Tool rounds used up.',
    ]);
  });

  it("a call's view is read back with its connection, input and result (structured content too), so a reload shows it again", () => {
    const m = fromServer(
      msg({
        blocks: [
          { at: 0, frame: { tool_call: { ...CALL, connection_id: 'mcp-conn-1', ui: { resource_uri: 'ui://sum/view.html' } } } },
          { at: 0, frame: { tool_result: { ...RESULT, structured_content: { sum: 5 } } } },
        ],
      }),
      RESUME,
      NOW,
    );
    expect(m.blocks?.[0]).toMatchObject({
      kind: 'tool',
      state: 'done',
      connectionId: 'mcp-conn-1',
      uiResourceUri: 'ui://sum/view.html',
      arguments: { a: 2, b: 3 },
      result: RESULT.content,
      structuredContent: { sum: 5 },
    });
  });

  it('a reply still being generated stays open (to be re-attached)', () => {
    const m = fromServer(msg({ content: 'Part', complete: false, blocks: [{ at: 4, frame: { tool_call: CALL } }] }), RESUME, NOW);
    expect(m.complete).toBe(false);
    expect(m.blocks).toEqual([expect.objectContaining({ id: 'call_1', state: 'running' })]);
  });

  it('a failed reply says why; a stopped one is marked; a cut one too', () => {
    expect(fromServer(msg({ content: 'Half', error: 'Upstream gone', complete: true }), RESUME, NOW)).toMatchObject({ complete: true, error: 'Upstream gone' });
    expect(fromServer(msg({ content: 'Half', error: 'Gone', complete: false }), RESUME, NOW)).toMatchObject({ complete: true, error: 'Gone' });
    expect(fromServer(msg({ content: 'Half', stopped: true }), RESUME, NOW)).toMatchObject({ complete: true, stopped: true });
    expect(fromServer(msg({ content: 'x', truncated: true }), RESUME, NOW).cut).toBe(true);
  });

  it('a reply paused for an approval is paused again, to resume on the target given', () => {
    const m = fromServer(msg({ content: 'Let me.', blocks: [{ at: 7, frame: { tool_approval: APPROVAL } }] }), RESUME, NOW);
    expect(isPaused(m)).toBe(true);
    expect(m.approval).toMatchObject({ token: 'tok_1', callId: 'call_2', connectionId: 'conn-1', model: 'gpt-4o-mini', demo: true, status: 'pending', destructive: true });
    expect(m.blocks).toEqual([expect.objectContaining({ id: 'call_2', state: 'waiting', at: 7 })]);
  });

  it('an approval answered since is only its call, settled by its result', () => {
    const m = fromServer(
      msg({
        content: 'Let me. Done.',
        blocks: [
          { at: 8, frame: { tool_approval: APPROVAL } },
          { at: 8, frame: { tool_result: { ...RESULT, id: 'call_2', denied: true } } },
        ],
      }),
      RESUME,
      NOW,
    );
    expect(m.complete).toBe(true);
    expect(m.approval).toBeUndefined();
    expect(m.blocks).toEqual([expect.objectContaining({ id: 'call_2', tool: 'toggle', state: 'denied' })]);
  });
});

describe('withoutRetried', () => {
  it('leaves out a message and its failed reply when the same message follows (Retry)', () => {
    const list = [
      msg({ id: 'u1', role: 'user', content: 'Hi' }),
      msg({ id: 'a1', error: 'Gone' }),
      msg({ id: 'u2', role: 'user', content: 'Hi' }),
      msg({ id: 'a2', content: 'Hello' }),
      msg({ id: 'u3', role: 'user', content: 'Other' }),
      msg({ id: 'a3', error: 'Gone' }),
    ];
    expect(withoutRetried(list).map((m) => m.id)).toEqual(['u2', 'a2', 'u3', 'a3']);
  });
});

describe('mergeServerMessages', () => {
  it('the server has the say; what only this browser knew is kept; old (legacy) messages stay first; unkept local ones go', () => {
    const legacy: ChatMessage = { ...createMessage('old', 'user', 'From before', NOW, true), legacy: true };
    const mine: ChatMessage = {
      ...createMessage('local-u', 'user', 'x'.repeat(2000), NOW, true),
      serverId: 'u1',
      summary: 'A long one.',
      summaryRequested: true,
      showFull: true,
      summaryUsage: { input_tokens: 1, output_tokens: 1, cost_usd: 0 },
    };
    const refused: ChatMessage = createMessage('local-x', 'user', 'Refused before it was kept', NOW, true);
    const merged = mergeServerMessages(
      [msg({ id: 'u1', role: 'user', content: 'x'.repeat(2000) }), msg({ id: 'a1', content: 'Reply' })],
      [legacy, mine, refused],
      RESUME,
      NOW,
    );
    expect(merged.map((m) => [m.id, m.serverId ?? null])).toEqual([
      ['old', null],
      ['local-u', 'u1'],
      ['a1', 'a1'],
    ]);
    expect(merged[1]).toMatchObject({ summary: 'A long one.', summaryRequested: true, showFull: true, summaryUsage: { input_tokens: 1, output_tokens: 1, cost_usd: 0 } });
  });

  it("a pause this browser saw keeps its connection; one it answered and the server refused stays resolved", () => {
    const server = [msg({ id: 'a1', content: 'Let me.', blocks: [{ at: 7, frame: { tool_approval: APPROVAL } }] })];
    const seen = fromServer(server[0], { connectionId: 'conn-here', model: 'gpt-4o', demo: false }, NOW);
    const pending = mergeServerMessages(server, [seen], RESUME, NOW)[0];
    expect(pending.approval).toMatchObject({ connectionId: 'conn-here', status: 'pending' });
    const refusedApproval: PendingApproval = { ...seen.approval!, status: 'failed', detail: 'Used.' };
    const refused = mergeServerMessages(server, [{ ...seen, complete: true, approval: refusedApproval }], RESUME, NOW)[0];
    expect(refused).toMatchObject({ complete: true, approval: { status: 'failed', detail: 'Used.' } });
    // Not seen here: the target given.
    expect(mergeServerMessages(server, [], RESUME, NOW)[0].approval).toMatchObject({ connectionId: 'conn-1' });
  });

  it('history keeps no token: a pause read back has its id, and one this browser saw is still known by that id', () => {
    const { token: _token, ...kept } = { ...APPROVAL, id: 'a5b1' };
    const server = [msg({ id: 'a1', content: 'Let me.', blocks: [{ at: 7, frame: { tool_approval: kept } }] })];
    const fresh = mergeServerMessages(server, [], RESUME, NOW)[0];
    expect(fresh.approval).toMatchObject({ token: '', id: 'a5b1', callId: 'call_2', connectionId: 'conn-1', status: 'pending' });
    // This browser saw the pause live (token and id): its copy, with its connection and token, is kept.
    const live = fromServer(msg({ id: 'a1', content: 'Let me.', blocks: [{ at: 7, frame: { tool_approval: { ...APPROVAL, id: 'a5b1' } } }] }), { connectionId: 'conn-here', model: 'gpt-4o', demo: false }, NOW);
    expect(mergeServerMessages(server, [live], RESUME, NOW)[0].approval).toMatchObject({ token: 'tok_1', id: 'a5b1', connectionId: 'conn-here' });
  });
});
