// Stop as it meets a reply that is sent (sending.test.ts, 'stop') or
// re-attached (reattach.test.ts): here, which reply it is for.

import { describe, expect, it } from 'vitest';
import { createMessage } from '../state/chat-state';
import type { ChatMessage } from '../state/types';
import { streamingReply } from './stop';

const NOW = '2026-03-07T10:00:00.000Z';
const question = createMessage('u1', 'user', 'Q', NOW, true);

describe('streamingReply', () => {
  it('is the last message when it is a reply still streaming', () => {
    const reply = createMessage('a1', 'assistant', 'Par', NOW, false);
    expect(streamingReply([question, reply])).toBe(reply);
  });

  it('none for a finished reply, a user message last, or no message', () => {
    expect(streamingReply([question, createMessage('a1', 'assistant', 'Done', NOW, true)])).toBeUndefined();
    expect(streamingReply([createMessage('a0', 'assistant', 'x', NOW, false), question])).toBeUndefined();
    expect(streamingReply([])).toBeUndefined();
  });

  it('none for a reply paused for a tool approval (nothing is generated meanwhile)', () => {
    const paused: ChatMessage = {
      ...createMessage('a1', 'assistant', 'Let me.', NOW, false),
      approval: {
        token: 't',
        expiresAt: '2099-01-01T00:00:00Z',
        callId: 'c',
        serverId: 's',
        serverName: 'S',
        tool: 'x',
        arguments: {},
        description: '',
        readOnly: false,
        destructive: true,
        connectionId: 'conn',
        model: 'gpt-4o-mini',
        demo: true,
        status: 'pending',
      },
    };
    expect(streamingReply([question, paused])).toBeUndefined();
  });
});
