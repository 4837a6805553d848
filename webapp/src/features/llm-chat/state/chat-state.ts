// The tab and conversation rules of SPEC §4 as a pure reducer. Ids and
// times come in with the actions, so every rule is testable as is.

import type { ApprovalDecision, ElicitationAction } from '../api/chat-stream';
import type { StreamToolLog, StreamToolProgress } from '../api/frames';
import type { ConversationInfo } from '../api/conversations';
import { TAB_TITLE_CHARS } from '../constants';
import { displayText } from '../menu/display';
import { DEFAULT_PROVIDER, firstModel, isProviderId, modelFor, type ProviderId } from '../providers';
import { isLongMessage } from '../summary';
import { approvalExpired, isPaused, mapBlock, pauseOf, resultState, samePause } from './message-parts';
import type { ChatAgent, ChatMessage, ChatState, ChatTab, MessageRole, MessageUsage, PendingApproval, PendingElicitation, PendingSignIn, ToolBlock, ToolContent } from './types';

/** A tool block keeps this many of its newest log lines. */
export const TOOL_LOG_LINES = 200;

/** A tool_call frame, as the reducer takes it. */
export type ToolCallInput = Pick<ToolBlock, 'id' | 'serverId' | 'serverName' | 'tool' | 'arguments' | 'connectionId' | 'uiResourceUri'>;

/** A tool_result frame, as the reducer takes it. */
export interface ToolResultInput {
  id: string;
  is_error: boolean;
  content: ToolContent[];
  duration_ms: number;
  denied?: boolean;
  truncated?: boolean;
  structured_content?: unknown;
}

const DEFAULT_TITLE = /^Chat \d+$/;
/** The title the server gives a conversation made without one. */
export const SERVER_DEFAULT_TITLE = 'New chat';

/** 'Chat {n}' (or the server's 'New chat'): the first user message names the tab instead. */
export function isDefaultTitle(title: string): boolean {
  return DEFAULT_TITLE.test(title) || title === SERVER_DEFAULT_TITLE;
}

/** 'Chat {n}': n is one more than the number of tabs, moved on past titles in use. */
export function nextTabTitle(tabs: readonly ChatTab[]): string {
  const taken = new Set(tabs.map((t) => t.title));
  let n = tabs.length + 1;
  while (taken.has(`Chat ${n}`)) n++;
  return `Chat ${n}`;
}

/**
 * A tab title from the first user message: its first 30 characters as
 * shown (menu block removed, whitespace runs as single spaces).
 */
export function titleFromMessage(content: string): string {
  const shown = displayText(content, 'user').replace(/\s+/g, ' ').trim();
  const text = shown || content.replace(/\s+/g, ' ').trim();
  return Array.from(text).slice(0, TAB_TITLE_CHARS).join('');
}

export function createTab(id: string, title: string, provider: ProviderId, model: string, now: string): ChatTab {
  return { id, title, provider, model: modelFor(provider, model), createdAt: now };
}

/** SPEC §4: 'Chat 1' on openai with its first model, as the only tab. */
export function freshChatState(id: string, now: string): ChatState {
  return {
    tabs: [createTab(id, 'Chat 1', DEFAULT_PROVIDER, firstModel(DEFAULT_PROVIDER), now)],
    activeTabId: id,
    conversations: { [id]: [] },
  };
}

export function createMessage(id: string, role: MessageRole, content: string, now: string, complete: boolean): ChatMessage {
  const message: ChatMessage = {
    id,
    role,
    content,
    timestamp: now,
    complete,
    summary: null,
    truncated: false,
    showFull: false,
    summaryRequested: false,
  };
  message.truncated = isLongMessage(message);
  return message;
}

export function activeTab(state: ChatState): ChatTab {
  return state.tabs.find((t) => t.id === state.activeTabId) ?? state.tabs[0];
}

/**
 * A server conversation as a tab: `local`, the tab already showing it, keeps
 * its id and its browser-only settings (tools). A 'Chat {n}' the server
 * still has while the tab was named by its first message keeps the name
 * (the rename is on its way).
 */
export function tabFromConversation(c: ConversationInfo, now: string, local?: ChatTab): ChatTab {
  const provider = isProviderId(c.provider) ? c.provider : DEFAULT_PROVIDER;
  const keepLocalTitle = local !== undefined && !isDefaultTitle(local.title) && isDefaultTitle(c.title);
  const tab: ChatTab = {
    ...(local ?? { id: c.id, createdAt: c.created_at || now }),
    title: keepLocalTitle ? local.title : c.title.trim() || local?.title || SERVER_DEFAULT_TITLE,
    provider,
    model: modelFor(provider, c.model),
    conversationId: c.id,
    messageCount: c.message_count,
  };
  delete tab.legacy;
  const agent = c.agent ?? local?.agent;
  if (agent) tab.agent = { id: agent.id, name: agent.name };
  else delete tab.agent;
  return tab;
}

export type ChatAction =
  /**
   * A new tab with the active tab's provider and model, made active, after the
   * others (next to '+'). The server lists conversations newest first: a
   * reload shows them in that order.
   */
  | { type: 'newTab'; id: string; now: string }
  /** A new tab bound to a marketplace agent: named by it, on its provider and model, after the others, made active. */
  | { type: 'newAgentTab'; id: string; now: string; agent: ChatAgent; provider: ProviderId; model: string }
  /** `id`/`now` make the fresh 'Chat 1' when the last tab closes. */
  | { type: 'closeTab'; tabId: string; id: string; now: string }
  | { type: 'selectTab'; tabId: string }
  | { type: 'setTabModel'; tabId: string; provider: ProviderId; model: string }
  | { type: 'addMessage'; tabId: string; message: ChatMessage }
  | { type: 'appendContent'; tabId: string; messageId: string; chunk: string }
  /** The reply finished; `usage` is what the stream's usage frame said, when it sent one. */
  | { type: 'completeMessage'; tabId: string; messageId: string; usage?: MessageUsage; stopped?: boolean }
  | { type: 'removeMessage'; tabId: string; messageId: string }
  | { type: 'patchMessage'; tabId: string; messageId: string; patch: Partial<Pick<ChatMessage, 'summary' | 'showFull' | 'summaryRequested' | 'summaryUsage'>> }
  /** Turns one MCP server's tools on or off for the tab. */
  | { type: 'setToolServer'; tabId: string; connectionId: string; on: boolean }
  | { type: 'setConfirmReadOnly'; tabId: string; on: boolean }
  /** The model called a tool: a block after the text so far, running. */
  | { type: 'toolCall'; tabId: string; messageId: string; call: ToolCallInput }
  | { type: 'toolResult'; tabId: string; messageId: string; result: ToolResultInput }
  | { type: 'notice'; tabId: string; messageId: string; text: string }
  /** The reply paused for the user's decision on a call (the message stays incomplete). */
  | { type: 'pauseForApproval'; tabId: string; messageId: string; approval: PendingApproval }
  /** The user decided; the reply resumes. */
  | { type: 'answerApproval'; tabId: string; messageId: string; decision: ApprovalDecision }
  /** The decision did not reach the server (the token is still good): ask again. */
  | { type: 'approvalNotAnswered'; tabId: string; messageId: string }
  /** The server refused the token (unknown, used or expired): the reply is over, `detail` says why. */
  | { type: 'approvalRefused'; tabId: string; messageId: string; detail: string }
  /** A running call's progress. */
  | { type: 'toolProgress'; tabId: string; messageId: string; progress: StreamToolProgress }
  /** A log line of a running call. */
  | { type: 'toolLog'; tabId: string; messageId: string; log: StreamToolLog }
  /**
   * A server asks the user something while one of the reply's calls runs:
   * the card shows (live: the stream stays open meanwhile).
   */
  | { type: 'askElicitation'; tabId: string; messageId: string; elicitation: PendingElicitation }
  /** The stream ended right after the question: the reply is paused for it (unless it is answered already). */
  | { type: 'pauseForElicitation'; tabId: string; messageId: string; elicitation: PendingElicitation }
  /** The user answered; a paused reply resumes, an open stream goes on. */
  | { type: 'answerElicitation'; tabId: string; messageId: string; action: ElicitationAction }
  /** The server took the answer while the reply's own stream is open: the call runs on. */
  | { type: 'elicitationAcknowledged'; tabId: string; messageId: string }
  /** The answer did not reach the server: ask again. */
  | { type: 'elicitationNotAnswered'; tabId: string; messageId: string }
  /** The server refused the answer (replayed, expired, unknown): the card says why; a paused reply is over. */
  | { type: 'elicitationRefused'; tabId: string; messageId: string; detail: string }
  /** The reply paused until the user signs in to a call's server (the message stays open). */
  | { type: 'pauseForSignIn'; tabId: string; messageId: string; signin: PendingSignIn }
  /** The sign-in a paused reply waits for: off to the server's page, resumed, waiting again, or refused (`detail`). */
  | { type: 'signInStatus'; tabId: string; messageId: string; status: PendingSignIn['status']; detail?: string }
  /** Paused replies whose approval (or question) expired by `nowMs` are over. */
  | { type: 'expireApprovals'; tabId: string; nowMs: number }
  /** The tab's conversation was made on the server (an uploaded old tab is one from now on). */
  | { type: 'setConversation'; tabId: string; conversation: ConversationInfo }
  /** The tab's conversation is gone from the server (deleted elsewhere): the next message makes a new one. */
  | { type: 'forgetConversation'; tabId: string }
  /**
   * The open conversations the server listed (newest first) become the tabs,
   * in its order, followed by the tabs in `keep` (those of this session, in
   * their order; a listed one brought up to date); with no tab left, a fresh
   * 'Chat 1' (`id`, `now`).
   */
  | { type: 'syncTabs'; conversations: ConversationInfo[]; keep: readonly string[]; id: string; now: string }
  /** A conversation reopened from History: its tab, after the others as a new one, made active. */
  | { type: 'openConversation'; conversation: ConversationInfo; now: string }
  /** The tab's messages as the server has them (merged with what only this browser knows). */
  | { type: 'setMessages'; tabId: string; messages: ChatMessage[] }
  /** The reply failed: it is over, `error` says why (what arrived stays). */
  | { type: 'failMessage'; tabId: string; messageId: string; error: string }
  /** A re-attached reply is sent again from its start: it starts empty. */
  | { type: 'resetReply'; tabId: string; messageId: string }
  /** The server's ids of a message (from the stream's message_ids). */
  | { type: 'setServerId'; tabId: string; messageId: string; serverId: string };

function mapMessage(state: ChatState, tabId: string, messageId: string, fn: (m: ChatMessage) => ChatMessage): ChatState {
  const list = state.conversations[tabId];
  if (!list) return state;
  let changed = false;
  const next = list.map((m) => {
    if (m.id !== messageId) return m;
    const updated = fn(m);
    if (updated !== m) changed = true;
    return updated;
  });
  return changed ? { ...state, conversations: { ...state.conversations, [tabId]: next } } : state;
}

/** The state without tab `tabId` (and its messages); `instead` is active if it was. */
function withoutTab(state: ChatState, tabId: string, instead: string): ChatState {
  const conversations = { ...state.conversations };
  delete conversations[tabId];
  return { tabs: state.tabs.filter((t) => t.id !== tabId), activeTabId: state.activeTabId === tabId ? instead : state.activeTabId, conversations };
}

function mapTab(state: ChatState, tabId: string, fn: (t: ChatTab) => ChatTab): ChatState {
  let changed = false;
  const tabs = state.tabs.map((t) => {
    if (t.id !== tabId) return t;
    const updated = fn(t);
    if (updated !== t) changed = true;
    return updated;
  });
  return changed ? { ...state, tabs } : state;
}

/** A finished (or given up) reply: what still runs was cut off; an answered approval is spent. */
function finish(m: ChatMessage, usage?: MessageUsage): ChatMessage {
  const done: ChatMessage = { ...m, complete: true };
  if (usage) done.usage = usage;
  if (done.blocks?.some((b) => b.kind === 'tool' && b.state === 'running')) {
    done.blocks = done.blocks.map((b) => (b.kind === 'tool' && b.state === 'running' ? { ...b, state: 'interrupted' } : b));
  }
  if (done.approval?.status === 'answered') delete done.approval;
  const question = done.elicitation;
  if (question && (question.status === 'answered' || (question.status === 'pending' && question.live))) {
    // A question asked inside a call that ended with the reply: nothing answers it any more.
    if (question.status === 'pending' && done.blocks) done.blocks = mapBlock(done.blocks, question.callId, (b) => (b.state === 'asking' ? { ...b, state: 'interrupted' } : b));
    delete done.elicitation;
  }
  return { ...done, truncated: isLongMessage(done) };
}

const logText = (data: unknown): string => (typeof data === 'string' ? data : JSON.stringify(data) ?? String(data));

function ask(m: ChatMessage, e: PendingElicitation): ChatMessage {
  const call: ToolCallInput = { id: e.callId, serverId: e.serverId, serverName: e.serverName, tool: e.tool, arguments: null };
  const known = m.blocks?.find((b): b is ToolBlock => b.kind === 'tool' && b.id === e.callId);
  const withBlock = known ? m : addToolCall(m, call);
  const next: ChatMessage = { ...withBlock, elicitation: e, blocks: mapBlock(withBlock.blocks ?? [], e.callId, (b) => ({ ...b, state: 'asking' })) };
  if (!e.live) next.complete = false;
  return next;
}

function setQuestionBlock(m: ChatMessage, patch: Partial<ToolBlock>): ChatMessage {
  if (!m.elicitation || !m.blocks) return m;
  return { ...m, blocks: mapBlock(m.blocks, m.elicitation.callId, (b) => ({ ...b, ...patch })) };
}

function addToolCall(m: ChatMessage, call: ToolCallInput): ChatMessage {
  const blocks = m.blocks ?? [];
  if (blocks.some((b) => b.kind === 'tool' && b.id === call.id)) {
    return { ...m, blocks: mapBlock(blocks, call.id, (b) => ({ ...b, ...call })) };
  }
  const block: ToolBlock = { kind: 'tool', at: m.content.length, ...call, state: 'running' };
  return { ...m, blocks: [...blocks, block] };
}

function addToolResult(m: ChatMessage, result: ToolResultInput): ChatMessage {
  const blocks = m.blocks ?? [];
  const settle = (b: ToolBlock): ToolBlock => {
    const next: ToolBlock = { ...b, state: resultState(result), durationMs: result.duration_ms, result: result.content };
    if (result.truncated) next.truncated = true;
    if (result.structured_content !== undefined) next.structuredContent = result.structured_content;
    return next;
  };
  if (!blocks.some((b) => b.kind === 'tool' && b.id === result.id)) {
    // A result for a call this message never saw: keep it rather than lose it.
    const orphan: ToolBlock = { kind: 'tool', at: m.content.length, id: result.id, serverId: '', serverName: '', tool: '', arguments: null, state: 'running' };
    return { ...m, blocks: [...blocks, settle(orphan)] };
  }
  return { ...m, blocks: mapBlock(blocks, result.id, settle) };
}

function pause(m: ChatMessage, approval: PendingApproval): ChatMessage {
  const call: ToolCallInput = { id: approval.callId, serverId: approval.serverId, serverName: approval.serverName, tool: approval.tool, arguments: approval.arguments };
  const withCall = addToolCall(m, call);
  return { ...withCall, complete: false, approval, blocks: mapBlock(withCall.blocks ?? [], call.id, (b) => ({ ...b, state: 'waiting' })) };
}

function setApprovalBlock(m: ChatMessage, patch: Partial<ToolBlock>): ChatMessage {
  if (!m.approval || !m.blocks) return m;
  return { ...m, blocks: mapBlock(m.blocks, m.approval.callId, (b) => ({ ...b, ...patch })) };
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'newTab': {
      const current = activeTab(state);
      const provider = current?.provider ?? DEFAULT_PROVIDER;
      const tab = createTab(action.id, nextTabTitle(state.tabs), provider, current?.model ?? firstModel(provider), action.now);
      return { tabs: [...state.tabs, tab], activeTabId: tab.id, conversations: { ...state.conversations, [tab.id]: [] } };
    }
    case 'newAgentTab': {
      const tab: ChatTab = { ...createTab(action.id, action.agent.name, action.provider, action.model, action.now), agent: { ...action.agent } };
      return { tabs: [...state.tabs, tab], activeTabId: tab.id, conversations: { ...state.conversations, [tab.id]: [] } };
    }
    case 'closeTab': {
      if (!state.tabs.some((t) => t.id === action.tabId)) return state;
      const tabs = state.tabs.filter((t) => t.id !== action.tabId);
      if (tabs.length === 0) return freshChatState(action.id, action.now);
      const conversations = { ...state.conversations };
      delete conversations[action.tabId];
      const activeTabId = state.activeTabId === action.tabId ? tabs[tabs.length - 1].id : state.activeTabId;
      return { tabs, activeTabId, conversations };
    }
    case 'selectTab':
      return state.tabs.some((t) => t.id === action.tabId) && state.activeTabId !== action.tabId ? { ...state, activeTabId: action.tabId } : state;
    case 'setTabModel': {
      // An agent's tab runs on the agent's provider and model.
      if (state.tabs.some((t) => t.id === action.tabId && t.agent)) return state;
      const model = modelFor(action.provider, action.model);
      return {
        ...state,
        tabs: state.tabs.map((t) => (t.id === action.tabId ? { ...t, provider: action.provider, model } : t)),
      };
    }
    case 'addMessage': {
      const tab = state.tabs.find((t) => t.id === action.tabId);
      if (!tab) return state;
      const list = state.conversations[action.tabId] ?? [];
      const firstUser = action.message.role === 'user' && !list.some((m) => m.role === 'user');
      const tabs =
        firstUser && isDefaultTitle(tab.title) && !tab.agent
          ? state.tabs.map((t) => (t.id === tab.id ? { ...t, title: titleFromMessage(action.message.content) || t.title } : t))
          : state.tabs;
      return { ...state, tabs, conversations: { ...state.conversations, [action.tabId]: [...list, action.message] } };
    }
    case 'appendContent':
      return mapMessage(state, action.tabId, action.messageId, (m) => (action.chunk ? { ...m, content: m.content + action.chunk } : m));
    case 'completeMessage':
      return mapMessage(state, action.tabId, action.messageId, (m) => {
        const done = finish(m, action.usage);
        return action.stopped ? { ...done, stopped: true } : done;
      });
    case 'removeMessage': {
      const list = state.conversations[action.tabId];
      if (!list || !list.some((m) => m.id === action.messageId)) return state;
      return { ...state, conversations: { ...state.conversations, [action.tabId]: list.filter((m) => m.id !== action.messageId) } };
    }
    case 'patchMessage':
      return mapMessage(state, action.tabId, action.messageId, (m) => ({ ...m, ...action.patch }));
    case 'setToolServer':
      return mapTab(state, action.tabId, (t) => {
        const off = t.toolsOff ?? [];
        if (off.includes(action.connectionId) === !action.on) return t;
        return { ...t, toolsOff: action.on ? off.filter((id) => id !== action.connectionId) : [...off, action.connectionId] };
      });
    case 'setConfirmReadOnly':
      return mapTab(state, action.tabId, (t) => (Boolean(t.confirmReadOnly) === action.on ? t : { ...t, confirmReadOnly: action.on }));
    case 'toolCall':
      return mapMessage(state, action.tabId, action.messageId, (m) => addToolCall(m, action.call));
    case 'toolResult':
      return mapMessage(state, action.tabId, action.messageId, (m) => {
        const next = addToolResult(m, action.result);
        // The call ended: its server's question is over, answered or not.
        if (next.elicitation?.callId === action.result.id) delete next.elicitation;
        // And the sign-in it asked for.
        if (next.signin?.callId === action.result.id) delete next.signin;
        return next;
      });
    case 'pauseForSignIn':
      return mapMessage(state, action.tabId, action.messageId, (m) => {
        const call: ToolCallInput = { id: action.signin.callId, serverId: action.signin.serverId, serverName: action.signin.serverName, tool: '', arguments: {} };
        const withCall = m.blocks?.some((b) => b.kind === 'tool' && b.id === call.id) ? m : addToolCall(m, call);
        return { ...withCall, complete: false, signin: action.signin, blocks: mapBlock(withCall.blocks ?? [], call.id, (b) => ({ ...b, state: 'signin' })) };
      });
    case 'signInStatus':
      return mapMessage(state, action.tabId, action.messageId, (m) => {
        if (!m.signin) return m;
        const signin: PendingSignIn = { ...m.signin, status: action.status };
        if (action.detail) signin.detail = action.detail;
        else delete signin.detail;
        const next = { ...m, signin };
        if (action.status === 'resumed') return { ...next, blocks: mapBlock(m.blocks ?? [], m.signin.callId, (b) => ({ ...b, state: 'running' })) };
        if (action.status === 'failed') return finish({ ...next, blocks: mapBlock(m.blocks ?? [], m.signin.callId, (b) => ({ ...b, state: 'failed', detail: action.detail })) });
        return next;
      });
    case 'toolProgress':
      return mapMessage(state, action.tabId, action.messageId, (m) => {
        const { id, progress, total, message } = action.progress;
        if (!m.blocks?.some((b) => b.kind === 'tool' && b.id === id)) return m;
        return { ...m, blocks: mapBlock(m.blocks, id, (b) => ({ ...b, progress: { progress, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) } })) };
      });
    case 'toolLog':
      return mapMessage(state, action.tabId, action.messageId, (m) => {
        const { id, level, data } = action.log;
        if (!m.blocks?.some((b) => b.kind === 'tool' && b.id === id)) return m;
        return { ...m, blocks: mapBlock(m.blocks, id, (b) => ({ ...b, logs: [...(b.logs ?? []), { level, text: logText(data) }].slice(-TOOL_LOG_LINES) })) };
      });
    case 'askElicitation':
      return mapMessage(state, action.tabId, action.messageId, (m) => ask(m, action.elicitation));
    case 'pauseForElicitation':
      return mapMessage(state, action.tabId, action.messageId, (m) => {
        const current = m.elicitation;
        // Answered before this stream ended: the answer's own stream carries the reply on.
        if (current && samePause(current, action.elicitation) && current.status !== 'pending') return m;
        if (!current || !samePause(current, action.elicitation)) {
          if (m.complete) return m;
          return ask(m, { ...action.elicitation, live: false });
        }
        return { ...m, complete: false, elicitation: { ...current, live: false } };
      });
    case 'answerElicitation':
      return mapMessage(state, action.tabId, action.messageId, (m) => {
        if (m.elicitation?.status !== 'pending') return m;
        return setQuestionBlock({ ...m, elicitation: { ...m.elicitation, status: 'answered' } }, { state: 'running' });
      });
    case 'elicitationAcknowledged':
      return mapMessage(state, action.tabId, action.messageId, (m) => {
        if (m.elicitation?.status !== 'answered') return m;
        const next = { ...m };
        delete next.elicitation;
        return next;
      });
    case 'elicitationNotAnswered':
      return mapMessage(state, action.tabId, action.messageId, (m) => {
        if (m.elicitation?.status !== 'answered') return m;
        const again = { ...m, elicitation: { ...m.elicitation, status: 'pending' as const } };
        return setQuestionBlock(m.elicitation.live ? again : { ...again, complete: false }, { state: 'asking' });
      });
    case 'elicitationRefused':
      return mapMessage(state, action.tabId, action.messageId, (m) => {
        if (!m.elicitation) return m;
        const refused = { ...m, elicitation: { ...m.elicitation, status: 'failed' as const, detail: action.detail } };
        // An open stream still ends the call its own way; a paused reply is over.
        if (m.elicitation.live && !m.complete) return setQuestionBlock(refused, { state: 'running', detail: action.detail });
        return finish(setQuestionBlock(refused, { state: 'failed', detail: action.detail }));
      });
    case 'notice':
      return mapMessage(state, action.tabId, action.messageId, (m) =>
        action.text ? { ...m, blocks: [...(m.blocks ?? []), { kind: 'notice', at: m.content.length, text: action.text }] } : m,
      );
    case 'pauseForApproval':
      return mapMessage(state, action.tabId, action.messageId, (m) => pause(m, action.approval));
    case 'answerApproval':
      return mapMessage(state, action.tabId, action.messageId, (m) => {
        if (m.approval?.status !== 'pending') return m;
        const answered = { ...m, approval: { ...m.approval, status: 'answered' as const } };
        return setApprovalBlock(answered, { state: action.decision === 'deny' ? 'denied' : 'running' });
      });
    case 'approvalNotAnswered':
      return mapMessage(state, action.tabId, action.messageId, (m) => {
        if (m.approval?.status !== 'answered') return m;
        return setApprovalBlock({ ...m, complete: false, approval: { ...m.approval, status: 'pending' } }, { state: 'waiting' });
      });
    case 'approvalRefused':
      return mapMessage(state, action.tabId, action.messageId, (m) => {
        if (!m.approval) return m;
        const refused = setApprovalBlock({ ...m, approval: { ...m.approval, status: 'failed', detail: action.detail } }, { state: 'failed', detail: action.detail });
        return finish(refused);
      });
    case 'expireApprovals': {
      const list = state.conversations[action.tabId];
      if (!list) return state;
      let changed = false;
      const next = list.map((m) => {
        const pause = isPaused(m) ? pauseOf(m) : undefined;
        if (!pause || !approvalExpired(pause, action.nowMs)) return m;
        changed = true;
        return finish(m);
      });
      return changed ? { ...state, conversations: { ...state.conversations, [action.tabId]: next } } : state;
    }
    case 'setConversation': {
      // A listing answered while this tab's conversation was being made may show it as a tab of its own already: this tab is that one.
      const twin = state.tabs.find((t) => t.id !== action.tabId && t.conversationId === action.conversation.id);
      const base = twin && state.tabs.some((t) => t.id === action.tabId) ? withoutTab(state, twin.id, action.tabId) : state;
      return mapTab(base, action.tabId, (t) => {
        const next: ChatTab = { ...t, conversationId: action.conversation.id, messageCount: action.conversation.message_count };
        delete next.legacy;
        return next;
      });
    }
    case 'forgetConversation':
      return mapTab(state, action.tabId, (t) => {
        if (t.conversationId === undefined) return t;
        const next = { ...t };
        delete next.conversationId;
        delete next.messageCount;
        return next;
      });
    case 'syncTabs':
      return syncTabs(state, action);
    case 'openConversation': {
      const { conversation } = action;
      const open = state.tabs.find((t) => t.conversationId === conversation.id);
      if (open) return state.activeTabId === open.id ? state : { ...state, activeTabId: open.id };
      const tab = tabFromConversation(conversation, action.now);
      return { tabs: [...state.tabs, tab], activeTabId: tab.id, conversations: { ...state.conversations, [tab.id]: [] } };
    }
    case 'setMessages':
      if (!state.tabs.some((t) => t.id === action.tabId)) return state;
      return { ...state, conversations: { ...state.conversations, [action.tabId]: action.messages } };
    case 'failMessage':
      return mapMessage(state, action.tabId, action.messageId, (m) => ({ ...finish(m), error: action.error || 'Failed' }));
    case 'resetReply':
      return mapMessage(state, action.tabId, action.messageId, (m) => {
        const fresh: ChatMessage = { ...m, content: '', complete: false, truncated: false };
        delete fresh.blocks;
        delete fresh.error;
        delete fresh.approval;
        delete fresh.elicitation;
        delete fresh.usage;
        return fresh;
      });
    case 'setServerId':
      return mapMessage(state, action.tabId, action.messageId, (m) => (m.serverId === action.serverId ? m : { ...m, serverId: action.serverId }));
  }
}

function syncTabs(state: ChatState, action: Extract<ChatAction, { type: 'syncTabs' }>): ChatState {
  const keep = new Set(action.keep);
  const listed = new Map(action.conversations.map((c) => [c.id, c]));
  const local = new Map(state.tabs.filter((t) => t.conversationId).map((t) => [t.conversationId, t]));
  const session = state.tabs
    .filter((t) => keep.has(t.id))
    .map((t) => {
      const c = t.conversationId ? listed.get(t.conversationId) : undefined;
      return c ? tabFromConversation(c, action.now, t) : t;
    });
  const inSession = new Set(session.map((t) => t.conversationId));
  const listedTabs = action.conversations.filter((c) => !inSession.has(c.id)).map((c) => tabFromConversation(c, action.now, local.get(c.id)));
  const tabs = [...listedTabs, ...session];
  if (tabs.length === 0) return freshChatState(action.id, action.now);
  const conversations: Record<string, ChatMessage[]> = {};
  for (const t of tabs) conversations[t.id] = state.conversations[t.id] ?? [];
  const activeTabId = tabs.some((t) => t.id === state.activeTabId) ? state.activeTabId : tabs[0].id;
  return { tabs, activeTabId, conversations };
}

/**
 * SPEC §4: the context sent with a message is the tab's complete messages
 * so far; a failed reply is left out, and the message it answered with it.
 */
export function contextFor(messages: readonly ChatMessage[]): { role: MessageRole; content: string }[] {
  return messages
    .filter((m, i) => m.complete && !m.error && !(m.role === 'user' && messages[i + 1]?.role === 'assistant' && messages[i + 1].error))
    .map((m) => ({ role: m.role, content: m.content }));
}
