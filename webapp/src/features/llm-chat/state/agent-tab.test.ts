// The rules of a tab bound to a marketplace agent: made named by the agent
// on its provider and model, which no change of model moves; its first
// message does not rename it; a conversation's agent comes with its tab,
// and survives storage.

import { describe, expect, it } from 'vitest';
import { readConversation } from '../api/conversations';
import { chatReducer, createMessage, freshChatState, tabFromConversation } from './chat-state';
import { restoreChatState, storableState } from './persistence';

const NOW = '2026-11-28T10:00:00.000Z';
const AGENT = { id: 'a-000000000001', name: 'Inbox helper' };

function agentState() {
  return chatReducer(freshChatState('t1', NOW), { type: 'newAgentTab', id: 't2', now: NOW, agent: AGENT, provider: 'anthropic', model: 'claude-3-opus' });
}

describe('an agent tab', () => {
  it("is a new active tab named by the agent, on the agent's provider and model", () => {
    const state = agentState();
    expect(state.activeTabId).toBe('t2');
    expect(state.tabs.map((t) => t.title)).toEqual(['Chat 1', 'Inbox helper']);
    expect(state.tabs[1]).toMatchObject({ provider: 'anthropic', model: 'claude-3-opus', agent: AGENT });
    expect(state.conversations.t2).toEqual([]);
  });

  it('keeps its provider and model when asked to change them, and its name after the first message', () => {
    let state = chatReducer(agentState(), { type: 'setTabModel', tabId: 't2', provider: 'openai', model: 'gpt-4o' });
    expect(state.tabs[1]).toMatchObject({ provider: 'anthropic', model: 'claude-3-opus' });
    state = chatReducer(state, { type: 'addMessage', tabId: 't2', message: createMessage('m1', 'user', 'Summarise my mail', NOW, true) });
    expect(state.tabs[1].title).toBe('Inbox helper');
    // An ordinary tab still changes.
    state = chatReducer(state, { type: 'setTabModel', tabId: 't1', provider: 'openai', model: 'gpt-4o' });
    expect(state.tabs[0].model).toBe('gpt-4o');
  });

  it("reads a conversation's agent, and its tab is bound to it", () => {
    const c = readConversation({ id: 'c1', title: 'Inbox helper', provider: 'openai', model: 'gpt-4o', agent: { id: AGENT.id, name: AGENT.name } });
    expect(c?.agent).toEqual(AGENT);
    expect(readConversation({ id: 'c2', title: 'x', provider: 'openai', model: 'gpt-4o', agent: null })?.agent).toBeUndefined();
    expect(tabFromConversation(c!, NOW).agent).toEqual(AGENT);
    expect(tabFromConversation(readConversation({ id: 'c2', title: 'x', provider: 'openai', model: 'gpt-4o', agent: null })!, NOW).agent).toBeUndefined();
  });

  it('keeps its agent through storage', () => {
    const state = chatReducer(agentState(), {
      type: 'setConversation',
      tabId: 't2',
      conversation: { id: 'c9', title: 'Inbox helper', provider: 'anthropic', model: 'claude-3-opus', created_at: NOW, updated_at: NOW, archived: false, message_count: 0, agent: AGENT },
    });
    const stored = JSON.parse(JSON.stringify(storableState(state))) as { tabs: unknown[]; conversations: unknown };
    const back = restoreChatState(stored.tabs, 't2', stored.conversations, 'fresh', NOW);
    expect(back.tabs.find((t) => t.id === 't2')?.agent).toEqual(AGENT);
  });
});
