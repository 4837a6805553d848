import { describe, expect, it } from 'vitest';
import { buildMenuMessage } from '../menu';
import type { ConversationInfo } from '../api/conversations';
import { readBack } from '../test-fixtures';
import { chatReducer, contextFor, createMessage, freshChatState, isDefaultTitle, nextTabTitle, tabFromConversation, titleFromMessage, type ChatAction } from './chat-state';
import { restoreChatState, storableState } from './persistence';
import type { ChatState, ChatTab } from './types';

const NOW = '2026-03-07T10:00:00.000Z';
const run = (state: ChatState, ...actions: ChatAction[]) => actions.reduce(chatReducer, state);
const newTab = (id: string): ChatAction => ({ type: 'newTab', id, now: NOW });
const close = (tabId: string, id = 'fresh'): ChatAction => ({ type: 'closeTab', tabId, id, now: NOW });
const user = (id: string, content: string) => createMessage(id, 'user', content, NOW, true);
const titles = (s: ChatState) => s.tabs.map((t) => t.title);

describe('tabs', () => {
  it('starts with Chat 1 on openai with its first model', () => {
    const s = freshChatState('t1', NOW);
    expect(s.tabs).toEqual([{ id: 't1', title: 'Chat 1', provider: 'openai', model: 'gpt-4o-mini', createdAt: NOW }]);
    expect(s.activeTabId).toBe('t1');
    expect(s.conversations).toEqual({ t1: [] });
  });

  it('a new tab uses the active tab’s provider and model and becomes active', () => {
    const s = run(freshChatState('t1', NOW), { type: 'setTabModel', tabId: 't1', provider: 'anthropic', model: 'claude-3-opus' }, newTab('t2'));
    expect(s.tabs[1]).toMatchObject({ id: 't2', title: 'Chat 2', provider: 'anthropic', model: 'claude-3-opus' });
    expect(s.activeTabId).toBe('t2');
    expect(s.conversations.t2).toEqual([]);
  });

  it('closing the active tab activates the last remaining one', () => {
    const s = run(freshChatState('t1', NOW), newTab('t2'), newTab('t3'), { type: 'selectTab', tabId: 't2' }, close('t2'));
    expect(s.tabs.map((t) => t.id)).toEqual(['t1', 't3']);
    expect(s.activeTabId).toBe('t3');
    expect(s.conversations.t2).toBeUndefined();
  });

  it('closing another tab keeps the active one', () => {
    const s = run(freshChatState('t1', NOW), newTab('t2'), newTab('t3'), { type: 'selectTab', tabId: 't1' }, close('t3'));
    expect(s.activeTabId).toBe('t1');
    expect(s.tabs.map((t) => t.id)).toEqual(['t1', 't2']);
  });

  it('closing the last tab creates a fresh Chat 1 on openai with its first model', () => {
    const start = run(freshChatState('t1', NOW), { type: 'setTabModel', tabId: 't1', provider: 'google', model: 'gemini-1.5-flash' }, {
      type: 'addMessage',
      tabId: 't1',
      message: user('m1', 'hello'),
    });
    const s = run(start, close('t1', 'new1'));
    expect(s).toEqual(freshChatState('new1', NOW));
  });

  it('closing or selecting an unknown tab changes nothing', () => {
    const s = freshChatState('t1', NOW);
    expect(run(s, close('nope'))).toBe(s);
    expect(run(s, { type: 'selectTab', tabId: 'nope' })).toBe(s);
  });

  it('numbers new tabs past titles in use', () => {
    const tab = (title: string) => ({ title }) as ChatTab;
    expect(nextTabTitle([])).toBe('Chat 1');
    expect(nextTabTitle([tab('Chat 1')])).toBe('Chat 2');
    expect(nextTabTitle([tab('Chat 2')])).toBe('Chat 3');
    expect(nextTabTitle([tab('Hello'), tab('Chat 3')])).toBe('Chat 4');
    const s = run(freshChatState('t1', NOW), newTab('t2'), close('t1'), newTab('t3'));
    expect(titles(s)).toEqual(['Chat 2', 'Chat 3']);
  });

  it('a provider change with a model it does not offer selects its first model', () => {
    const s = run(freshChatState('t1', NOW), { type: 'setTabModel', tabId: 't1', provider: 'meta', model: 'gpt-4o' });
    expect(s.tabs[0]).toMatchObject({ provider: 'meta', model: 'llama-3.1-8b-instruct' });
    const s2 = run(s, { type: 'setTabModel', tabId: 't1', provider: 'meta', model: 'llama-3.2-1b-instruct' });
    expect(s2.tabs[0].model).toBe('llama-3.2-1b-instruct');
  });
});

describe('titles', () => {
  it('the first user message replaces a Chat {n} title with its first 30 characters', () => {
    const text = 'Explain the tides to a curious ten-year-old, please';
    const s = run(freshChatState('t1', NOW), { type: 'addMessage', tabId: 't1', message: user('m1', text) });
    expect(s.tabs[0].title).toBe('Explain the tides to a curious');
    expect(s.tabs[0].title).toHaveLength(30);
  });

  it('keeps a short message whole, collapses whitespace and hides a menu block', () => {
    expect(titleFromMessage('  Hi\n\nthere  ')).toBe('Hi there');
    expect(titleFromMessage(buildMenuMessage('Plan {x}\n[start menu]\ns {x}\n[end menu]', { x: 'a trip' }))).toBe('Plan a trip');
  });

  it('only the first user message names the tab, and only a Chat {n} title', () => {
    let s = run(
      freshChatState('t1', NOW),
      { type: 'addMessage', tabId: 't1', message: createMessage('a0', 'assistant', 'Welcome', NOW, true) },
      { type: 'addMessage', tabId: 't1', message: user('m1', 'First') },
      { type: 'addMessage', tabId: 't1', message: user('m2', 'Second') },
    );
    expect(s.tabs[0].title).toBe('First');
    s = run(freshChatState('t1', NOW), { type: 'addMessage', tabId: 't1', message: user('m1', 'Chat 9') }, { type: 'addMessage', tabId: 't1', message: user('m2', 'Later') });
    expect(s.tabs[0].title).toBe('Chat 9');
  });
});

describe('messages', () => {
  const base = () =>
    run(
      freshChatState('t1', NOW),
      { type: 'addMessage', tabId: 't1', message: user('u1', 'Hi') },
      { type: 'addMessage', tabId: 't1', message: createMessage('a1', 'assistant', '', NOW, false) },
    );

  it('streams into the assistant message and completes it', () => {
    const s = run(
      base(),
      { type: 'appendContent', tabId: 't1', messageId: 'a1', chunk: 'Hel' },
      { type: 'appendContent', tabId: 't1', messageId: 'a1', chunk: 'lo' },
      { type: 'completeMessage', tabId: 't1', messageId: 'a1' },
    );
    expect(s.conversations.t1[1]).toMatchObject({ content: 'Hello', complete: true, truncated: false });
  });

  it('removes a message', () => {
    const s = run(base(), { type: 'removeMessage', tabId: 't1', messageId: 'a1' });
    expect(s.conversations.t1.map((m) => m.id)).toEqual(['u1']);
  });

  it('marks a long reply truncated only once complete; long user messages at once', () => {
    const long = 'x'.repeat(1800);
    let s = run(base(), { type: 'appendContent', tabId: 't1', messageId: 'a1', chunk: long });
    expect(s.conversations.t1[1].truncated).toBe(false);
    s = run(s, { type: 'completeMessage', tabId: 't1', messageId: 'a1' });
    expect(s.conversations.t1[1].truncated).toBe(true);
    expect(user('u', long).truncated).toBe(true);
    expect(user('u', 'x'.repeat(1799)).truncated).toBe(false);
  });

  it('patches summary fields', () => {
    const s = run(base(), { type: 'patchMessage', tabId: 't1', messageId: 'u1', patch: { summary: 'S', summaryRequested: true, showFull: true } });
    expect(s.conversations.t1[0]).toMatchObject({ summary: 'S', summaryRequested: true, showFull: true });
  });

  it('the context is the complete messages, role and content only', () => {
    const s = base();
    expect(contextFor(s.conversations.t1)).toEqual([{ role: 'user', content: 'Hi' }]);
  });

  it('creates messages with every SPEC field', () => {
    expect(Object.keys(user('u', 'x')).sort()).toEqual(
      ['complete', 'content', 'id', 'role', 'showFull', 'summary', 'summaryRequested', 'timestamp', 'truncated'].sort(),
    );
  });
});

const roundTrip = (state: ChatState): ChatState => readBack(state, NOW, 'unused');

/** The state with a server conversation for every tab (only those are stored). */
const kept = (state: ChatState): ChatState => ({ ...state, tabs: state.tabs.map((t) => ({ ...t, conversationId: `c-${t.id}`, messageCount: 0 })) });

describe('persistence', () => {
  it('keeps the usage of a reply and restores it defensively', () => {
    const usage = { input_tokens: 412, output_tokens: 1093, cost_usd: 0.0021 };
    const s = kept(
      run(
        freshChatState('t1', NOW),
        { type: 'addMessage', tabId: 't1', message: user('u1', 'Hello') },
        { type: 'addMessage', tabId: 't1', message: createMessage('a1', 'assistant', '', NOW, false) },
        { type: 'appendContent', tabId: 't1', messageId: 'a1', chunk: 'Hi' },
        { type: 'completeMessage', tabId: 't1', messageId: 'a1', usage },
      ),
    );
    expect(s.conversations.t1[1].usage).toEqual(usage);
    expect(roundTrip(s).conversations.t1[1].usage).toEqual(usage);

    const restored = restoreChatState(
      [{ id: 't', title: 'T' }],
      't',
      {
        t: [
          { id: 'a', role: 'assistant', content: 'x', usage: { input_tokens: 5, output_tokens: 'many', cost_usd: -1, demo: true } },
          { id: 'b', role: 'assistant', content: 'x', usage: 'lots' },
          { id: 'c', role: 'assistant', content: 'x', usage: { note: 'no numbers' } },
          { id: 'd', role: 'user', content: 'x', usage: { input_tokens: 1 }, summaryUsage: { input_tokens: 7, output_tokens: 3, cost_usd: 0.5 } },
        ],
      },
      'f',
      NOW,
    );
    const [a, b, c, d] = restored.conversations.t;
    expect(a.usage).toEqual({ input_tokens: 5, output_tokens: 0, cost_usd: 0, demo: true });
    expect(b.usage).toBeUndefined();
    expect(c.usage).toBeUndefined();
    expect(d.usage).toBeUndefined(); // only replies carry usage
    expect(d.summaryUsage).toEqual({ input_tokens: 7, output_tokens: 3, cost_usd: 0.5 });
  });

  it('with nothing stored there is a fresh Chat 1', () => {
    expect(restoreChatState(null, null, null, 'f1', NOW)).toEqual(freshChatState('f1', NOW));
    expect(restoreChatState([], 'x', {}, 'f1', NOW)).toEqual(freshChatState('f1', NOW));
    expect(restoreChatState('junk', null, null, 'f1', NOW)).toEqual(freshChatState('f1', NOW));
  });

  it('repairs what it can and drops what it cannot', () => {
    const s = restoreChatState(
      [
        { id: 'a', title: 'Mine', provider: 'anthropic', model: 'gpt-4o', createdAt: NOW },
        { id: 'a', title: 'duplicate' },
        { id: 'b', provider: 'nobody' },
        { title: 'no id' },
      ],
      'missing',
      {
        a: [
          { id: 'm1', role: 'user', content: 'hi', timestamp: NOW, complete: true },
          { id: 'm2', role: 'assistant', content: '', complete: false },
          { id: 'm3', role: 'assistant', content: 'partial', complete: false },
          { id: 'm4', role: 'system', content: 'x' },
          { role: 'user', content: 'no id' },
        ],
        ghost: [{ id: 'g', role: 'user', content: 'x' }],
      },
      'f',
      NOW,
    );
    // Stored without a server conversation: written before conversations were kept with the account (legacy).
    expect(s.tabs).toEqual([
      { id: 'a', title: 'Mine', provider: 'anthropic', model: 'claude-3-5-sonnet', createdAt: NOW, legacy: true },
      { id: 'b', title: 'Chat 3', provider: 'openai', model: 'gpt-4o-mini', createdAt: NOW, legacy: true },
    ]);
    expect(s.activeTabId).toBe('a');
    expect(s.conversations.a.map((m) => [m.id, m.complete])).toEqual([
      ['m1', true],
      ['m3', true],
    ]);
    expect(s.conversations.b).toEqual([]);
    expect(s.conversations.ghost).toBeUndefined();
  });
});

const conversation = (id: string, over: Partial<ConversationInfo> = {}): ConversationInfo => ({
  id,
  title: `Title ${id}`,
  provider: 'openai',
  model: 'gpt-4o',
  created_at: NOW,
  updated_at: NOW,
  archived: false,
  message_count: 2,
  ...over,
});

describe('server conversations', () => {
  it("'New chat' (the server's default) is a default title too: the first message names the tab", () => {
    expect(isDefaultTitle('New chat')).toBe(true);
    expect(isDefaultTitle('Chat 12')).toBe(true);
    expect(isDefaultTitle('Chat about tides')).toBe(false);
  });

  it('setConversation gives the tab its conversation (an uploaded old tab is no longer legacy); forgetConversation takes it away', () => {
    const start: ChatState = { ...freshChatState('t1', NOW), tabs: [{ ...freshChatState('t1', NOW).tabs[0], legacy: true }] };
    const s = run(start, { type: 'setConversation', tabId: 't1', conversation: conversation('c1', { message_count: 4 }) });
    expect(s.tabs[0]).toEqual({ id: 't1', title: 'Chat 1', provider: 'openai', model: 'gpt-4o-mini', createdAt: NOW, conversationId: 'c1', messageCount: 4 });
    const forgotten = run(s, { type: 'forgetConversation', tabId: 't1' });
    expect(forgotten.tabs[0]).toEqual({ id: 't1', title: 'Chat 1', provider: 'openai', model: 'gpt-4o-mini', createdAt: NOW });
    expect(run(forgotten, { type: 'forgetConversation', tabId: 't1' })).toBe(forgotten);
  });

  it('tabFromConversation: the server has the say, a provider it does not know is openai, a local name beats a default one', () => {
    expect(tabFromConversation(conversation('c1', { provider: 'acme', model: 'x', title: '' }), NOW)).toEqual({
      id: 'c1',
      title: 'New chat',
      provider: 'openai',
      model: 'gpt-4o-mini',
      createdAt: NOW,
      conversationId: 'c1',
      messageCount: 2,
    });
    const local: ChatTab = { id: 't1', title: 'Tides', provider: 'google', model: 'gemini-1.5-pro', createdAt: 'then', toolsOff: ['m1'] };
    expect(tabFromConversation(conversation('c1', { title: 'Chat 1' }), NOW, local)).toMatchObject({ id: 't1', title: 'Tides', provider: 'openai', model: 'gpt-4o', toolsOff: ['m1'] });
    expect(tabFromConversation(conversation('c1', { title: 'Renamed' }), NOW, local).title).toBe('Renamed');
  });

  it('syncTabs: the listed conversations become the tabs in their order, then those of this session; the active tab stays when it can', () => {
    let s = run(freshChatState('t1', NOW), newTab('t2'), newTab('t3'));
    s = run(s, { type: 'setConversation', tabId: 't2', conversation: conversation('c2') }, { type: 'setConversation', tabId: 't3', conversation: conversation('c3') });
    s = run(s, { type: 'addMessage', tabId: 't2', message: user('u1', 'Hello') }, { type: 'selectTab', tabId: 't2' });
    const synced = run(s, { type: 'syncTabs', conversations: [conversation('c9'), conversation('c2', { title: 'Renamed' })], keep: ['t1'], id: 'fresh', now: NOW });
    expect(synced.tabs.map((t) => [t.id, t.conversationId, t.title])).toEqual([
      ['c9', 'c9', 'Title c9'],
      ['t2', 'c2', 'Renamed'],
      ['t1', undefined, 'Chat 1'],
    ]);
    expect(synced.activeTabId).toBe('t2');
    expect(synced.conversations).toEqual({ c9: [], t2: s.conversations.t2, t1: [] });

    // Kept tabs of this session stay in their order, a listed one brought up to date.
    const mine = run(s, { type: 'syncTabs', conversations: [conversation('c9'), conversation('c3', { title: 'Made here' })], keep: ['t1', 't3'], id: 'fresh', now: NOW });
    expect(mine.tabs.map((t) => [t.id, t.title])).toEqual([
      ['c9', 'Title c9'],
      ['t1', 'Chat 1'],
      ['t3', 'Made here'],
    ]);

    // The active tab went (archived elsewhere): the first is active.
    const gone = run(s, { type: 'selectTab', tabId: 't3' }, { type: 'syncTabs', conversations: [conversation('c2')], keep: [], id: 'fresh', now: NOW });
    expect(gone.tabs.map((t) => t.id)).toEqual(['t2']);
    expect(gone.activeTabId).toBe('t2');
    // None at all: a fresh Chat 1.
    expect(run(s, { type: 'syncTabs', conversations: [], keep: [], id: 'fresh', now: NOW })).toEqual(freshChatState('fresh', NOW));
  });

  it('openConversation opens a reopened conversation as a new tab, active; one already open is only selected', () => {
    const s = run(freshChatState('t1', NOW), { type: 'openConversation', conversation: conversation('c5'), now: NOW });
    expect(s.tabs.map((t) => t.id)).toEqual(['t1', 'c5']);
    expect(s.activeTabId).toBe('c5');
    expect(s.conversations.c5).toEqual([]);
    const again = run(s, { type: 'selectTab', tabId: 't1' }, { type: 'openConversation', conversation: conversation('c5'), now: NOW });
    expect(again.tabs).toBe(s.tabs);
    expect(again.activeTabId).toBe('c5');
  });

  it('setMessages replaces a tab’s messages; failMessage ends a reply with its error; resetReply empties it; setServerId names it', () => {
    const base = run(freshChatState('t1', NOW), { type: 'addMessage', tabId: 't1', message: user('u1', 'Hi') });
    const list = [user('x1', 'One'), createMessage('x2', 'assistant', 'Two', NOW, false)];
    let s = run(base, { type: 'setMessages', tabId: 't1', messages: list });
    expect(s.conversations.t1).toBe(list);
    expect(run(s, { type: 'setMessages', tabId: 'nope', messages: [] })).toBe(s);
    s = run(s, { type: 'setServerId', tabId: 't1', messageId: 'x2', serverId: 'm9' }, { type: 'failMessage', tabId: 't1', messageId: 'x2', error: 'Upstream gone' });
    expect(s.conversations.t1[1]).toMatchObject({ content: 'Two', complete: true, error: 'Upstream gone', serverId: 'm9' });
    s = run(s, { type: 'resetReply', tabId: 't1', messageId: 'x2' });
    expect(s.conversations.t1[1]).toMatchObject({ content: '', complete: false, serverId: 'm9' });
    expect(s.conversations.t1[1].error).toBeUndefined();
  });

  it('a stopped reply completes marked stopped', () => {
    const s = run(
      freshChatState('t1', NOW),
      { type: 'addMessage', tabId: 't1', message: createMessage('a1', 'assistant', 'Part', NOW, false) },
      { type: 'completeMessage', tabId: 't1', messageId: 'a1', stopped: true },
    );
    expect(s.conversations.t1[0]).toMatchObject({ complete: true, stopped: true });
  });

  it('the context leaves out a failed reply and the message it answered', () => {
    const failed = { ...createMessage('a1', 'assistant', 'half', NOW, true), error: 'Stream timeout' };
    const messages = [user('u0', 'First'), createMessage('a0', 'assistant', 'Answer', NOW, true), user('u1', 'Second'), failed, user('u2', 'Third')];
    expect(contextFor(messages)).toEqual([
      { role: 'user', content: 'First' },
      { role: 'assistant', content: 'Answer' },
      { role: 'user', content: 'Third' },
    ]);
  });
});

describe('persistence as a cache of the server', () => {
  it('writes only tabs with a server conversation; a legacy tab not uploaded yet is written back as it was', () => {
    const s = run(freshChatState('t1', NOW), newTab('t2'), newTab('t3'), { type: 'setConversation', tabId: 't2', conversation: conversation('c2') });
    const legacyTab: ChatTab = { ...s.tabs.find((t) => t.id === 't3')!, legacy: true };
    const state: ChatState = {
      ...s,
      tabs: s.tabs.map((t) => (t.id === 't3' ? legacyTab : t)),
      conversations: { ...s.conversations, t3: [{ ...user('old', 'From before'), legacy: true }] },
    };
    const stored = storableState(state).tabs;
    expect(stored.map((t) => [t.id, t.conversationId, t.legacy])).toEqual([
      ['t2', 'c2', undefined],
      ['t3', undefined, undefined],
    ]);
    const loaded = roundTrip(state);
    expect(loaded.tabs.map((t) => [t.id, t.legacy])).toEqual([
      ['t2', undefined],
      ['t3', true],
    ]);
    expect(loaded.conversations.t3).toEqual([{ ...user('old', 'From before'), legacy: true }]);
  });

  it("an uploaded tab's old messages are shown this session only: never written again", () => {
    const s = run(freshChatState('t1', NOW), { type: 'setConversation', tabId: 't1', conversation: conversation('c1') });
    expect(roundTrip({ ...s, conversations: { t1: [{ ...user('old', 'From before'), legacy: true }, user('new', 'Kept')] } }).conversations.t1.map((m) => m.id)).toEqual(['new']);
  });

  it('keeps the server ids, errors and Stop of messages; a reply the server keeps stays open to be re-attached', () => {
    const s = restoreChatState(
      [{ id: 't', title: 'T', conversationId: 'c1', messageCount: 3 }],
      't',
      {
        t: [
          { id: 'u', role: 'user', content: 'Hi', serverId: 'm1' },
          { id: 'a', role: 'assistant', content: 'Part', complete: false, serverId: 'm2' },
          { id: 'b', role: 'assistant', content: 'Half', complete: true, serverId: 'm3', error: 'Stream timeout', stopped: true, cut: true },
          { id: 'c', role: 'assistant', content: 'Cut off', complete: false },
        ],
      },
      'f',
      NOW,
    );
    expect(s.tabs[0]).toMatchObject({ conversationId: 'c1', messageCount: 3 });
    expect(s.tabs[0].legacy).toBeUndefined();
    expect(s.conversations.t.map((m) => [m.id, m.serverId, m.complete])).toEqual([
      ['u', 'm1', true],
      ['a', 'm2', false],
      ['b', 'm3', true],
      ['c', undefined, true],
    ]);
    expect(s.conversations.t[2]).toMatchObject({ error: 'Stream timeout', stopped: true, cut: true });
  });
});
