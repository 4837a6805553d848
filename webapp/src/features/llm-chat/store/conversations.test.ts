import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deferred, fakeConversations, installFakeApi, sseData, SSE_DONE, sseResponse, sseStream, type FakeApi, type FakeConversations } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { ADA, startSignedIn } from '../../../test/session';
import { createMessage } from '../state/chat-state';
import { chatStorageKeys, saveChatState } from './save';
import type { ChatState, ChatTab } from '../state/types';
import { ensureConversation, loadMessages, removeConversation, reopenConversation, syncConversations } from './conversations';
import { migrateLegacyTabs } from './migration';
import { setDraft } from './drafts';
import { setSending } from './reply';
import { closeTab } from './tabs';
import { createSession, dispatch, endSession, findTab, type Session } from './session';

const NOW = '2026-03-07T10:00:00.000Z';
const CONVS = '/api/v1/chat/conversations';

let api: FakeApi;
let convs: FakeConversations;
let s: Session;
const open = () => {
  s = createSession(ADA.id, { emit: vi.fn(), afterChange: vi.fn() });
  return s;
};
const tabs = () => s.snap.state.tabs.map((t) => [t.title, t.conversationId ?? null]);
const messages = (tabId = s.snap.state.activeTabId) => s.snap.state.conversations[tabId] ?? [];
const storedTabs = () => JSON.parse(localStorage.getItem(chatStorageKeys(ADA.id).tabs) ?? '[]') as ChatTab[];

/** What the app stored before conversations were kept with the account. */
function storeLegacy(titles: string[]): void {
  const tabs: ChatTab[] = titles.map((title, i) => ({ id: `old-${i}`, title, provider: 'anthropic', model: 'claude-3-opus', createdAt: NOW }));
  const conversations = Object.fromEntries(tabs.map((t) => [t.id, [createMessage(`m-${t.id}`, 'user', `Said in ${t.title}`, NOW, true)]]));
  localStorage.setItem(chatStorageKeys(ADA.id).tabs, JSON.stringify(tabs));
  localStorage.setItem(chatStorageKeys(ADA.id).activeTab, 'old-0');
  localStorage.setItem(chatStorageKeys(ADA.id).conversations, JSON.stringify(conversations));
}

beforeEach(() => {
  startSignedIn();
  api = installFakeApi();
  convs = fakeConversations(api);
});
afterEach(() => {
  if (s) endSession(s);
  vi.unstubAllGlobals();
});

describe('ensureConversation', () => {
  it('makes the conversation once however many ask; later asks get it at once', async () => {
    open();
    const tabId = s.snap.state.activeTabId;
    const [a, b] = await Promise.all([ensureConversation(s, tabId), ensureConversation(s, tabId)]);
    expect(a).toBe(convs.all[0].id);
    expect(b).toBe(a);
    await expect(ensureConversation(s, tabId)).resolves.toBe(a);
    expect(api.callsTo('POST', CONVS)).toHaveLength(1);
    expect(findTab(s, tabId)).toMatchObject({ conversationId: a, messageCount: 0 });
    await expect(ensureConversation(s, 'no-such-tab')).resolves.toBeNull();
    // Nothing on the server to load for it: what the tab shows stays (a message refused before it was kept too).
    await loadMessages(s, tabId);
    expect(api.callsTo('GET', `${CONVS}/${a}/messages`)).toEqual([]);
  });

  it('a rename or a model change while it is made reaches the server after', async () => {
    open();
    const tabId = s.snap.state.activeTabId;
    const made = ensureConversation(s, tabId);
    dispatch(s, { type: 'addMessage', tabId, message: createMessage('u1', 'user', 'Tides', NOW, true) });
    dispatch(s, { type: 'setTabModel', tabId, provider: 'google', model: 'gemini-1.5-pro' });
    await made;
    await vi.waitFor(() => expect(convs.all[0]).toMatchObject({ title: 'Tides', provider: 'google', model: 'gemini-1.5-pro' }));
  });

  it('rejects with the refusal; the tab stays without one', async () => {
    api.route(`POST ${CONVS}`, () => jsonResponse(400, { detail: 'Unknown model', code: 'invalid' }));
    open();
    await expect(ensureConversation(s, s.snap.state.activeTabId)).rejects.toMatchObject({ status: 400, detail: 'Unknown model' });
    expect(s.snap.state.tabs[0].conversationId).toBeUndefined();
  });
});

describe('syncConversations', () => {
  it('the open conversations become the tabs, newest first; the empty fresh Chat 1 gives way; the active tab’s messages load', async () => {
    const older = convs.seed({ title: 'Older', messages: [{ role: 'user', content: 'Q' }, { role: 'assistant', content: 'A' }] });
    convs.seed({ title: 'Archived', archived: true });
    const newer = convs.seed({ title: 'Newer', provider: 'meta', model: 'llama-3.1-70b-instruct' });
    open();
    expect(tabs()).toEqual([['Chat 1', null]]);
    await syncConversations(s);
    expect(tabs()).toEqual([
      ['Newer', newer.id],
      ['Older', older.id],
    ]);
    expect(s.snap.state.tabs[0]).toMatchObject({ provider: 'meta', model: 'llama-3.1-70b-instruct' });
    expect(s.snap.state.activeTabId).toBe(newer.id);
    expect(api.calls.map((c) => `${c.method} ${c.path}${c.search}`)).toEqual([`GET ${CONVS}?archived=false&limit=100`, `GET ${CONVS}/${newer.id}/messages`]);
    expect(storedTabs().map((t) => t.title)).toEqual(['Newer', 'Older']);
  });

  it('more open conversations than one page: every page is read, so none is left out of the tabs', async () => {
    for (let i = 0; i < 230; i++) convs.seed({ title: `Chat ${i}` });
    open();
    await syncConversations(s);
    expect(s.snap.state.tabs).toHaveLength(230);
    expect(tabs()[0][0]).toBe('Chat 229');
    expect(tabs().at(-1)![0]).toBe('Chat 0');
    expect(api.callsTo('GET', CONVS).map((c) => c.search)).toEqual(['?archived=false&limit=100', '?archived=false&limit=100&cursor=100', '?archived=false&limit=100&cursor=200']);
  });

  it('the same tabs on another device: the stored active tab stays active, and its messages come from the server', async () => {
    const a = convs.seed({ title: 'A', messages: [{ role: 'user', content: 'Question' }, { role: 'assistant', content: 'Answer' }] });
    convs.seed({ title: 'B' });
    const state: ChatState = { tabs: [{ id: a.id, title: 'A', provider: 'openai', model: 'gpt-4o-mini', createdAt: NOW, conversationId: a.id }], activeTabId: a.id, conversations: { [a.id]: [] } };
    saveChatState(ADA.id, state);
    open();
    await syncConversations(s);
    expect(tabs().map(([t]) => t)).toEqual(['B', 'A']);
    expect(s.snap.state.activeTabId).toBe(a.id);
    expect(messages().map((m) => [m.role, m.content])).toEqual([
      ['user', 'Question'],
      ['assistant', 'Answer'],
    ]);
  });

  it('keeps a tab with a draft, a tab whose conversation is being made, and one streaming here; drops one archived elsewhere', async () => {
    const busy = convs.seed({ title: 'Busy' });
    const archivedElsewhere = convs.seed({ title: 'Gone' });
    const listed = convs.seed({ title: 'Listed' });
    saveChatState(ADA.id, {
      tabs: [busy, archivedElsewhere].map((c) => ({ id: c.id, title: c.title, provider: 'openai', model: 'gpt-4o-mini', createdAt: NOW, conversationId: c.id }) as ChatTab),
      activeTabId: busy.id,
      conversations: {},
    });
    archivedElsewhere.archived = true;
    open();
    const fresh = s.snap.state.tabs.find((t) => !t.conversationId);
    expect(fresh).toBeUndefined(); // loaded from storage: no fresh tab
    setSending(s, busy.id, true);
    busy.archived = true; // archived on another device while it streams here
    dispatch(s, { type: 'newTab', id: 'drafting', now: NOW });
    setDraft(s, 'half a thought', 'drafting');
    const held = new Promise<Response>(() => undefined);
    api.route(`POST ${CONVS}`, () => held);
    dispatch(s, { type: 'newTab', id: 'making', now: NOW });
    void ensureConversation(s, 'making');
    await syncConversations(s);
    // The listed ones first (the server's order), then this session's, in their order.
    expect(s.snap.state.tabs.map((t) => t.id)).toEqual([listed.id, busy.id, 'drafting', 'making']);
    setSending(s, busy.id, false);
  });

  it('a listing answered before a tab closed does not bring the closed tab back (nor its stale title)', async () => {
    open();
    const first = s.snap.state.activeTabId;
    const made = (await ensureConversation(s, first))!; // on the server as 'Chat 1' until its rename lands
    dispatch(s, { type: 'addMessage', tabId: first, message: createMessage('u1', 'user', 'Garden party', NOW, true) });
    dispatch(s, { type: 'newTab', id: 'second', now: NOW });
    await ensureConversation(s, 'second');
    // The listing is read now (both open), and its answer arrives after the first tab closed.
    const list = api.handlerFor(`GET ${CONVS}`)!;
    const release = deferred();
    api.route(`GET ${CONVS}`, async (req) => {
      const stale = await list(req);
      await release.promise;
      return stale;
    });
    const syncing = syncConversations(s);
    await vi.waitFor(() => expect(api.callsTo('GET', CONVS)).toHaveLength(1));
    closeTab(s, first);
    await vi.waitFor(() => expect(convs.all.find((c) => c.id === made)?.archived).toBe(true));
    release.resolve();
    await syncing;
    expect(tabs()).toEqual([['Chat 2', convs.all.find((c) => c.id !== made)!.id]]);
    // Reopened from History, it is a tab again and a later listing keeps it.
    await reopenConversation(s, made);
    await syncConversations(s);
    expect(tabs().map(([, id]) => id)).toContain(made);
  });

  it('a listing that shows a conversation before the answer that made it arrives leaves one tab for it, not two', async () => {
    open();
    dispatch(s, { type: 'newTab', id: 'handed-off', now: NOW });
    const make = api.handlerFor(`POST ${CONVS}`)!;
    const release = deferred();
    api.route(`POST ${CONVS}`, async (req) => {
      const made = await make(req); // on the server now; its answer arrives late
      await release.promise;
      return made;
    });
    const making = ensureConversation(s, 'handed-off');
    await vi.waitFor(() => expect(convs.all).toHaveLength(1));
    await syncConversations(s);
    release.resolve();
    const id = await making;
    expect(s.snap.state.tabs.filter((t) => t.conversationId === id).map((t) => t.id)).toEqual(['handed-off']);
    expect(s.snap.state.activeTabId).toBe('handed-off');
  });

  it('offline: the stored tabs and messages stay as they were', async () => {
    const c = convs.seed({ title: 'Stored' });
    saveChatState(ADA.id, {
      tabs: [{ id: 't1', title: 'Stored', provider: 'openai', model: 'gpt-4o-mini', createdAt: NOW, conversationId: c.id }],
      activeTabId: 't1',
      conversations: { t1: [createMessage('u1', 'user', 'Cached', NOW, true)] },
    });
    api.route(`GET ${CONVS}`, () => {
      throw new TypeError('Failed to fetch');
    });
    open();
    const before = s.snap.state;
    await syncConversations(s);
    expect(s.snap.state).toBe(before);
    expect(messages().map((m) => m.content)).toEqual(['Cached']);
  });

  it('migration: old tabs are uploaded once with their messages (the last first, so the first ends newest), then are the server\'s', async () => {
    storeLegacy(['First', 'Second']);
    open();
    expect(s.snap.state.tabs.map((t) => [t.title, t.legacy])).toEqual([
      ['First', true],
      ['Second', true],
    ]);
    await syncConversations(s);
    expect(api.callsTo('POST', CONVS).map((c) => c.body)).toEqual([
      {
        title: 'Second',
        provider: 'anthropic',
        model: 'claude-3-opus',
        upload_key: 'old-1',
        messages: [{ role: 'user', content: 'Said in Second', created_at: NOW }],
      },
      { title: 'First', provider: 'anthropic', model: 'claude-3-opus', upload_key: 'old-0', messages: [{ role: 'user', content: 'Said in First', created_at: NOW }] },
    ]);
    expect(tabs().map(([t]) => t)).toEqual(['First', 'Second']);
    expect(s.snap.state.tabs.every((t) => t.conversationId && !t.legacy)).toBe(true);
    // The active tab shows the server's copy now (its id kept there); nothing is marked as not uploaded.
    const first = convs.all.find((c) => c.title === 'First')!;
    expect(messages().map((m) => [m.content, m.serverId, m.legacy])).toEqual([['Said in First', convs.messages[first.id][0].id, undefined]]);
    expect(storedTabs().map((t) => [t.title, Boolean(t.conversationId), t.legacy])).toEqual([
      ['First', true, undefined],
      ['Second', true, undefined],
    ]);

    // The next load: nothing to upload; the other tab's messages come from the server when it is shown.
    endSession(s);
    open();
    await syncConversations(s);
    expect(api.callsTo('POST', CONVS)).toHaveLength(2);
    const second = s.snap.state.tabs.find((t) => t.title === 'Second')!;
    await loadMessages(s, second.id);
    expect(messages(second.id).map((m) => m.content)).toEqual(['Said in Second']);
  });

  it('migration: a retry after a lost answer makes no second conversation; a message sent before the upload carries the old ones', async () => {
    storeLegacy(['Only']);
    let lose = true;
    const real = api.handlerFor(`POST ${CONVS}`)!;
    api.route(`POST ${CONVS}`, async (req) => {
      const res = await real(req);
      if (!lose) return res;
      lose = false;
      throw new TypeError('Failed to fetch'); // made on the server, the answer lost
    });
    open();
    await expect(migrateLegacyTabs(s)).resolves.toBe(false);
    expect(convs.all).toHaveLength(1);
    const tabId = s.snap.state.tabs[0].id;
    await expect(ensureConversation(s, tabId)).resolves.toBe(convs.all[0].id);
    expect(convs.all).toHaveLength(1);
    expect(convs.messages[convs.all[0].id].map((m) => m.content)).toEqual(['Said in Only']);
    await expect(migrateLegacyTabs(s)).resolves.toBe(true);
    expect(api.callsTo('POST', CONVS)).toHaveLength(2);
  });

  it('migration offline: nothing is lost; it is tried again next time', async () => {
    storeLegacy(['Only']);
    api.route(`POST ${CONVS}`, () => {
      throw new TypeError('Failed to fetch');
    });
    open();
    await expect(migrateLegacyTabs(s)).resolves.toBe(false);
    dispatch(s, { type: 'selectTab', tabId: 'old-0' }); // any change writes the state
    saveChatState(ADA.id, s.snap.state);
    expect(storedTabs().map((t) => [t.title, t.conversationId])).toEqual([['Only', undefined]]);
    expect(localStorage.getItem(chatStorageKeys(ADA.id).conversations)).toContain('Said in Only');
  });
});

describe('loadMessages', () => {
  function oneTab(messages: Parameters<FakeConversations['seed']>[0]['messages'] = []) {
    const c = convs.seed({ title: 'T', messages });
    saveChatState(ADA.id, { tabs: [{ id: 't1', title: 'T', provider: 'openai', model: 'gpt-4o-mini', createdAt: NOW, conversationId: c.id }], activeTabId: 't1', conversations: {} });
    open();
    return c;
  }

  it('a reply still being generated is re-attached and streams on into its message', async () => {
    const c = oneTab([
      { role: 'user', content: 'Tell me' },
      { role: 'assistant', content: 'Once', complete: false },
    ]);
    const reply = convs.messages[c.id][1];
    const body = sseStream();
    api.route(`GET ${CONVS}/${c.id}/messages/${reply.id}/stream`, () => body.response);
    await loadMessages(s, 't1');
    expect(messages('t1')[1]).toMatchObject({ content: 'Once', complete: false, serverId: reply.id });
    expect(s.snap.sending).toEqual({ t1: true });
    body.push(': generating\n\n' + sseData({ content: 'Once upon' }));
    await vi.waitFor(() => expect(messages('t1')[1].content).toBe('Once upon'));
    body.push(sseData({ content: ' a time.' }) + sseData({ usage: { input_tokens: 3, output_tokens: 4, cost_usd: 0, demo: true } }) + SSE_DONE);
    body.end();
    await vi.waitFor(() => expect(messages('t1')[1]).toMatchObject({ content: 'Once upon a time.', complete: true, usage: { input_tokens: 3, output_tokens: 4, demo: true } }));
    expect(s.snap.sending).toEqual({});
  });

  it('once a session (again when forced), and not while the tab sends', async () => {
    const c = oneTab([{ role: 'user', content: 'Hi' }]);
    await loadMessages(s, 't1');
    await loadMessages(s, 't1');
    expect(api.callsTo('GET', `${CONVS}/${c.id}/messages`)).toHaveLength(1);
    setSending(s, 't1', true);
    convs.keep(c.id, 'Sent elsewhere');
    await loadMessages(s, 't1', true);
    expect(messages('t1').map((m) => m.content)).toEqual(['Hi']);
    setSending(s, 't1', false);
    await loadMessages(s, 't1', true);
    expect(messages('t1').map((m) => m.content)).toEqual(['Hi', 'Sent elsewhere', '']);
  });

  it('a conversation deleted elsewhere (404) is forgotten: the tab keeps what it shows', async () => {
    const c = oneTab();
    dispatch(s, { type: 'addMessage', tabId: 't1', message: createMessage('u1', 'user', 'Cached', NOW, true) });
    convs.all.splice(0, 1);
    await loadMessages(s, 't1');
    expect(findTab(s, 't1')?.conversationId).toBeUndefined();
    expect(messages('t1').map((m) => m.content)).toEqual(['Cached']);
    expect(c.id).toBeTruthy();
  });

  it('offline: a reply that was streaming ends with what had arrived; asked again next time', async () => {
    const c = oneTab();
    dispatch(s, { type: 'addMessage', tabId: 't1', message: { ...createMessage('a1', 'assistant', 'Half', NOW, false), serverId: 'mX' } });
    api.route(`GET ${CONVS}/${c.id}/messages`, () => {
      throw new TypeError('Failed to fetch');
    });
    await loadMessages(s, 't1');
    expect(messages('t1')[0]).toMatchObject({ content: 'Half', complete: true });
    expect(s.loadedTabs.has('t1')).toBe(false);
  });
});

describe('History: reopen and delete', () => {
  it('Reopen unarchives the conversation; it becomes the first tab, active, with its messages; the empty fresh Chat 1 goes', async () => {
    const c = convs.seed({ title: 'Old talk', archived: true, messages: [{ role: 'user', content: 'Back then' }, { role: 'assistant', content: 'Indeed' }] });
    open();
    await reopenConversation(s, c.id);
    expect(c.archived).toBe(false);
    expect(tabs()).toEqual([['Old talk', c.id]]);
    expect(s.snap.state.activeTabId).toBe(c.id);
    expect(messages().map((m) => m.content)).toEqual(['Back then', 'Indeed']);
  });

  it('a refused Reopen rejects with the reason and changes nothing', async () => {
    open();
    const before = s.snap.state;
    await expect(reopenConversation(s, 'c-unknown')).rejects.toMatchObject({ status: 404 });
    expect(s.snap.state).toBe(before);
  });

  it('Delete removes it for good; already gone counts as done; another refusal rejects', async () => {
    const c = convs.seed({ title: 'Doomed', archived: true });
    open();
    await removeConversation(s, c.id);
    expect(convs.all).toEqual([]);
    await expect(removeConversation(s, c.id)).resolves.toBeUndefined();
    const d = convs.seed({ title: 'Stuck', archived: true });
    api.route(`DELETE ${CONVS}/${d.id}`, () => jsonResponse(500, { detail: 'Broken' }));
    await expect(removeConversation(s, d.id)).rejects.toMatchObject({ detail: 'Broken' });
  });

  it('a deleted conversation open in a tab (reopened elsewhere) leaves the tab unsaved', async () => {
    const c = convs.seed({ title: 'Both' });
    open();
    await syncConversations(s);
    await removeConversation(s, c.id);
    expect(s.snap.state.tabs[0].conversationId).toBeUndefined();
  });
});

describe('the session ending', () => {
  it('drops late answers: nothing changes after it ended', async () => {
    convs.seed({ title: 'Late' });
    open();
    const before = s.snap;
    const sync = syncConversations(s);
    endSession(s);
    await sync;
    expect(s.snap).toBe(before);
  });

  it('re-attach with the stream failing marks the reply failed, no toast', async () => {
    const c = convs.seed({ title: 'T', messages: [{ role: 'user', content: 'Q' }, { role: 'assistant', content: 'Par', complete: false }] });
    saveChatState(ADA.id, { tabs: [{ id: 't1', title: 'T', provider: 'openai', model: 'gpt-4o-mini', createdAt: NOW, conversationId: c.id }], activeTabId: 't1', conversations: {} });
    const reply = convs.messages[c.id][1];
    api.route(`GET ${CONVS}/${c.id}/messages/${reply.id}/stream`, () =>
      sseResponse([sseData({ content: 'Part' }), 'event: error\ndata: {"detail":"The reply stopped being generated before it finished. Send your message again."}\n\n']),
    );
    open();
    await loadMessages(s, 't1');
    await vi.waitFor(() => expect(messages('t1')[1]).toMatchObject({ complete: true, error: 'The reply stopped being generated before it finished. Send your message again.' }));
    expect(messages('t1')[1].content).toBe('Part');
  });
});
