import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeConversations, installFakeApi, type FakeApi, type FakeConversations } from '../../../test/fake-api';
import { getNotifications } from '../../../components/notifications/notification-store';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { ADA, startSignedIn } from '../../../test/session';
import { AUTO_CONNECT_DELAY_MS } from '../constants';
import { chatStorageKeys } from './save';
import { createMessage } from '../state/chat-state';
import { ARCHIVE_FAILED } from './conversations';
import { setDraft } from './drafts';
import { createSession, dispatch, endSession, findTab, track, type Session } from './session';
import { changeModel, closeTab, newTab, selectTab } from './tabs';

let api: FakeApi;
let convs: FakeConversations;
let s: Session;
const tabIds = () => s.snap.state.tabs.map((t) => t.id);
const connectBodies = (provider: string) => api.callsTo('POST', `/api/v1/mcp-connections/${provider}`).map((c) => c.body);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  startSignedIn();
  api = installFakeApi();
  for (const provider of ['openai', 'anthropic']) {
    api.route(`POST /api/v1/mcp-connections/${provider}`, (req) =>
      jsonResponse(200, { id: `conn-${provider}`, server_name: provider === 'openai' ? 'OpenAI GPT' : 'Anthropic Claude', model: (req.body as { model: string }).model }),
    );
  }
  convs = fakeConversations(api);
  s = createSession(ADA.id, { emit: vi.fn(), afterChange: vi.fn() });
});
afterEach(() => {
  endSession(s);
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('newTab and selectTab', () => {
  it('opens a tab, made active, and gives its id at once; its conversation is made', async () => {
    const first = s.snap.state.activeTabId;
    const id = newTab(s);
    expect(tabIds()).toEqual([first, id]);
    expect(s.snap.state.activeTabId).toBe(id);
    expect(s.snap.state.tabs[1].title).toBe('Chat 2');
    await Promise.resolve(); // written before the task ends
    expect(localStorage.getItem(chatStorageKeys(ADA.id).activeTab)).toBe(id);
    expect(api.callsTo('POST', '/api/v1/chat/conversations').map((c) => c.body)).toEqual([{ title: 'Chat 2', provider: 'openai', model: 'gpt-4o-mini' }]);
    await vi.waitFor(() => expect(findTab(s, id)?.conversationId).toBe(convs.all[0].id));
    // Stored once it is a server conversation (the fresh Chat 1 is not, until its first message).
    expect((JSON.parse(localStorage.getItem(chatStorageKeys(ADA.id).tabs)!) as { id: string }[]).map((t) => t.id)).toEqual([id]);
    selectTab(s, first);
    expect(s.snap.state.activeTabId).toBe(first);
  });

  it('a conversation the server refuses to make leaves the tab (its first message tries again) and says why', async () => {
    api.route('POST /api/v1/chat/conversations', () => jsonResponse(503, { detail: 'Busy' }));
    const id = newTab(s);
    await vi.waitFor(() => expect(getNotifications().map((n) => n.message)).toEqual(['Busy']));
    expect(findTab(s, id)?.conversationId).toBeUndefined();
  });

  it('selecting a tab asks the server for its messages, once a session', async () => {
    const c = convs.seed({ title: 'Elsewhere', messages: [{ role: 'user', content: 'Asked elsewhere' }] });
    const first = s.snap.state.activeTabId;
    dispatch(s, { type: 'syncTabs', conversations: convs.open(), keep: [first], id: 'x', now: '2026-03-07T10:00:00.000Z' });
    selectTab(s, c.id);
    await vi.waitFor(() => expect(s.snap.state.conversations[c.id].map((m) => m.content)).toEqual(['Asked elsewhere']));
    selectTab(s, first);
    selectTab(s, c.id);
    expect(api.callsTo('GET', `/api/v1/chat/conversations/${c.id}/messages`)).toHaveLength(1);
  });

  it('a tab new in this session is not asked for: its conversation is new', async () => {
    const id = newTab(s);
    await vi.waitFor(() => expect(findTab(s, id)?.conversationId).toBeDefined());
    selectTab(s, tabIds()[0]);
    selectTab(s, id);
    expect(api.calls.filter((c) => c.method === 'GET')).toEqual([]);
  });
});

describe('closeTab', () => {
  it('gives up what the tab had running: its streams, waiting summaries and draft', async () => {
    const first = s.snap.state.activeTabId;
    const second = newTab(s);
    const mine = new AbortController();
    const other = new AbortController();
    track(s, second, mine);
    const untrackOther = track(s, first, other);
    const summary = vi.fn();
    s.summaryTimers.set('m-second', { tabId: second, timer: setTimeout(summary, 100) });
    s.summaryTimers.set('m-first', { tabId: first, timer: setTimeout(() => undefined, 100) });
    setDraft(s, 'unsent', second);
    setDraft(s, 'kept', first);

    closeTab(s, second);
    await vi.waitFor(() => expect(convs.all).toEqual([])); // empty: deleted, not archived
    expect(mine.signal.aborted).toBe(true);
    expect(other.signal.aborted).toBe(false);
    expect([...s.summaryTimers.keys()]).toEqual(['m-first']);
    vi.advanceTimersByTime(1000);
    expect(summary).not.toHaveBeenCalled();
    expect(s.snap.drafts).toEqual({ [first]: 'kept' });
    expect(tabIds()).toEqual([first]);
    expect(s.snap.state.activeTabId).toBe(first);
    untrackOther();
  });

  it("closing the last tab leaves a fresh 'Chat 1'", () => {
    const only = s.snap.state.activeTabId;
    closeTab(s, only);
    expect(tabIds()).toHaveLength(1);
    expect(tabIds()[0]).not.toBe(only);
    expect(s.snap.state.tabs[0].title).toBe('Chat 1');
    expect(api.calls).toEqual([]); // it had no conversation
  });

  it('archives the conversation of a tab with messages (History lists it)', async () => {
    const id = newTab(s);
    await vi.waitFor(() => expect(findTab(s, id)?.conversationId).toBeDefined());
    dispatch(s, { type: 'addMessage', tabId: id, message: createMessage('u1', 'user', 'Keep me', '2026-03-07T10:00:00.000Z', true) });
    closeTab(s, id);
    await vi.waitFor(() => expect(convs.all[0]).toMatchObject({ archived: true }));
    expect(api.callsTo('PATCH', `/api/v1/chat/conversations/${convs.all[0].id}`).map((c) => c.body)).toEqual([{ archived: true }]);
  });

  it('a tab closed while its conversation is being made: it is deleted once made', async () => {
    const id = newTab(s);
    closeTab(s, id);
    await vi.waitFor(() => expect(api.callsTo('DELETE', `/api/v1/chat/conversations/c0001`)).toHaveLength(1));
    expect(convs.all).toEqual([]);
  });

  it('a tab that had a conversation listed with messages is archived even before they load; a refusal says why', async () => {
    const c = convs.seed({ title: 'Elsewhere', messages: [{ role: 'user', content: 'hi' }] });
    dispatch(s, { type: 'syncTabs', conversations: convs.open(), keep: [s.snap.state.activeTabId], id: 'x', now: '2026-03-07T10:00:00.000Z' });
    api.route(`PATCH /api/v1/chat/conversations/${c.id}`, () => jsonResponse(500, { detail: 'Archive broke' }));
    closeTab(s, c.id);
    await vi.waitFor(() => expect(getNotifications().map((n) => n.message)).toEqual(['Archive broke']));
    expect(ARCHIVE_FAILED).toBe('Failed to archive the chat');
  });
});

describe('changeModel', () => {
  it(`sets the active tab's provider and model and connects ${AUTO_CONNECT_DELAY_MS} ms later`, async () => {
    changeModel(s, 'anthropic', 'claude-3-opus');
    expect(s.snap.state.tabs[0]).toMatchObject({ provider: 'anthropic', model: 'claude-3-opus' });
    await vi.advanceTimersByTimeAsync(AUTO_CONNECT_DELAY_MS - 1);
    expect(connectBodies('anthropic')).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(connectBodies('anthropic')).toEqual([{ model: 'claude-3-opus' }]);
    await vi.waitFor(() => expect(s.snap.connections['anthropic:claude-3-opus']?.id).toBe('conn-anthropic'));
  });

  it("the fresh Chat 1 is made a server conversation by the change, with the new model (kept across a reload)", async () => {
    changeModel(s, 'google', 'gemini-1.5-flash');
    expect(api.callsTo('POST', '/api/v1/chat/conversations').map((c) => c.body)).toEqual([{ title: 'Chat 1', provider: 'google', model: 'gemini-1.5-flash' }]);
    await vi.waitFor(() => expect(s.snap.state.tabs[0].conversationId).toBe(convs.all[0].id));
    await vi.advanceTimersByTimeAsync(AUTO_CONNECT_DELAY_MS);
    expect(api.callsTo('PATCH', `/api/v1/chat/conversations/${convs.all[0].id}`)).toEqual([]);
  });

  it('tells the server of the change with the connect; every tab changed meanwhile', async () => {
    const first = s.snap.state.activeTabId;
    dispatch(s, { type: 'setConversation', tabId: first, conversation: convs.seed({ title: 'Chat 1' }) });
    const second = newTab(s);
    await vi.waitFor(() => expect(findTab(s, second)?.conversationId).toBeDefined());
    changeModel(s, 'anthropic', 'claude-3-opus');
    selectTab(s, first);
    changeModel(s, 'google', 'gemini-1.5-pro');
    await vi.advanceTimersByTimeAsync(AUTO_CONNECT_DELAY_MS);
    await vi.waitFor(() =>
      expect(convs.all.map((c) => [c.title, c.provider, c.model]).sort()).toEqual([
        ['Chat 1', 'google', 'gemini-1.5-pro'],
        ['Chat 2', 'anthropic', 'claude-3-opus'],
      ]),
    );
  });

  it('the last of quick changes wins: one connect, for it', async () => {
    changeModel(s, 'anthropic', 'claude-3-opus');
    await vi.advanceTimersByTimeAsync(AUTO_CONNECT_DELAY_MS - 10);
    changeModel(s, 'openai', 'gpt-4o');
    await vi.advanceTimersByTimeAsync(AUTO_CONNECT_DELAY_MS);
    expect(connectBodies('anthropic')).toEqual([]);
    expect(connectBodies('openai')).toEqual([{ model: 'gpt-4o' }]);
  });

  it("a model the provider does not offer becomes the provider's first", () => {
    changeModel(s, 'anthropic', 'gpt-4o');
    expect(s.snap.state.tabs[0]).toMatchObject({ provider: 'anthropic', model: 'claude-3-5-sonnet' });
  });

  it('the same provider and model again changes nothing and connects nothing', async () => {
    const snap = s.snap;
    changeModel(s, 'openai', 'gpt-4o-mini');
    expect(s.snap).toBe(snap);
    expect(s.autoConnectTimer).toBeUndefined();
    await vi.advanceTimersByTimeAsync(AUTO_CONNECT_DELAY_MS * 5);
    expect(api.calls).toEqual([]);
  });

  it('applies to the active tab only', () => {
    const first = s.snap.state.activeTabId;
    newTab(s);
    changeModel(s, 'anthropic', 'claude-3-opus');
    expect(s.snap.state.tabs.find((t) => t.id === first)).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini' });
  });
});
