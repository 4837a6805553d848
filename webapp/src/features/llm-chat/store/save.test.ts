import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession } from '../../../lib/auth-session';
import { ADA, startSignedIn } from '../../../test/session';
import { freshChatState } from '../state/chat-state';
import { chatStorageKeys } from '../state/persistence';
import type { ChatState } from '../state/types';
import { SAVE_DELAY_MS, saveNow, saveSoon, type Saveable } from './save';

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
