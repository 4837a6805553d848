// The LLM chat's running state, outside React: the signed-in account's
// tabs and conversations (the pure reducer in state/, persisted per user),
// its connections, drafts, and the streams and summaries in flight with
// their AbortControllers and timers (SPEC §4).
//
// Why a module-level store: a reply must keep streaming while its page is
// not on screen (another chat tab, or /dashboard and back). Unmounting the
// page therefore aborts nothing. A stream ends when it ends, when its chat
// tab is closed, or when the session ends (logout, a 401, another account
// signing in): then every stream of that account is aborted, its timers are
// cleared and nothing more is written for it.
//
// React reads it with useSyncExternalStore (use-chat.ts).

import { toast } from '../../components/notifications/notification-store';
import { errorMessage } from '../../lib/api-client';
import { getAuthState, subscribeAuth } from '../../lib/auth-session';
import { isAbortError, StreamError, streamChatMessage, type StreamApproval, type StreamRequest, type StreamResult } from './api/chat-stream';
import { connectProvider, type ChatConnection } from './api/connect';
import { AUTO_CONNECT_DELAY_MS, SUMMARY_DELAY_MS } from './constants';
import { canReuseConnection, CONNECTION_FAILED, connectedMessage, connectionKey } from './connection';
import { newId } from './ids';
import { modelFor, type ProviderId } from './providers';
import { activeTab, chatReducer, contextFor, createMessage, freshChatState, type ApprovalDecision, type ChatAction } from './state/chat-state';
import { approvalExpired, awaitingApproval, isDestructive } from './state/message-parts';
import { loadChatState, saveChatState } from './state/persistence';
import type { ChatState, ChatTab, PendingApproval } from './state/types';
import { cutToWords, needsSummary, summaryPrompt } from './summary';
import { messageUsage } from './usage';

export const STREAM_FAILED = 'Failed to stream message';
/** A new message waits while a reply in the tab waits for the user's decision on a tool call. */
export const APPROVAL_FIRST = 'Answer the tool approval first';
/**
 * The chat's own toasts (connection results and stream failures) share one
 * id: the newest replaces the last instead of stacking up over the picker's
 * status and Reconnect.
 */
export const CHAT_TOAST_ID = 'llm-chat';
/** Streamed text is written to storage at most this often; everything else at once. */
export const SAVE_DELAY_MS = 250;

const nowIso = () => new Date().toISOString();

export interface ChatSnapshot {
  /** The account this chat belongs to; null when nobody is signed in. */
  userId: string | null;
  state: ChatState;
  /** Tab id → the unsent text in its message box (memory only). */
  drafts: Readonly<Record<string, string>>;
  /** connectionKey → the connection made for that provider and model. */
  connections: Readonly<Record<string, ChatConnection>>;
  /** connectionKey → connects in flight. */
  connecting: Readonly<Record<string, number>>;
  /** Tab ids with a message being sent (connect + stream). */
  sending: Readonly<Record<string, true>>;
  /** Message ids being summarised. */
  summarizing: ReadonlySet<string>;
}

export interface SendOptions {
  /** The tab to send in; the active tab by default. */
  tabId?: string;
  /** Clear the tab's draft once the message is on its way. */
  clearDraft?: boolean;
  /** The MCP tools the model may call: the enabled servers' connection ids (none: no tools offered). */
  tools?: { connectionIds: readonly string[]; confirmReadOnly: boolean };
}

interface Session {
  userId: string;
  snap: ChatSnapshot;
  /** Set when the session is over: late results are dropped, nothing is saved. */
  ended: boolean;
  /** Aborts connects in flight when the session ends. */
  lifetime: AbortController;
  inflight: Map<string, Promise<ChatConnection | null>>;
  /** Tab id → its streams (replies and summaries). */
  streams: Map<string, Set<AbortController>>;
  summaryTimers: Map<string, { tabId: string; timer: ReturnType<typeof setTimeout> }>;
  autoConnectTimer: ReturnType<typeof setTimeout> | undefined;
  saveTimer: ReturnType<typeof setTimeout> | undefined;
  detach: () => void;
}

const SIGNED_OUT: ChatSnapshot = {
  userId: null,
  state: freshChatState('signed-out', '1970-01-01T00:00:00.000Z'),
  drafts: {},
  connections: {},
  connecting: {},
  sending: {},
  summarizing: new Set(),
};

let session: Session | null = null;
const listeners = new Set<() => void>();

function emit(): void {
  for (const l of [...listeners]) l();
}

const signedInUserId = (): string | null => {
  const { status, user } = getAuthState();
  return status === 'authenticated' && user ? user.id : null;
};

// ---------------------------------------------------------------- sessions

function startSession(userId: string): Session {
  const s: Session = {
    userId,
    snap: { ...SIGNED_OUT, userId, state: loadChatState(userId, newId('tab'), nowIso()), summarizing: new Set() },
    ended: false,
    lifetime: new AbortController(),
    inflight: new Map(),
    streams: new Map(),
    summaryTimers: new Map(),
    autoConnectTimer: undefined,
    saveTimer: undefined,
    detach: () => undefined,
  };
  // Logout or a 401 ends the session even when no chat page is on screen.
  const unsubscribe = subscribeAuth(() => {
    if (session === s && signedInUserId() !== s.userId) {
      endSession(s);
      session = null;
      emit();
    }
  });
  const flush = () => saveNow(s);
  window.addEventListener('pagehide', flush);
  s.detach = () => {
    unsubscribe();
    window.removeEventListener('pagehide', flush);
  };
  return s;
}

/**
 * Ends a session without saving: when it ends because the account signed
 * out, clearUserData has just removed what was stored, and nothing may
 * write it back. (State is saved as it changes, so nothing is lost either.)
 */
function endSession(s: Session): void {
  if (s.ended) return;
  s.ended = true;
  s.detach();
  s.lifetime.abort();
  for (const set of s.streams.values()) for (const c of set) c.abort();
  s.streams.clear();
  for (const { timer } of s.summaryTimers.values()) clearTimeout(timer);
  s.summaryTimers.clear();
  if (s.autoConnectTimer !== undefined) clearTimeout(s.autoConnectTimer);
  if (s.saveTimer !== undefined) clearTimeout(s.saveTimer);
  s.autoConnectTimer = s.saveTimer = undefined;
}

/**
 * The signed-in account's session, (re)loaded when the account changed.
 * Emits nothing: it is also called while React reads a snapshot.
 */
function current(): Session | null {
  const userId = signedInUserId();
  if (session && session.userId === userId && !session.ended) return session;
  if (session) endSession(session);
  session = userId ? startSession(userId) : null;
  return session;
}

function setSnap(s: Session, patch: Partial<ChatSnapshot>): void {
  if (s.ended) return;
  s.snap = { ...s.snap, ...patch };
  emit();
}

// ----------------------------------------------------------- persistence

function saveNow(s: Session): void {
  if (s.saveTimer !== undefined) clearTimeout(s.saveTimer);
  s.saveTimer = undefined;
  // Only ever the signed-in account's own keys.
  if (!s.ended && signedInUserId() === s.userId) saveChatState(s.userId, s.snap.state);
}

function saveSoon(s: Session): void {
  if (s.saveTimer !== undefined || s.ended) return;
  s.saveTimer = setTimeout(() => {
    s.saveTimer = undefined;
    saveNow(s);
  }, SAVE_DELAY_MS);
}

function dispatch(s: Session, action: ChatAction): void {
  if (s.ended) return;
  const state = chatReducer(s.snap.state, action);
  if (state === s.snap.state) return;
  setSnap(s, { state });
  if (action.type === 'appendContent') {
    saveSoon(s); // streamed text: batched, and written at once when the reply ends
  } else {
    saveNow(s);
    scheduleSummaries(s);
  }
}

const findTab = (s: Session, tabId: string): ChatTab | undefined => s.snap.state.tabs.find((t) => t.id === tabId);

function track(s: Session, tabId: string, controller: AbortController): () => void {
  let set = s.streams.get(tabId);
  if (!set) s.streams.set(tabId, (set = new Set()));
  set.add(controller);
  return () => {
    set.delete(controller);
    if (set.size === 0 && s.streams.get(tabId) === set) s.streams.delete(tabId);
  };
}

// ------------------------------------------------------------- connections

function storeConnection(s: Session, key: string, connection: ChatConnection | null): void {
  const connections = { ...s.snap.connections };
  if (connection) connections[key] = connection;
  else delete connections[key];
  setSnap(s, { connections });
  if (connection) scheduleSummaries(s);
}

function bumpConnecting(s: Session, key: string, delta: number): void {
  const n = (s.snap.connecting[key] ?? 0) + delta;
  const connecting = { ...s.snap.connecting };
  if (n > 0) connecting[key] = n;
  else delete connecting[key];
  setSnap(s, { connecting });
}

function connectTo(s: Session, provider: ProviderId, model: string, force = false): Promise<ChatConnection | null> {
  const key = connectionKey(provider, model);
  const existing = s.snap.connections[key];
  if (!force && canReuseConnection(existing, provider, model)) return Promise.resolve(existing);
  const pending = s.inflight.get(key);
  if (pending) return pending;
  const run = (async () => {
    bumpConnecting(s, key, 1);
    try {
      const connection = await connectProvider(provider, model, s.lifetime.signal);
      if (s.ended) return null;
      storeConnection(s, key, connection);
      toast.success(connectedMessage(connection.server_name), { id: CHAT_TOAST_ID });
      return connection;
    } catch (error) {
      if (s.ended) return null;
      if (force) storeConnection(s, key, null);
      toast.error(errorMessage(error, CONNECTION_FAILED), { id: CHAT_TOAST_ID });
      return null;
    } finally {
      s.inflight.delete(key);
      bumpConnecting(s, key, -1);
    }
  })();
  s.inflight.set(key, run);
  return run;
}

// --------------------------------------------------------------- sending

function setSending(s: Session, tabId: string, on: boolean): void {
  if (on === Boolean(s.snap.sending[tabId])) return;
  const sending = { ...s.snap.sending };
  if (on) sending[tabId] = true;
  else delete sending[tabId];
  setSnap(s, { sending });
}

/** Where a reply streams to, and what it needs to resume after a pause. */
interface ReplyTarget {
  tabId: string;
  messageId: string;
  connectionId: string;
  model: string;
  demo: boolean;
}

function approvalFrom(a: StreamApproval, target: ReplyTarget): PendingApproval {
  const { call } = a;
  return {
    token: a.token,
    expiresAt: a.expires_at,
    callId: call.id,
    serverId: call.server_id,
    serverName: call.server_name,
    tool: call.tool,
    arguments: call.arguments,
    description: call.description,
    readOnly: call.annotations.readOnlyHint,
    destructive: isDestructive(call.annotations),
    connectionId: target.connectionId,
    model: target.model,
    demo: target.demo,
    status: 'pending',
  };
}

/**
 * Streams a reply (a new one, or the rest of a paused one) into its
 * message: text, tool calls, results and notes as they come. `started` is
 * told when the first frame arrived.
 */
function streamReply(s: Session, target: ReplyTarget, request: StreamRequest, signal: AbortSignal, started: () => void): Promise<StreamResult> {
  const { tabId, messageId } = target;
  return streamChatMessage(request, {
    signal,
    onContent: (chunk) => {
      started();
      dispatch(s, { type: 'appendContent', tabId, messageId, chunk });
    },
    onToolCall: (call) => {
      started();
      dispatch(s, {
        type: 'toolCall',
        tabId,
        messageId,
        call: { id: call.id, serverId: call.server_id, serverName: call.server_name, tool: call.tool, arguments: call.arguments },
      });
    },
    onToolResult: (result) => {
      started();
      dispatch(s, { type: 'toolResult', tabId, messageId, result });
    },
    onNotice: (text) => {
      started();
      dispatch(s, { type: 'notice', tabId, messageId, text });
    },
  });
}

/** The stream ended: paused for an approval (the message stays open), or complete with its usage. */
function settleReply(s: Session, target: ReplyTarget, result: StreamResult): void {
  const { tabId, messageId } = target;
  if (result.approval) {
    dispatch(s, { type: 'pauseForApproval', tabId, messageId, approval: approvalFrom(result.approval, target) });
    return;
  }
  const usage = result.usage ? messageUsage(result.usage, target.demo || result.usage.demo === true) : undefined;
  dispatch(s, { type: 'completeMessage', tabId, messageId, usage });
}

const streamFailure = (error: unknown) => (error instanceof Error && error.message ? error.message : STREAM_FAILED);

/** The reply in the tab still waiting for an answer; expired ones are closed on the way. */
function openApproval(s: Session, tabId: string) {
  dispatch(s, { type: 'expireApprovals', tabId, nowMs: Date.now() });
  return awaitingApproval(s.snap.state.conversations[tabId] ?? [], Date.now());
}

async function send(s: Session, text: string, options: SendOptions): Promise<boolean> {
  const tabId = options.tabId ?? s.snap.state.activeTabId;
  const message = text.trim();
  if (!message || s.snap.sending[tabId]) return false;
  if (openApproval(s, tabId)) {
    toast.error(APPROVAL_FIRST, { id: CHAT_TOAST_ID });
    return false;
  }
  setSending(s, tabId, true);
  try {
    const tabAtStart = findTab(s, tabId);
    if (!tabAtStart) return false;
    const connection = await connectTo(s, tabAtStart.provider, tabAtStart.model);
    const tab = findTab(s, tabId);
    if (!connection || !tab || s.ended) return false;

    const context = contextFor(s.snap.state.conversations[tabId] ?? []);
    const now = nowIso();
    const assistantId = newId('msg');
    dispatch(s, { type: 'addMessage', tabId, message: createMessage(newId('msg'), 'user', message, now, true) });
    if (options.clearDraft) setDraft(s, '', tabId);
    dispatch(s, { type: 'addMessage', tabId, message: createMessage(assistantId, 'assistant', '', now, false) });

    const request: StreamRequest = { connection_id: connection.id, message, model: connection.model, context };
    const ids = options.tools?.connectionIds ?? [];
    if (ids.length > 0) {
      request.mcp_connection_ids = [...ids];
      request.confirm_read_only = options.tools?.confirmReadOnly ?? false;
    }
    const target: ReplyTarget = { tabId, messageId: assistantId, connectionId: connection.id, model: connection.model, demo: connection.demo };
    const controller = new AbortController();
    const untrack = track(s, tabId, controller);
    try {
      const result = await streamReply(s, target, request, controller.signal, () => undefined);
      settleReply(s, target, result);
      return true;
    } catch (error) {
      if (isAbortError(error) || s.ended) return false;
      // A reply that called tools keeps its record (the calls ran); an empty one goes.
      const reply = s.snap.state.conversations[tabId]?.find((m) => m.id === assistantId);
      if (reply?.blocks?.length) dispatch(s, { type: 'completeMessage', tabId, messageId: assistantId });
      else dispatch(s, { type: 'removeMessage', tabId, messageId: assistantId });
      // The server forgot the connection (404): connect afresh next time.
      if (error instanceof StreamError && error.status === 404) storeConnection(s, connectionKey(tab.provider, tab.model), null);
      toast.error(streamFailure(error), { id: CHAT_TOAST_ID });
      return false;
    } finally {
      untrack();
    }
  } finally {
    setSending(s, tabId, false);
  }
}

/**
 * The user's decision on the tool call a reply paused for: the rest of the
 * same reply streams into the same message. A token the server no longer
 * knows (404/409: unknown, used or expired) ends the reply with its detail
 * on the card; a refusal before the stream started (a limit, a network
 * failure) leaves the card to try again.
 */
async function answerApproval(s: Session, tabId: string, messageId: string, decision: ApprovalDecision): Promise<boolean> {
  const message = s.snap.state.conversations[tabId]?.find((m) => m.id === messageId);
  const approval = message?.approval;
  if (!message || !approval || approval.status !== 'pending' || message.complete || s.snap.sending[tabId]) return false;
  if (approvalExpired(approval, Date.now())) {
    dispatch(s, { type: 'expireApprovals', tabId, nowMs: Date.now() });
    return false;
  }
  setSending(s, tabId, true);
  dispatch(s, { type: 'answerApproval', tabId, messageId, decision });
  const target: ReplyTarget = { tabId, messageId, connectionId: approval.connectionId, model: approval.model, demo: approval.demo };
  const request: StreamRequest = {
    connection_id: approval.connectionId,
    message: '',
    model: approval.model,
    context: [],
    approval: { token: approval.token, decision },
  };
  const controller = new AbortController();
  const untrack = track(s, tabId, controller);
  let started = false;
  try {
    const result = await streamReply(s, target, request, controller.signal, () => (started = true));
    settleReply(s, target, result);
    return true;
  } catch (error) {
    if (isAbortError(error) || s.ended) return false;
    if (error instanceof StreamError && (error.status === 404 || error.status === 409)) {
      dispatch(s, { type: 'approvalRefused', tabId, messageId, detail: error.detail || error.message });
    } else if (!started) {
      dispatch(s, { type: 'approvalNotAnswered', tabId, messageId });
      toast.error(streamFailure(error), { id: CHAT_TOAST_ID });
    } else {
      dispatch(s, { type: 'completeMessage', tabId, messageId });
      toast.error(streamFailure(error), { id: CHAT_TOAST_ID });
    }
    return false;
  } finally {
    untrack();
    setSending(s, tabId, false);
  }
}

// ------------------------------------------------------------- summaries

/** SPEC §4: each long message is summarised once, 120 ms after it becomes eligible. */
function scheduleSummaries(s: Session): void {
  if (s.ended) return;
  for (const tab of s.snap.state.tabs) {
    const connection = s.snap.connections[connectionKey(tab.provider, tab.model)];
    if (!canReuseConnection(connection, tab.provider, tab.model)) continue;
    for (const message of s.snap.state.conversations[tab.id] ?? []) {
      if (!needsSummary(message) || s.summaryTimers.has(message.id)) continue;
      const timer = setTimeout(() => void summarize(s, tab.id, message.id), SUMMARY_DELAY_MS);
      s.summaryTimers.set(message.id, { tabId: tab.id, timer });
    }
  }
}

function setSummarizing(s: Session, messageId: string, on: boolean): void {
  const summarizing = new Set(s.snap.summarizing);
  if (on) summarizing.add(messageId);
  else summarizing.delete(messageId);
  setSnap(s, { summarizing });
}

async function summarize(s: Session, tabId: string, messageId: string): Promise<void> {
  s.summaryTimers.delete(messageId);
  const tab = findTab(s, tabId);
  const message = s.snap.state.conversations[tabId]?.find((m) => m.id === messageId);
  if (s.ended || !tab || !message || !needsSummary(message)) return;
  const connection = s.snap.connections[connectionKey(tab.provider, tab.model)];
  if (!canReuseConnection(connection, tab.provider, tab.model)) return;
  dispatch(s, { type: 'patchMessage', tabId, messageId, patch: { summaryRequested: true } });
  setSummarizing(s, messageId, true);
  const controller = new AbortController();
  const untrack = track(s, tabId, controller);
  try {
    const { content, usage } = await streamChatMessage(
      { connection_id: connection.id, message: summaryPrompt(message.content), model: connection.model, context: [] },
      { signal: controller.signal },
    );
    const summary = cutToWords(content);
    const patch = { ...(summary ? { summary } : {}), ...(usage ? { summaryUsage: messageUsage(usage, connection.demo) } : {}) };
    if (Object.keys(patch).length > 0) dispatch(s, { type: 'patchMessage', tabId, messageId, patch });
  } catch {
    // SPEC §8: a failed summary is silent; the message simply has none.
  } finally {
    untrack();
    setSummarizing(s, messageId, false);
  }
}

// -------------------------------------------------------------- the tabs

function setDraft(s: Session, text: string, tabId: string): void {
  if ((s.snap.drafts[tabId] ?? '') === text) return;
  setSnap(s, { drafts: { ...s.snap.drafts, [tabId]: text } });
}

function closeTab(s: Session, tabId: string): void {
  // Closing a tab is the one place a running reply is given up.
  for (const c of s.streams.get(tabId) ?? []) c.abort();
  s.streams.delete(tabId);
  for (const [messageId, entry] of s.summaryTimers) {
    if (entry.tabId !== tabId) continue;
    clearTimeout(entry.timer);
    s.summaryTimers.delete(messageId);
  }
  if (tabId in s.snap.drafts) {
    const drafts = { ...s.snap.drafts };
    delete drafts[tabId];
    setSnap(s, { drafts });
  }
  dispatch(s, { type: 'closeTab', tabId, id: newId('tab'), now: nowIso() });
}

function changeModel(s: Session, provider: ProviderId, model: string): void {
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

// ------------------------------------------------------------ public API

export function subscribeChat(listener: () => void): () => void {
  listeners.add(listener);
  // A change of account changes the snapshot too.
  const unsubscribeAuth = subscribeAuth(listener);
  return () => {
    listeners.delete(listener);
    unsubscribeAuth();
  };
}

export function getChatSnapshot(): ChatSnapshot {
  return current()?.snap ?? SIGNED_OUT;
}

/** Actions on the signed-in account's chat; each is a no-op when nobody is signed in. */
export const chatStore = {
  setDraft(text: string, tabId?: string): void {
    const s = current();
    if (s) setDraft(s, text, tabId ?? s.snap.state.activeTabId);
  },
  /** Opens a tab (made active) and returns its id at once, before any render. */
  newTab(): string | null {
    const s = current();
    if (!s) return null;
    const id = newId('tab');
    dispatch(s, { type: 'newTab', id, now: nowIso() });
    return id;
  },
  closeTab(tabId: string): void {
    const s = current();
    if (s) closeTab(s, tabId);
  },
  selectTab(tabId: string): void {
    const s = current();
    if (s) dispatch(s, { type: 'selectTab', tabId });
  },
  changeModel(provider: ProviderId, model: string): void {
    const s = current();
    if (s) changeModel(s, provider, model);
  },
  connect(options: { force?: boolean } = {}): Promise<ChatConnection | null> {
    const s = current();
    if (!s) return Promise.resolve(null);
    const tab = activeTab(s.snap.state);
    return connectTo(s, tab.provider, tab.model, options.force ?? false);
  },
  send(text: string, options: SendOptions = {}): Promise<boolean> {
    const s = current();
    return s ? send(s, text, options) : Promise.resolve(false);
  },
  setShowFull(messageId: string, showFull: boolean): void {
    const s = current();
    if (s) dispatch(s, { type: 'patchMessage', tabId: s.snap.state.activeTabId, messageId, patch: { showFull } });
  },
  /** Approve, always allow or deny the tool call a reply in the active tab paused for. */
  answerApproval(messageId: string, decision: ApprovalDecision): Promise<boolean> {
    const s = current();
    return s ? answerApproval(s, s.snap.state.activeTabId, messageId, decision) : Promise.resolve(false);
  },
  /** Offers (or stops offering) one MCP server's tools in the active tab. */
  setToolServer(connectionId: string, on: boolean): void {
    const s = current();
    if (s) dispatch(s, { type: 'setToolServer', tabId: s.snap.state.activeTabId, connectionId, on });
  },
  setConfirmReadOnly(on: boolean): void {
    const s = current();
    if (s) dispatch(s, { type: 'setConfirmReadOnly', tabId: s.snap.state.activeTabId, on });
  },
  /** Streams (replies and summaries) running in a tab: for tests and diagnostics. */
  runningStreams(tabId: string): number {
    return session?.streams.get(tabId)?.size ?? 0;
  },
};

/** Tests only: abort every stream, clear every timer, forget everything. */
export function resetChatStoreForTests(): void {
  if (session) endSession(session);
  session = null;
  listeners.clear();
}
