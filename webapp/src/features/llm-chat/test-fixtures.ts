// A reply's tool frames as the server writes them, for the tests of reading
// them (api/frames.test.ts) and of the stream that carries them
// (api/chat-stream.test.ts); and a chat state as storage gives it back.

import { restoreChatState, storableState } from './state/persistence';
import type { ChatState } from './state/types';

export const CALL = { id: 'call_1', server_id: 'local-everything', server_name: 'Everything', tool: 'get-sum', arguments: { a: 2, b: 3 } };
export const RESULT = { id: 'call_1', is_error: false, content: [{ type: 'text', text: 'The sum of 2 and 3 is 5.' }], duration_ms: 12 };
export const APPROVAL = {
  token: 'tok_1',
  expires_at: '2026-03-07T10:10:00Z',
  call: { ...CALL, tool: 'toggle-simulated-logging', arguments: {}, description: 'Toggles logging.', annotations: { readOnlyHint: false, destructiveHint: false } },
};

/** One `data:` frame of an event stream. */
export const frame = (v: unknown) => `data: ${JSON.stringify(v)}\n\n`;

/** What storage gives back of `state` (as store/save.ts writes and reads it); `freshId` names the tab of an empty one. */
export function readBack(state: ChatState, now: string, freshId = 'fresh'): ChatState {
  const { tabs, conversations } = JSON.parse(JSON.stringify(storableState(state))) as ReturnType<typeof storableState>;
  return restoreChatState(tabs, state.activeTabId, conversations, freshId, now);
}
