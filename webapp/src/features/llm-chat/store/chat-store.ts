// The LLM chat's running state, outside React (SPEC §4), and the one place
// the chat page and the tests reach it. The chat has two layers: state/
// holds what a chat is and how each action changes it (pure: ids and times
// come in from outside); store/, this folder, runs it for the signed-in
// account: the requests, the streams and summaries in flight, the timers
// and the storage, one job per module:
//
//   account.ts        which account's session is current; subscribe and snapshot
//   session.ts        one account's running state and the primitives on it
//   save.ts           reading and writing it in storage (streamed text batched)
//   conversations.ts  the server's conversations: sync, make, archive, reopen, delete, messages
//   migration.ts      tabs stored before conversations were kept on the server, uploaded once
//   tabs.ts           new, select, close (gives up its replies), change model
//   drafts.ts         the unsent text of each tab
//   connections.ts    connect, reuse, share concurrent connects
//   sending.ts        sending a message and streaming its reply; Retry
//   reply.ts          streaming a reply into its message (new or resumed)
//   reattach.ts       a reply still being generated after a reload, streamed again
//   stop.ts           Stop: the server ends a reply
//   approvals.ts      the tool call a reply paused for
//   elicitations.ts   a server's question to the user during a tool call
//   summaries.ts      summarising long messages
//   toasts.ts         the chat's toasts and their texts
//
// Why a module-level store: a reply must keep streaming while its page is
// not on screen (another chat tab, or /dashboard and back). Unmounting the
// page therefore aborts nothing. A stream ends when it ends, when its chat
// tab is closed, or when the session ends (logout, a 401, another account
// signing in). React reads it with useSyncExternalStore (use-chat.ts). The
// server keeps each reply too, so a reload re-attaches to one still being
// generated (reattach.ts).

import type { ApprovalDecision, ElicitationAction } from '../api/chat-stream';
import type { ChatConnection } from '../api/connect';
import type { ProviderId } from '../providers';
import type { ChatAgent } from '../state/types';
import { activeTab } from '../state/chat-state';
import { currentSession, runningStreams } from './account';
import { answerApproval } from './approvals';
import { connectTo } from './connections';
import { answerElicitation } from './elicitations';
import { resumeSignedIn, resumeSignIn, signIn } from './signin';
import { keepTab, removeConversation, reopenConversation } from './conversations';
import { setDraft, suggestDraft, tabOfMessage } from './drafts';
import { retry, send, type SendOptions } from './sending';
import { dispatch } from './session';
import { stop } from './stop';
import { changeModel, closeTab, newAgentTab, newTab, selectTab } from './tabs';
import { chatInfo, VIEW_SUGGESTED_MESSAGE } from './toasts';

export { getChatSnapshot, resetChatStoreForTests, subscribeChat } from './account';
export type { SendOptions } from './sending';
export { APPROVAL_FIRST, pauseFirst, QUESTION_FIRST, SIGNIN_FIRST, VIEW_SUGGESTED_MESSAGE } from './toasts';
export { streamingReply } from './stop';

/** Actions on the signed-in account's chat; each is a no-op when nobody is signed in. */
export const chatStore = {
  setDraft(text: string, tabId?: string): void {
    const s = currentSession();
    if (s) setDraft(s, text, tabId ?? s.snap.state.activeTabId);
  },
  /**
   * A tool's view in the reply `messageId` suggests a follow-up message: it
   * goes into that tab's message box (never sent), and a toast says so.
   */
  suggestMessage(messageId: string, text: string): boolean {
    const s = currentSession();
    if (!s || !suggestDraft(s, messageId, text)) return false;
    chatInfo(VIEW_SUGGESTED_MESSAGE);
    return true;
  },
  /** The tab holding the reply `messageId` asks before read-only tools too (its Tools control's setting). */
  confirmsReadOnly(messageId: string): boolean {
    const s = currentSession();
    const tabId = s ? tabOfMessage(s, messageId) : undefined;
    return Boolean(tabId && s?.snap.state.tabs.find((t) => t.id === tabId)?.confirmReadOnly);
  },
  /** Opens a tab (made active) and returns its id at once, before any render. */
  newTab(): string | null {
    const s = currentSession();
    return s ? newTab(s) : null;
  },
  /** Opens a tab bound to a marketplace agent, on its provider and model (made active); returns its id. */
  newAgentTab(agent: ChatAgent, provider: ProviderId, model: string): string | null {
    const s = currentSession();
    return s ? newAgentTab(s, agent, provider, model) : null;
  },
  closeTab(tabId: string): void {
    const s = currentSession();
    if (s) closeTab(s, tabId);
  },
  selectTab(tabId: string): void {
    const s = currentSession();
    if (s) selectTab(s, tabId);
  },
  changeModel(provider: ProviderId, model: string): void {
    const s = currentSession();
    if (s) changeModel(s, provider, model);
  },
  connect(options: { force?: boolean } = {}): Promise<ChatConnection | null> {
    const s = currentSession();
    if (!s) return Promise.resolve(null);
    const tab = activeTab(s.snap.state);
    return connectTo(s, tab.provider, tab.model, options.force ?? false);
  },
  send(text: string, options: SendOptions = {}): Promise<boolean> {
    const s = currentSession();
    return s ? send(s, text, options) : Promise.resolve(false);
  },
  setShowFull(messageId: string, showFull: boolean): void {
    const s = currentSession();
    if (s) dispatch(s, { type: 'patchMessage', tabId: s.snap.state.activeTabId, messageId, patch: { showFull } });
  },
  /** Approve, always allow or deny the tool call a reply in the active tab paused for. */
  answerApproval(messageId: string, decision: ApprovalDecision): Promise<boolean> {
    const s = currentSession();
    return s ? answerApproval(s, s.snap.state.activeTabId, messageId, decision) : Promise.resolve(false);
  },
  /** Answers the server's question a tool call of a reply in the active tab waits on (content: the form's, with accept). */
  answerElicitation(messageId: string, action: ElicitationAction, content?: Record<string, unknown>): Promise<boolean> {
    const s = currentSession();
    return s ? answerElicitation(s, s.snap.state.activeTabId, messageId, action, content) : Promise.resolve(false);
  },
  /** Sign in: leaves for the server's page a reply in the active tab paused for (the scope its call asked for). */
  signIn(messageId: string): Promise<boolean> {
    const s = currentSession();
    return s ? signIn(s, s.snap.state.activeTabId, messageId) : Promise.resolve(false);
  },
  /** Continue: a reply in the active tab paused for a sign-in goes on (the call runs again). */
  resumeSignIn(messageId: string): Promise<boolean> {
    const s = currentSession();
    return s ? resumeSignIn(s, s.snap.state.activeTabId, messageId) : Promise.resolve(false);
  },
  /** Back from signing in to `serverId`: the reply in the active tab waiting on it goes on. */
  resumeSignedIn(serverId: string): Promise<boolean> {
    const s = currentSession();
    return s ? resumeSignedIn(s, s.snap.state.activeTabId, serverId) : Promise.resolve(false);
  },
  /** Offers (or stops offering) one MCP server's tools in the active tab (kept with it: see keepTab). */
  setToolServer(connectionId: string, on: boolean): void {
    const s = currentSession();
    if (!s) return;
    dispatch(s, { type: 'setToolServer', tabId: s.snap.state.activeTabId, connectionId, on });
    keepTab(s, s.snap.state.activeTabId);
  },
  setConfirmReadOnly(on: boolean): void {
    const s = currentSession();
    if (!s) return;
    dispatch(s, { type: 'setConfirmReadOnly', tabId: s.snap.state.activeTabId, on });
    keepTab(s, s.snap.state.activeTabId);
  },
  /** Stop: the server ends the active tab's streaming reply. */
  stop(): Promise<boolean> {
    const s = currentSession();
    return s ? stop(s, s.snap.state.activeTabId) : Promise.resolve(false);
  },
  /** Sends the message of a failed reply (the active tab's last) again, in its place. */
  retry(messageId: string, options: Omit<SendOptions, 'tabId' | 'replaces'> = {}): Promise<boolean> {
    const s = currentSession();
    return s ? retry(s, s.snap.state.activeTabId, messageId, options) : Promise.resolve(false);
  },
  /** History's Reopen: the archived conversation becomes the active tab. Rejects with the server's refusal. */
  reopenConversation(conversationId: string): Promise<void> {
    const s = currentSession();
    return s ? reopenConversation(s, conversationId) : Promise.resolve();
  },
  /** History's Delete: the conversation is gone for good. Rejects with the server's refusal. */
  deleteConversation(conversationId: string): Promise<void> {
    const s = currentSession();
    return s ? removeConversation(s, conversationId) : Promise.resolve();
  },
  /** Streams (replies and summaries) running in a tab: for tests and diagnostics. */
  runningStreams,
};
