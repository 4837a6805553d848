import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession } from '../../../lib/auth-session';
import { ADA, startSignedIn } from '../../../test/session';
import { createMessage, freshChatState } from '../state/chat-state';
import type { ChatState } from '../state/types';
import { chatStorageKeys, loadChatState, SAVE_DELAY_MS, saveChatState, saveNow, saveSoon, type Saveable } from './save';

const NOW = '2026-03-07T10:00:00.000Z';
const keys = chatStorageKeys(ADA.id);
const stored = () => localStorage.getItem(keys.tabs);
/** A state with one tab, a server conversation (what is stored). */
const titled = (title: string): ChatState => {
  const state = freshChatState('t1', NOW);
  return { ...state, tabs: [{ ...state.tabs[0], title, conversationId: 'c1' }] };
};

let s: Saveable;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  startSignedIn();
  s = { userId: ADA.id, snap: { state: titled('First') }, ended: false, saveTimer: undefined };
});
afterEach(() => {
  if (s.saveTimer !== undefined) clearTimeout(s.saveTimer);
  vi.useRealTimers();
});

describe('saveChatState and loadChatState', () => {
  /** Two tabs with a server conversation each, the second active. */
  const two = (): ChatState => {
    const first = titled('First');
    const second = { ...first.tabs[0], id: 't2', title: 'Second', provider: 'google' as const, model: 'gemini-1.5-pro', conversationId: 'c2' };
    return {
      tabs: [first.tabs[0], second],
      activeTabId: 't2',
      conversations: { t1: [createMessage('u1', 'user', 'My private note', NOW, true)], t2: [] },
    };
  };

  it("round-trips tabs, the active tab and conversations under the account's own keys", () => {
    const state = two();
    saveChatState('alice', state);
    expect(JSON.parse(localStorage.getItem('chat-tabs:alice')!)).toHaveLength(2);
    expect(localStorage.getItem('chat-active-tab:alice')).toBe('t2');
    expect(Object.keys(JSON.parse(localStorage.getItem('chat-conversations:alice')!)).sort()).toEqual(['t1', 't2']);
    expect(loadChatState('alice', 'unused', NOW)).toEqual(state);
  });

  it('keeps each account to itself: never the bare keys, and another account starts afresh', () => {
    const state = two();
    saveChatState('alice', state);
    expect(localStorage.getItem('chat-tabs')).toBeNull();
    expect(localStorage.getItem('chat-conversations')).toBeNull();
    expect(loadChatState('bob', 'b1', NOW)).toEqual(freshChatState('b1', NOW));
    // A copy under the bare keys is not picked up by anyone.
    localStorage.setItem('chat-tabs', JSON.stringify(state.tabs));
    localStorage.setItem('chat-conversations', JSON.stringify(state.conversations));
    expect(loadChatState('bob', 'b1', NOW)).toEqual(freshChatState('b1', NOW));
  });
});

describe('writing a long conversation', () => {
  const long = (n: number): ChatState => {
    const state = titled('Long');
    return { ...state, conversations: { t1: Array.from({ length: n }, (_, i) => createMessage(`m${i}`, i % 2 ? 'assistant' : 'user', `Message ${i}`, NOW, true)) } };
  };
  /** JSON.stringify calls on a message of the conversation. */
  const messageWrites = (spy: { mock: { calls: unknown[][] } }) =>
    spy.mock.calls.filter(([value]) => typeof value === 'object' && value !== null && 'role' in value).length;

  it('writes what JSON.stringify would, serializing only the messages changed since the last write', () => {
    const state = long(1000);
    saveChatState('alice', state);
    expect(localStorage.getItem('chat-conversations:alice')).toBe(JSON.stringify({ t1: state.conversations.t1 }));
    const stringify = vi.spyOn(JSON, 'stringify');
    const list = [...state.conversations.t1];
    list[999] = { ...list[999], content: 'Message 999, streamed on' };
    const next = { ...state, conversations: { t1: list } };
    saveChatState('alice', next);
    expect(messageWrites(stringify)).toBe(1);
    stringify.mockRestore();
    expect(localStorage.getItem('chat-conversations:alice')).toBe(JSON.stringify({ t1: list }));
    expect(loadChatState('alice', 'unused', NOW)).toEqual(next);
  });
});

describe('saveNow', () => {
  it("writes the state under the account's own keys at once", () => {
    saveNow(s);
    expect(JSON.parse(stored()!)).toEqual(s.snap.state.tabs);
    expect(localStorage.getItem(keys.activeTab)).toBe('t1');
    expect(JSON.parse(localStorage.getItem(keys.conversations)!)).toEqual({ t1: [] });
  });

  it('does the write a saveSoon was waiting for', () => {
    saveSoon(s);
    s.snap = { state: titled('Second') };
    saveNow(s);
    expect(JSON.parse(stored()!)[0].title).toBe('Second');
    expect(s.saveTimer).toBeUndefined();
    localStorage.clear();
    vi.advanceTimersByTime(SAVE_DELAY_MS * 2);
    expect(stored()).toBeNull(); // no second, late write
  });

  it('writes nothing once the session ended', () => {
    s.ended = true;
    saveNow(s);
    expect(stored()).toBeNull();
  });

  it('writes nothing when the account is no longer the signed-in one', () => {
    clearSession();
    saveNow(s);
    expect(stored()).toBeNull();
    startSignedIn({ ...ADA, id: 'u2' });
    saveNow(s);
    expect(stored()).toBeNull();
    expect(localStorage.getItem(chatStorageKeys('u2').tabs)).toBeNull();
  });
});

describe('saveSoon', () => {
  it(`batches the writes of ${SAVE_DELAY_MS} ms into one, of the state as it is then`, () => {
    const write = vi.spyOn(Storage.prototype, 'setItem');
    saveSoon(s);
    s.snap = { state: titled('Second') };
    saveSoon(s);
    s.snap = { state: titled('Third') };
    saveSoon(s);
    vi.advanceTimersByTime(SAVE_DELAY_MS - 1);
    expect(stored()).toBeNull();
    vi.advanceTimersByTime(1);
    expect(JSON.parse(stored()!)[0].title).toBe('Third');
    expect(write.mock.calls.filter(([key]) => key === keys.tabs)).toHaveLength(1);
    expect(s.saveTimer).toBeUndefined();
  });

  it('starts nothing once the session ended', () => {
    s.ended = true;
    saveSoon(s);
    expect(s.saveTimer).toBeUndefined();
  });

  it('a session ending while a write waits: nothing is written', () => {
    saveSoon(s);
    s.ended = true;
    vi.advanceTimersByTime(SAVE_DELAY_MS);
    expect(stored()).toBeNull();
  });
});
