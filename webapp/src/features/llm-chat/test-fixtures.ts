// A reply's tool frames as the server writes them, for the tests of reading
// them (api/frames.test.ts) and of the stream that carries them
// (api/chat-stream.test.ts).

export const CALL = { id: 'call_1', server_id: 'local-everything', server_name: 'Everything', tool: 'get-sum', arguments: { a: 2, b: 3 } };
export const RESULT = { id: 'call_1', is_error: false, content: [{ type: 'text', text: 'The sum of 2 and 3 is 5.' }], duration_ms: 12 };
export const APPROVAL = {
  token: 'tok_1',
  expires_at: '2026-03-07T10:10:00Z',
  call: { ...CALL, tool: 'toggle-simulated-logging', arguments: {}, description: 'Toggles logging.', annotations: { readOnlyHint: false, destructiveHint: false } },
};

/** One `data:` frame of an event stream. */
export const frame = (v: unknown) => `data: ${JSON.stringify(v)}\n\n`;
