import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, setSession } from '../../../lib/auth-session';
import { fakeConversations, installFakeApi, sseData, sseStream } from '../../../test/fake-api';
import { jsonResponse, tokenExpiringIn } from '../../../test/jwt-fixtures';
import { ADA, startSignedIn, startSignedOut } from '../../../test/session';
import { createMessage, freshChatState } from '../state/chat-state';
import { currentSession, getChatSnapshot, resetChatStoreForTests, runningStreams, subscribeChat } from './account';
import { chatStorageKeys, SAVE_DELAY_MS, saveChatState } from './save';
import { setDraft } from './drafts';
import { send } from './sending';
import { dispatch, track } from './session';

const NOW = '2026-03-07T10:00:00.000Z';
const GRACE = { ...ADA, id: 'u2', email: 'grace@example.com', username: 'grace', full_name: 'Grace Hopper' };

function storeChat(userId: string, title: string): void {
  const state = freshChatState(`tab-${userId}`, NOW);
  state.tabs[0].title = title;
  state.tabs[0].conversationId = `c-${userId}`;
  saveChatState(userId, state);
}

afterEach(() => {
  resetChatStoreForTests();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('signed out', () => {
  it('there is no session, and the snapshot is the empty signed-out one', () => {
    startSignedOut();
    expect(currentSession()).toBeNull();
    const snap = getChatSnapshot();
    expect(snap.userId).toBeNull();
    expect(snap.state.tabs).toHaveLength(1);
    expect(getChatSnapshot()).toBe(snap);
  });
});

describe('signed in', () => {
  beforeEach(() => {
    storeChat(ADA.id, 'Ada’s chat');
    startSignedIn();
  });

  it("the session is the account's, with its stored chat, made once", () => {
    const s = currentSession();
    expect(s?.userId).toBe(ADA.id);
    expect(currentSession()).toBe(s);
    const snap = getChatSnapshot();
    expect(snap.userId).toBe(ADA.id);
    expect(snap.state.tabs.map((t) => t.title)).toEqual(['Ada’s chat']);
    expect(getChatSnapshot()).toBe(snap); // stable while nothing changes (useSyncExternalStore)
  });

  it('listeners hear every change, until they unsubscribe', () => {
    const listener = vi.fn();
    const unsubscribe = subscribeChat(listener);
    const s = currentSession()!;
    setDraft(s, 'Hi', s.snap.state.activeTabId);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(getChatSnapshot().drafts).toEqual({ [s.snap.state.activeTabId]: 'Hi' });
    unsubscribe();
    setDraft(s, 'Hi there', s.snap.state.activeTabId);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('logging out ends the session even with no page on screen: streams aborted, nothing written back', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const listener = vi.fn();
    subscribeChat(listener);
    const s = currentSession()!;
    const tabId = s.snap.state.activeTabId;
    const stream = new AbortController();
    track(s, tabId, stream);
    expect(runningStreams(tabId)).toBe(1);
    dispatch(s, { type: 'addMessage', tabId, message: createMessage('r1', 'assistant', '', NOW, false) });
    dispatch(s, { type: 'appendContent', tabId, messageId: 'r1', chunk: 'waiting to be saved' });
    listener.mockClear();

    clearSession();
    expect(s.ended).toBe(true);
    expect(stream.signal.aborted).toBe(true);
    expect(runningStreams(tabId)).toBe(0);
    expect(listener).toHaveBeenCalled();
    expect(getChatSnapshot().userId).toBeNull();
    vi.advanceTimersByTime(SAVE_DELAY_MS * 2);
    expect(localStorage.getItem(chatStorageKeys(ADA.id).conversations)).toBeNull(); // removed by the logout, and stays so
  });

  it("another account signing in gets its own chat; the first account's session ends", () => {
    storeChat(GRACE.id, 'Grace’s chat');
    const ada = currentSession()!;
    setSession(GRACE, tokenExpiringIn(3600));
    expect(ada.ended).toBe(true);
    const snap = getChatSnapshot();
    expect(snap.userId).toBe(GRACE.id);
    expect(snap.state.tabs.map((t) => t.title)).toEqual(['Grace’s chat']);
    expect(currentSession()).not.toBe(ada);
  });

  it('a page hiding writes the streamed text still waiting to be saved', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const s = currentSession()!;
    const tabId = s.snap.state.activeTabId;
    dispatch(s, { type: 'addMessage', tabId, message: createMessage('r1', 'assistant', '', NOW, false) });
    await Promise.resolve(); // written before the task ends
    dispatch(s, { type: 'appendContent', tabId, messageId: 'r1', chunk: 'almost lost' });
    const stored = () => JSON.parse(localStorage.getItem(chatStorageKeys(ADA.id).conversations)!)[tabId][0].content;
    expect(stored()).toBe('');
    window.dispatchEvent(new Event('pagehide'));
    expect(stored()).toBe('almost lost');
    expect(s.saveTimer).toBeUndefined();
  });

  it('resetChatStoreForTests ends the session, detaches it from the page and forgets the listeners', () => {
    const added = vi.spyOn(window, 'addEventListener');
    const removed = vi.spyOn(window, 'removeEventListener');
    const listener = vi.fn();
    subscribeChat(listener);
    const s = currentSession()!;
    const flush = added.mock.calls.find(([type]) => type === 'pagehide')?.[1];
    expect(flush).toBeTypeOf('function');
    resetChatStoreForTests();
    expect(s.ended).toBe(true);
    expect(removed).toHaveBeenCalledWith('pagehide', flush);
    // The next ask makes a fresh session for the same account; the old listener hears nothing of it.
    const next = currentSession()!;
    expect(next).not.toBe(s);
    setDraft(next, 'x', next.snap.state.activeTabId);
    expect(listener).not.toHaveBeenCalled();
  });
});

describe('a page going away and coming back', () => {
  it("lets its streams go, so a reload's broken connection is no failed reply; back from the back/forward cache, the reply is re-attached", async () => {
    startSignedIn();
    const api = installFakeApi();
    const convs = fakeConversations(api);
    api.route('POST /api/v1/mcp-connections/openai', () => jsonResponse(200, { id: 'conn-1', server_name: 'OpenAI GPT (local demo)', model: 'gpt-4o-mini', demo: true }));
    const body = sseStream();
    api.route('POST /api/v1/mcp-connections/message', (req) => convs.keepStream(req.body, body.response));
    const s = currentSession()!;
    const tabId = s.snap.state.activeTabId;
    const sent = send(s, 'Tell me', {});
    body.push(sseData({ content: 'Once' }));
    await vi.waitFor(() => expect(s.snap.state.conversations[tabId][1]?.content).toBe('Once'));

    window.dispatchEvent(new Event('pagehide'));
    await expect(sent).resolves.toBe(false);
    const reply = s.snap.state.conversations[tabId][1];
    expect(reply).toMatchObject({ complete: false, content: 'Once' });
    expect(reply.error).toBeUndefined();
    expect(JSON.parse(localStorage.getItem(chatStorageKeys(ADA.id).conversations)!)[tabId][1]).toMatchObject({ complete: false, serverId: reply.serverId });

    const cid = s.snap.state.tabs[0].conversationId!;
    convs.messages[cid][1].content = 'Once upon a time.';
    convs.messages[cid][1].complete = true;
    const event = new Event('pageshow') as PageTransitionEvent;
    Object.defineProperty(event, 'persisted', { value: true });
    window.dispatchEvent(event);
    await vi.waitFor(() => expect(s.snap.state.conversations[tabId][1]).toMatchObject({ content: 'Once upon a time.', complete: true }));
  });
});
