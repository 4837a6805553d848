// The tab actions that are more than a reducer step (state/chat-state.ts
// has the rules): a new tab's id is known before any render, closing a tab
// is the one place a running reply is given up (its streams, pending
// summaries and draft go with it), and a change of model connects again
// after a short delay, the last change winning.

import { AUTO_CONNECT_DELAY_MS } from '../constants';
import { newId } from '../ids';
import { modelFor, type ProviderId } from '../providers';
import { activeTab } from '../state/chat-state';
import { connectTo } from './connections';
import { dropDraft } from './drafts';
import { abortTab, dispatch, nowIso, type Session } from './session';
import { cancelSummaries } from './summaries';

/** Opens a tab with the active tab's provider and model, makes it active, and returns its id. */
export function newTab(s: Session): string {
  const id = newId('tab');
  dispatch(s, { type: 'newTab', id, now: nowIso() });
  return id;
}

export function selectTab(s: Session, tabId: string): void {
  dispatch(s, { type: 'selectTab', tabId });
}

/** Closes a tab and stops all it had running; the last tab closed leaves a fresh 'Chat 1'. */
export function closeTab(s: Session, tabId: string): void {
  abortTab(s, tabId);
  cancelSummaries(s, tabId);
  dropDraft(s, tabId);
  dispatch(s, { type: 'closeTab', tabId, id: newId('tab'), now: nowIso() });
}

/** The active tab's provider and model; connects after AUTO_CONNECT_DELAY_MS (the last change wins). */
export function changeModel(s: Session, provider: ProviderId, model: string): void {
  const tab = activeTab(s.snap.state);
  const nextModel = modelFor(provider, model);
  if (tab.provider === provider && tab.model === nextModel) return;
  dispatch(s, { type: 'setTabModel', tabId: tab.id, provider, model: nextModel });
  if (s.autoConnectTimer !== undefined) clearTimeout(s.autoConnectTimer);
  s.autoConnectTimer = setTimeout(() => {
    s.autoConnectTimer = undefined;
    void connectTo(s, provider, nextModel);
  }, AUTO_CONNECT_DELAY_MS);
}
