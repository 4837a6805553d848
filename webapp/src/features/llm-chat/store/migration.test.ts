import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES, MAX_UPLOAD_BYTES, MAX_UPLOADED_MESSAGES } from '../api/conversations';
import { createMessage } from '../state/chat-state';
import type { ChatMessage } from '../state/types';
import { cutToBytes, uploadableMessages } from './migration';

const NOW = '2026-03-07T10:00:00.000Z';
const bytes = (s: string) => new TextEncoder().encode(s).length;
const msg = (id: string, role: 'user' | 'assistant', content: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  ...createMessage(id, role, content, NOW, true),
  ...extra,
});

describe('cutToBytes', () => {
  it('keeps whole characters within the bytes', () => {
    expect(cutToBytes('short', 10)).toBe('short');
    expect(cutToBytes('ééé', 5)).toBe('éé'); // 2 bytes each: the third would split
    expect(cutToBytes('a😀b', 4)).toBe('a'); // the emoji takes 4
    expect(bytes(cutToBytes('é'.repeat(1000), 999))).toBe(998);
  });
});

describe('uploadableMessages', () => {
  it('sends role, text and time; a reply its error and usage; skips a reply that never began', () => {
    const usage = { input_tokens: 3, output_tokens: 2, cost_usd: 0.01 };
    expect(
      uploadableMessages([
        msg('1', 'user', 'Hi'),
        msg('2', 'assistant', 'Hello', { usage, summary: 'browser only' }),
        msg('3', 'user', 'Again'),
        msg('4', 'assistant', '', { error: 'Rate limited.' }),
        msg('5', 'assistant', '', { complete: false }),
      ]),
    ).toEqual([
      { role: 'user', content: 'Hi', created_at: NOW },
      { role: 'assistant', content: 'Hello', created_at: NOW, usage },
      { role: 'user', content: 'Again', created_at: NOW },
      { role: 'assistant', content: '', created_at: NOW, error: 'Rate limited.' },
    ]);
  });

  it('keeps the newest within the API limits: 500 messages, 4 MiB, 1 MiB a message', () => {
    const many = Array.from({ length: MAX_UPLOADED_MESSAGES + 20 }, (_, i) => msg(String(i), 'user', `m${i}`));
    const sent = uploadableMessages(many);
    expect(sent).toHaveLength(MAX_UPLOADED_MESSAGES);
    expect(sent[0].content).toBe('m20');
    expect(sent.at(-1)!.content).toBe(`m${MAX_UPLOADED_MESSAGES + 19}`);

    const big = Array.from({ length: 6 }, (_, i) => msg(String(i), 'user', `${i}`.repeat(2 * MAX_MESSAGE_BYTES)));
    const fit = uploadableMessages(big);
    expect(fit.map((m) => m.content[0])).toEqual(['3', '4', '5']); // three of 1 MiB fit in 4 MiB, the newest
    expect(fit.every((m) => bytes(m.content) === MAX_MESSAGE_BYTES)).toBe(true);
    expect(bytes(JSON.stringify(fit))).toBeLessThanOrEqual(MAX_UPLOAD_BYTES);
  });
});
