// The conversation at length: only the messages in view (and a few around
// them) are in the page, it opens at the newest, and a streamed chunk
// renders only the streaming reply again. jsdom has no layout: the message
// area and each message are given a height here, and ResizeObserver (which
// the windowed list needs, and jsdom lacks) a stand-in that never reports.

import { render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMessage } from '../state/chat-state';
import type { ChatMessage } from '../state/types';
import { MessageList } from './message-list';

const VIEW_PX = 600;
const MESSAGE_PX = 100;
const NOW = '2026-03-07T10:00:00.000Z';

class StillResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

const conversation = (n: number): ChatMessage[] =>
  Array.from({ length: n }, (_, i) =>
    i % 2 === 0
      ? createMessage(`m${i}`, 'user', `Question ${i}`, NOW, true)
      : createMessage(`m${i}`, 'assistant', `Answer **${i}** with \`code\`:\n\n\`\`\`go\nx := ${i}\n\`\`\``, NOW, true),
  );

const noop = () => undefined;
function list(messages: ChatMessage[], busy = false) {
  return (
    <MessageList
      messages={messages}
      providerLabel="OpenAI GPT"
      model="gpt-4o-mini"
      connecting={false}
      summarizing={new Set()}
      busy={busy}
      onViewFull={noop}
      onShowLess={noop}
      onOpenMenu={noop}
      onDecision={noop}
    />
  );
}

const shown = () => within(screen.getByTestId('messages')).queryAllByTestId('message');

beforeEach(() => {
  vi.stubGlobal('ResizeObserver', StillResizeObserver);
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('chat-messages') ? VIEW_PX : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('chat-messages__item') ? MESSAGE_PX : 0;
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a long conversation', () => {
  it('puts only the messages around the view in the page, and opens at the newest', () => {
    render(list(conversation(1000)));
    const messages = shown();
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.length).toBeLessThan(40);
    expect(messages[messages.length - 1]).toHaveTextContent('Answer 999 with code');
    expect(screen.queryByText('Question 0')).toBeNull();
    // Each says where it is in the whole conversation, not in the window.
    expect(messages[messages.length - 1]).toHaveAttribute('aria-posinset', '1000');
    expect(messages[0]).toHaveAttribute('aria-posinset', String(1001 - messages.length));
    for (const m of messages) expect(m).toHaveAttribute('aria-setsize', '1000');
    // The conversation is still one log, reachable by keyboard to scroll it.
    const log = screen.getByRole('log', { name: 'Conversation' });
    expect(log).toHaveAttribute('tabindex', '0');
  });

  it('a streamed chunk, and the reply ending, render only the reply again', () => {
    const messages = conversation(1000);
    const reply = createMessage('r', 'assistant', 'Part', NOW, false);
    const { rerender } = render(list([...messages, reply], true));
    // Each message shows its time once per render.
    // (Intl.DateTimeFormat's format is a getter of a bound function, read at each use.)
    const formatter = Intl.DateTimeFormat.prototype as unknown as { readonly format: unknown };
    const times = [vi.spyOn(formatter, 'format', 'get'), vi.spyOn(Date.prototype, 'toLocaleTimeString')];
    const renders = () => times.reduce((n, spy) => n + spy.mock.calls.length, 0);
    rerender(list([...messages, { ...reply, content: 'Part one' }], true));
    expect(shown().at(-1)).toHaveTextContent('Part one');
    expect(renders()).toBe(1);
    // Nothing is on its way any more (busy): only a paused reply's card cares.
    rerender(list([...messages, { ...reply, content: 'Part one.', complete: true }], false));
    expect(renders()).toBe(2);
  });
});

describe('without ResizeObserver (nothing to measure with)', () => {
  it('every message is in the page', () => {
    vi.stubGlobal('ResizeObserver', undefined);
    render(list(conversation(30)));
    expect(shown()).toHaveLength(30);
  });
});
