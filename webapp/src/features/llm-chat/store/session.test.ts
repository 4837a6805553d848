import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { ADA, startSignedIn } from '../../../test/session';
import { createMessage, freshChatState } from '../state/chat-state';
import type { ChatState } from '../state/types';
import { chatStorageKeys, loadChatState, SAVE_DELAY_MS, saveChatState } from './save';
import { abortTab, createSession, dispatch, endSession, findMessage, findTab, setSnap, SIGNED_OUT, track, type Session } from './session';

const NOW = '2026-03-07T10:00:00.000Z';
const keys = chatStorageKeys(ADA.id);
/** Lets the writes queued for the end of this task happen (save.ts saveThisTask). */
const taskEnd = () => Promise.resolve();
const storedTitles = () => (JSON.parse(localStorage.getItem(keys.tabs) ?? '[]') as { title: string }[]).map((t) => t.title);

/** Tabs are stored once they are server conversations. */
const kept = (state: ChatState): ChatState => ({ ...state, tabs: state.tabs.map((t) => ({ ...t, conversationId: `c-${t.id}` })) });

let s: Session;
let emit: Mock<() => void>;
let afterChange: Mock<(s: Session) => void>;

function open(userId = ADA.id): Session {
  emit = vi.fn<() => void>();
  afterChange = vi.fn<(s: Session) => void>();
  return createSession(userId, { emit, afterChange });
}

beforeEach(() => {
  startSignedIn();
  s = open();
  // The fresh Chat 1 as a server conversation, so that what is saved shows.
  s.snap = { ...s.snap, state: kept(s.snap.state) };
});
afterEach(() => {
  endSession(s);
  vi.useRealTimers();
});

describe('createSession', () => {
  it("starts with a fresh 'Chat 1' when the account has nothing stored", () => {
    expect(s.userId).toBe(ADA.id);
    expect(s.snap.userId).toBe(ADA.id);
    expect(s.snap.state.tabs.map((t) => t.title)).toEqual(['Chat 1']);
    expect(s.snap.state.activeTabId).toBe(s.snap.state.tabs[0].id);
    expect(s.snap).toMatchObject({ drafts: {}, connections: {}, connecting: {}, sending: {} });
    expect(s.snap.summarizing.size).toBe(0);
    expect(s.snap.summarizing).not.toBe(SIGNED_OUT.summarizing); // its own set
    expect(s.ended).toBe(false);
  });

  it("loads the account's stored tabs and conversations", () => {
    const state = kept(freshChatState('t1', NOW));
    state.conversations.t1 = [createMessage('m1', 'user', 'Hi', NOW, true)];
    saveChatState(ADA.id, state);
    const loaded = open();
    expect(loaded.snap.state).toEqual(loadChatState(ADA.id, 'unused', NOW));
    expect(findMessage(loaded, 't1', 'm1')?.content).toBe('Hi');
    expect(findTab(loaded, 't1')?.title).toBe('Chat 1');
    expect(findTab(loaded, 'nope')).toBeUndefined();
  });

  it("never reads another account's chat", () => {
    const other = freshChatState('t-other', NOW);
    other.tabs[0].title = 'Not yours';
    saveChatState('u2', other);
    expect(open().snap.state.tabs.map((t) => t.title)).toEqual(['Chat 1']);
  });
});

describe('dispatch', () => {
  it('applies the action, emits, saves before the task ends and tells the owner to look for work', async () => {
    const before = s.snap;
    dispatch(s, { type: 'newTab', id: 't2', now: NOW });
    expect(localStorage.getItem(keys.activeTab)).toBeNull();
    await taskEnd();
    expect(s.snap).not.toBe(before);
    expect(s.snap.state.tabs.map((t) => t.id)).toContain('t2');
    expect(s.snap.state.activeTabId).toBe('t2');
    expect(emit).toHaveBeenCalledTimes(1);
    expect(storedTitles()).toEqual(['Chat 1']); // Chat 2 is stored once it is a server conversation
    expect(localStorage.getItem(keys.activeTab)).toBe('t2');
    expect(afterChange).toHaveBeenCalledWith(s);
  });

  it('an action that changes nothing does nothing (no emit, no save)', () => {
    const before = s.snap;
    dispatch(s, { type: 'selectTab', tabId: s.snap.state.activeTabId });
    dispatch(s, { type: 'removeMessage', tabId: s.snap.state.activeTabId, messageId: 'none' });
    expect(s.snap).toBe(before);
    expect(emit).not.toHaveBeenCalled();
    expect(afterChange).not.toHaveBeenCalled();
    expect(localStorage.getItem(keys.tabs)).toBeNull();
  });

  it(`streamed text is saved within ${SAVE_DELAY_MS} ms, batched, and does not look for work`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const tabId = s.snap.state.activeTabId;
    dispatch(s, { type: 'addMessage', tabId, message: createMessage('r1', 'assistant', '', NOW, false) });
    await taskEnd();
    afterChange.mockClear();
    dispatch(s, { type: 'appendContent', tabId, messageId: 'r1', chunk: 'Hel' });
    dispatch(s, { type: 'appendContent', tabId, messageId: 'r1', chunk: 'lo' });
    expect(findMessage(s, tabId, 'r1')?.content).toBe('Hello');
    const storedContent = () => JSON.parse(localStorage.getItem(keys.conversations)!)[tabId][0].content;
    expect(storedContent()).toBe('');
    vi.advanceTimersByTime(SAVE_DELAY_MS);
    expect(storedContent()).toBe('Hello');
    expect(afterChange).not.toHaveBeenCalled();
  });

  it('the end of a reply writes its text before the task ends, once with the changes beside it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const tabId = s.snap.state.activeTabId;
    const write = vi.spyOn(Storage.prototype, 'setItem');
    dispatch(s, { type: 'addMessage', tabId, message: createMessage('r1', 'assistant', '', NOW, false) });
    dispatch(s, { type: 'appendContent', tabId, messageId: 'r1', chunk: 'All of it' });
    dispatch(s, { type: 'completeMessage', tabId, messageId: 'r1' });
    await taskEnd();
    // One write for the three changes: a long conversation's write is a long task's worth.
    expect(write.mock.calls.filter(([key]) => key === keys.conversations)).toHaveLength(1);
    expect(JSON.parse(localStorage.getItem(keys.conversations)!)[tabId][0]).toMatchObject({ content: 'All of it', complete: true });
    expect(s.saveTimer).toBeUndefined();
  });
});

describe('setSnap', () => {
  it('replaces part of the snapshot and emits', () => {
    setSnap(s, { drafts: { a: 'x' } });
    expect(s.snap.drafts).toEqual({ a: 'x' });
    expect(s.snap.userId).toBe(ADA.id);
    expect(emit).toHaveBeenCalledTimes(1);
  });
});

describe('track and abortTab', () => {
  it("counts a tab's streams until each is let go", () => {
    const a = new AbortController();
    const b = new AbortController();
    const untrackA = track(s, 't1', a);
    const untrackB = track(s, 't1', b);
    expect(s.streams.get('t1')?.size).toBe(2);
    untrackA();
    expect(s.streams.get('t1')?.size).toBe(1);
    untrackB();
    expect(s.streams.has('t1')).toBe(false);
  });

  it("aborts every stream of one tab, and only that tab's", () => {
    const mine = [new AbortController(), new AbortController()];
    const other = new AbortController();
    for (const c of mine) track(s, 't1', c);
    const untrackOther = track(s, 't2', other);
    abortTab(s, 't1');
    expect(mine.every((c) => c.signal.aborted)).toBe(true);
    expect(other.signal.aborted).toBe(false);
    expect(s.streams.has('t1')).toBe(false);
    untrackOther();
  });

  it('a stream let go after its tab was aborted does not disturb a newer one', () => {
    const old = new AbortController();
    const untrackOld = track(s, 't1', old);
    abortTab(s, 't1');
    const fresh = new AbortController();
    track(s, 't1', fresh);
    untrackOld();
    expect(s.streams.get('t1')?.has(fresh)).toBe(true);
  });
});

describe('endSession', () => {
  it('aborts connects and streams, clears every timer, detaches once, and stops all writes', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const detach = vi.fn();
    s.detach = detach;
    const stream = new AbortController();
    track(s, 't1', stream);
    const fired = vi.fn();
    s.summaryTimers.set('m1', { tabId: 't1', timer: setTimeout(fired, 100) });
    s.autoConnectTimer = setTimeout(fired, 100);
    const tabId = s.snap.state.activeTabId;
    dispatch(s, { type: 'addMessage', tabId, message: createMessage('r1', 'assistant', '', NOW, false) });
    dispatch(s, { type: 'appendContent', tabId, messageId: 'r1', chunk: 'unsaved' });
    localStorage.clear();
    emit.mockClear();

    endSession(s);
    endSession(s);
    expect(s.ended).toBe(true);
    expect(detach).toHaveBeenCalledTimes(1);
    expect(s.lifetime.signal.aborted).toBe(true);
    expect(stream.signal.aborted).toBe(true);
    expect(s.streams.size).toBe(0);
    expect(s.summaryTimers.size).toBe(0);
    expect(s.autoConnectTimer).toBeUndefined();
    expect(s.saveTimer).toBeUndefined();
    vi.advanceTimersByTime(1000);
    expect(fired).not.toHaveBeenCalled();
    expect(localStorage.length).toBe(0); // the waiting write was dropped, not done

    const snap = s.snap;
    dispatch(s, { type: 'newTab', id: 'late', now: NOW });
    setSnap(s, { drafts: { late: 'x' } });
    expect(s.snap).toBe(snap);
    expect(emit).not.toHaveBeenCalled();
    expect(localStorage.length).toBe(0);
  });
});
