// The tab actions that are more than a reducer step (state/chat-state.ts
// has the rules): a new tab's id is known before any render (its server
// conversation is made meanwhile), closing a tab is the one place a running
// reply is given up (its streams, pending summaries and draft go with it;
// the server is asked to stop it, and the conversation is archived), and a
// change of model connects again after a short delay, the last change
// winning, and is then told to the server (a tab not made on the server
// yet is made with it).

import { errorMessage } from '../../../lib/api-client';
import { AUTO_CONNECT_DELAY_MS } from '../constants';
import { newId } from '../ids';
import { modelFor, type ProviderId } from '../providers';
import { activeTab } from '../state/chat-state';
import type { ChatAgent } from '../state/types';
import { connectTo } from './connections';
import { CONVERSATION_FAILED, ensureConversation, keepTab, loadMessages, retireConversation, updateConversation } from './conversations';
import { dropDraft } from './drafts';
import { abortTab, dispatch, findTab, nowIso, type Session } from './session';
import { stop } from './stop';
import { cancelSummaries } from './summaries';
import { chatError } from './toasts';

/** Opens a tab with the active tab's provider and model, makes it active, and returns its id; its conversation is made now. */
export function newTab(s: Session): string {
  const id = newId('tab');
  dispatch(s, { type: 'newTab', id, now: nowIso() });
  ensureConversation(s, id).catch((error: unknown) => {
    // The tab stays; its first message tries again.
    if (!s.ended) chatError(errorMessage(error, CONVERSATION_FAILED));
  });
  return id;
}

/**
 * Opens a tab bound to a marketplace agent (named by it, on its provider
 * and model), makes it active, and returns its id; its conversation is
 * made now, with the agent's id.
 */
export function newAgentTab(s: Session, agent: ChatAgent, provider: ProviderId, model: string): string {
  const id = newId('tab');
  dispatch(s, { type: 'newAgentTab', id, now: nowIso(), agent, provider, model });
  ensureConversation(s, id).catch((error: unknown) => {
    // The tab stays; its first message tries again.
    if (!s.ended) chatError(errorMessage(error, CONVERSATION_FAILED));
  });
  return id;
}

/** Shows a tab; its messages are asked of the server the first time in a session. */
export function selectTab(s: Session, tabId: string): void {
  dispatch(s, { type: 'selectTab', tabId });
  void loadMessages(s, tabId);
}

/** Closes a tab and stops all it had running; the last tab closed leaves a fresh 'Chat 1'. */
export function closeTab(s: Session, tabId: string): void {
  const tab = findTab(s, tabId);
  if (!tab) return;
  const hadMessages = (s.snap.state.conversations[tabId] ?? []).some((m) => !m.legacy);
  void stop(s, tabId);
  abortTab(s, tabId);
  cancelSummaries(s, tabId);
  dropDraft(s, tabId);
  s.loadedTabs.delete(tabId);
  dispatch(s, { type: 'closeTab', tabId, id: newId('tab'), now: nowIso() });
  void retireConversation(s, tab, hadMessages);
  // The tab shown instead may not have been shown yet in this session.
  void loadMessages(s, s.snap.state.activeTabId);
}

/** The active tab's provider and model; connects after AUTO_CONNECT_DELAY_MS (the last change wins), and tells the server. */
export function changeModel(s: Session, provider: ProviderId, model: string): void {
  const tab = activeTab(s.snap.state);
  const nextModel = modelFor(provider, model);
  // An agent's tab keeps the agent's provider and model.
  if (tab.agent || (tab.provider === provider && tab.model === nextModel)) return;
  dispatch(s, { type: 'setTabModel', tabId: tab.id, provider, model: nextModel });
  if (!tab.conversationId) {
    keepTab(s, tab.id); // made with the new model: nothing to tell it after
  } else {
    s.modelChanges.add(tab.id);
  }
  if (s.autoConnectTimer !== undefined) clearTimeout(s.autoConnectTimer);
  s.autoConnectTimer = setTimeout(() => {
    s.autoConnectTimer = undefined;
    void connectTo(s, provider, nextModel);
    for (const tabId of s.modelChanges) {
      const changed = findTab(s, tabId);
      if (changed) void updateConversation(s, tabId, { provider: changed.provider, model: changed.model });
    }
    s.modelChanges.clear();
  }, AUTO_CONNECT_DELAY_MS);
}
