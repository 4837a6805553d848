import { describe, expect, it } from 'vitest';
import { APPROVAL, CALL, RESULT } from '../test-fixtures';
import { errorEventMessage, interpretEvent, type SseEvent } from './frames';

describe('interpretEvent', () => {
  const ev = (data: string, event = 'message'): SseEvent => ({ event, data });
  it('reads content, usage and [DONE]', () => {
    expect(interpretEvent(ev('{"content":"hi"}'))).toEqual({ content: 'hi' });
    expect(interpretEvent(ev('{"usage":{"input_tokens":3,"output_tokens":5,"cost_usd":0.01}}'))).toEqual({
      usage: { input_tokens: 3, output_tokens: 5, cost_usd: 0.01 },
    });
    expect(interpretEvent(ev('[DONE]'))).toEqual({ done: true });
    expect(interpretEvent(ev('{}'))).toEqual({});
  });
  it('takes a plain-text data line (not JSON) as content', () => {
    expect(interpretEvent(ev('just text'))).toEqual({ content: 'just text' });
    expect(interpretEvent(ev('42'))).toEqual({ content: '42' });
  });
  it('throws the error event detail, else Stream error occurred', () => {
    expect(() => interpretEvent(ev('{"detail":"Stream timeout"}', 'error'))).toThrow('Stream timeout');
    expect(() => interpretEvent(ev('{}', 'error'))).toThrow('Stream error occurred');
    expect(() => interpretEvent(ev('', 'error'))).toThrow('Stream error occurred');
    expect(() => interpretEvent(ev('{"error":"bad key"}'))).toThrow('bad key');
  });
  it('errorEventMessage reads detail, message, error, or plain text', () => {
    expect(errorEventMessage('{"detail":"d"}')).toBe('d');
    expect(errorEventMessage('{"message":"m"}')).toBe('m');
    expect(errorEventMessage('{"error":"e"}')).toBe('e');
    expect(errorEventMessage('upstream broke')).toBe('upstream broke');
    expect(errorEventMessage('{"detail":""}')).toBe('');
  });
});

describe('interpretEvent: tool frames', () => {
  const ev = (data: string, event = 'message'): SseEvent => ({ event, data });
  it('reads tool_call with its arguments as sent', () => {
    expect(interpretEvent(ev(JSON.stringify({ tool_call: CALL })))).toEqual({ toolCall: CALL });
    // Arguments the model wrote as text (not JSON) come as a string.
    expect(interpretEvent(ev(JSON.stringify({ tool_call: { ...CALL, arguments: 'a=2' } }))).toolCall?.arguments).toBe('a=2');
  });
  it('reads tool_result, with denied and truncated only when true', () => {
    expect(interpretEvent(ev(JSON.stringify({ tool_result: RESULT })))).toEqual({ toolResult: RESULT });
    const denied = { id: 'c', is_error: true, content: [{ type: 'text', text: 'The user denied this tool call.' }], duration_ms: 0, denied: true };
    expect(interpretEvent(ev(JSON.stringify({ tool_result: denied })))).toEqual({ toolResult: denied });
    expect(interpretEvent(ev(JSON.stringify({ tool_result: { ...RESULT, truncated: true, denied: false } }))).toolResult).toEqual({ ...RESULT, truncated: true });
  });
  it("reads a call's MCP connection and its view (ui:// only), and a result's structured content", () => {
    const withView = { ...CALL, connection_id: 'mcp-conn-1', ui: { resource_uri: 'ui://get-time/mcp-app.html' } };
    expect(interpretEvent(ev(JSON.stringify({ tool_call: withView })))).toEqual({ toolCall: withView });
    for (const resource_uri of ['https://example.com/view.html', 'javascript:alert(1)', '', 42]) {
      expect(interpretEvent(ev(JSON.stringify({ tool_call: { ...CALL, ui: { resource_uri } } }))).toolCall).toEqual(CALL);
    }
    const structured = { ...RESULT, structured_content: { time: '10:00' } };
    expect(interpretEvent(ev(JSON.stringify({ tool_result: structured })))).toEqual({ toolResult: structured });
    expect(interpretEvent(ev(JSON.stringify({ tool_result: { ...RESULT, structured_content: null } }))).toolResult).toEqual(RESULT);
  });
  it('keeps only content blocks that have a type; a null content is empty', () => {
    const got = interpretEvent(ev(JSON.stringify({ tool_result: { id: 'c', is_error: false, content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }, { text: 'no type' }, null], duration_ms: 3 } })));
    expect(got.toolResult?.content).toEqual([{ type: 'image', data: 'AA==', mimeType: 'image/png' }]);
    expect(interpretEvent(ev(JSON.stringify({ tool_result: { id: 'c', is_error: false, content: null, duration_ms: 1 } }))).toolResult?.content).toEqual([]);
  });
  it('ignores tool frames without an id', () => {
    expect(interpretEvent(ev(JSON.stringify({ tool_call: { ...CALL, id: '' } })))).toEqual({});
    expect(interpretEvent(ev(JSON.stringify({ tool_result: { is_error: false } })))).toEqual({});
  });
  it('reads a notice', () => {
    expect(interpretEvent(ev(JSON.stringify({ notice: 'The reply stopped after 8 tool rounds.' })))).toEqual({ notice: 'The reply stopped after 8 tool rounds.' });
    expect(interpretEvent(ev(JSON.stringify({ notice: '  ' })))).toEqual({});
  });
  it('reads the tool_approval event; destructiveHint only when sent', () => {
    expect(interpretEvent(ev(JSON.stringify(APPROVAL), 'tool_approval'))).toEqual({ approval: APPROVAL });
    const noHint = { ...APPROVAL, call: { ...APPROVAL.call, annotations: { readOnlyHint: false } } };
    expect(interpretEvent(ev(JSON.stringify(noHint), 'tool_approval')).approval?.call.annotations).toEqual({ readOnlyHint: false });
  });
  it('a tool_approval without a token or call is a stream error', () => {
    expect(() => interpretEvent(ev('{"call":{}}', 'tool_approval'))).toThrow('Stream error occurred');
    expect(() => interpretEvent(ev('{"token":"t"}', 'tool_approval'))).toThrow('Stream error occurred');
  });
});

describe('interpretEvent: a kept message', () => {
  it('a resumed reply names only its assistant message', () => {
    expect(interpretEvent({ event: 'message', data: '{"message_ids":{"assistant":"mA"}}' })).toEqual({ messageIds: { user: '', assistant: 'mA' } });
  });
});
