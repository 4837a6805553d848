// What of the chat is kept in the browser (SPEC §4), and how it is read
// back: tabs, the active tab and conversations, per account (store/save.ts
// reads and writes them under the account's own keys). What is read back is
// checked field by field: anything unusable is dropped, and with no usable
// tab the chat starts with a fresh 'Chat 1'.
//
// The server keeps the conversations; this is a cache of them: only tabs
// with a server conversation are written, so a tab read back without one
// was written by the app before the server kept conversations (legacy): it
// is uploaded once (store/migration.ts), then no longer written. A tab not
// made on the server yet is not written either (it is empty: a message
// makes it).

import { isRecord, strList } from '../../../lib/api/wire';
import { isViewUri } from '../api/frames';
import { isProviderId, modelFor } from '../providers';
import { isLongMessage } from '../summary';
import { restoreUsage } from '../usage';
import { freshChatState, TOOL_LOG_LINES } from './chat-state';
import type { ChatMessage, ChatState, ChatTab, MessageBlock, PendingApproval, PendingElicitation, PendingSignIn, ToolBlock, ToolCallState, ToolContent, ToolLogLine } from './types';

const str = (v: unknown): v is string => typeof v === 'string';
const offset = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

/**
 * Tool results can be large (up to 1 MB each); browser storage is ~5 MB for
 * everything. What is kept of them: text cut at this many characters, and
 * images only up to this many base64 characters (the rest say so).
 */
export const STORED_TOOL_TEXT_CHARS = 32_000;
export const STORED_IMAGE_CHARS = 200_000;

const TOOL_STATES: readonly ToolCallState[] = ['waiting', 'asking', 'signin', 'running', 'done', 'failed', 'denied', 'interrupted'];

function restoreTab(raw: unknown, index: number, now: string): ChatTab | null {
  if (!isRecord(raw) || !str(raw.id) || !raw.id) return null;
  const provider = isProviderId(raw.provider) ? raw.provider : 'openai';
  const tab: ChatTab = {
    id: raw.id,
    title: str(raw.title) && raw.title.trim() ? raw.title : `Chat ${index + 1}`,
    provider,
    model: modelFor(provider, str(raw.model) ? raw.model : null),
    createdAt: str(raw.createdAt) ? raw.createdAt : now,
  };
  if (Array.isArray(raw.toolsOff)) tab.toolsOff = [...new Set(raw.toolsOff.filter((id): id is string => str(id) && id !== ''))];
  if (raw.confirmReadOnly === true) tab.confirmReadOnly = true;
  if (isRecord(raw.agent) && str(raw.agent.id) && str(raw.agent.name)) tab.agent = { id: raw.agent.id as string, name: raw.agent.name as string };
  if (str(raw.conversationId) && raw.conversationId) {
    tab.conversationId = raw.conversationId;
    if (typeof raw.messageCount === 'number' && Number.isFinite(raw.messageCount) && raw.messageCount >= 0) tab.messageCount = Math.floor(raw.messageCount);
  } else {
    tab.legacy = true;
  }
  return tab;
}

function restoreContent(raw: unknown): ToolContent[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  return raw.filter((b): b is ToolContent => isRecord(b) && str(b.type));
}

function restoreBlock(raw: unknown): MessageBlock | null {
  if (!isRecord(raw)) return null;
  if (raw.kind === 'notice') return str(raw.text) && raw.text ? { kind: 'notice', at: offset(raw.at), text: raw.text } : null;
  if (raw.kind !== 'tool' || !str(raw.id) || !raw.id) return null;
  const block: ToolBlock = {
    kind: 'tool',
    at: offset(raw.at),
    id: raw.id,
    serverId: str(raw.serverId) ? raw.serverId : '',
    serverName: str(raw.serverName) ? raw.serverName : '',
    tool: str(raw.tool) ? raw.tool : '',
    arguments: raw.arguments ?? null,
    state: TOOL_STATES.includes(raw.state as ToolCallState) ? (raw.state as ToolCallState) : 'interrupted',
  };
  if (typeof raw.durationMs === 'number' && Number.isFinite(raw.durationMs)) block.durationMs = raw.durationMs;
  if (str(raw.connectionId) && raw.connectionId) block.connectionId = raw.connectionId;
  if (str(raw.uiResourceUri) && isViewUri(raw.uiResourceUri)) block.uiResourceUri = raw.uiResourceUri;
  const result = restoreContent(raw.result);
  if (result) block.result = result;
  if (raw.structuredContent !== undefined && raw.structuredContent !== null) block.structuredContent = raw.structuredContent;
  if (raw.truncated === true) block.truncated = true;
  if (str(raw.detail) && raw.detail) block.detail = raw.detail;
  const p = raw.progress;
  if (isRecord(p) && typeof p.progress === 'number' && Number.isFinite(p.progress)) {
    block.progress = { progress: p.progress };
    if (typeof p.total === 'number' && Number.isFinite(p.total) && p.total > 0) block.progress.total = p.total;
    if (str(p.message) && p.message) block.progress.message = p.message;
  }
  if (Array.isArray(raw.logs)) {
    const logs = raw.logs.filter((l): l is ToolLogLine => isRecord(l) && str(l.level) && str(l.text)).slice(-TOOL_LOG_LINES);
    if (logs.length > 0) block.logs = logs.map((l) => ({ level: l.level, text: l.text }));
  }
  return block;
}

function restoreElicitation(raw: unknown): PendingElicitation | undefined {
  if (!isRecord(raw) || !((str(raw.token) && raw.token) || (str(raw.id) && raw.id)) || !str(raw.callId) || !raw.callId || !str(raw.connectionId) || !str(raw.model)) return undefined;
  const s = (v: unknown) => (str(v) ? v : '');
  const mode = raw.mode === 'url' ? 'url' : 'form';
  if (mode === 'url' && !s(raw.url)) return undefined;
  const out: PendingElicitation = {
    token: s(raw.token),
    mode,
    message: s(raw.message),
    expiresAt: s(raw.expiresAt),
    callId: raw.callId,
    serverId: s(raw.serverId),
    serverName: s(raw.serverName),
    tool: s(raw.tool),
    live: raw.live === true,
    connectionId: raw.connectionId,
    model: raw.model,
    demo: raw.demo === true,
    status: raw.status === 'answered' || raw.status === 'failed' ? raw.status : 'pending',
  };
  if (str(raw.id) && raw.id) out.id = raw.id;
  if (isRecord(raw.schema)) out.schema = raw.schema;
  if (str(raw.url) && raw.url) out.url = raw.url;
  if (str(raw.elicitationId) && raw.elicitationId) out.elicitationId = raw.elicitationId;
  if (str(raw.detail) && raw.detail) out.detail = raw.detail;
  return out;
}

function restoreApproval(raw: unknown): PendingApproval | undefined {
  if (!isRecord(raw) || !((str(raw.token) && raw.token) || (str(raw.id) && raw.id)) || !str(raw.callId) || !raw.callId || !str(raw.connectionId) || !str(raw.model)) return undefined;
  const s = (v: unknown) => (str(v) ? v : '');
  const status = raw.status === 'answered' || raw.status === 'failed' ? raw.status : 'pending';
  const approval: PendingApproval = {
    token: s(raw.token),
    expiresAt: s(raw.expiresAt),
    callId: raw.callId,
    serverId: s(raw.serverId),
    serverName: s(raw.serverName),
    tool: s(raw.tool),
    arguments: raw.arguments ?? null,
    description: s(raw.description),
    readOnly: raw.readOnly === true,
    destructive: raw.destructive !== false,
    connectionId: raw.connectionId,
    model: raw.model,
    demo: raw.demo === true,
    status,
  };
  if (str(raw.detail) && raw.detail) approval.detail = raw.detail;
  if (str(raw.id) && raw.id) approval.id = raw.id;
  if (str(raw.endpoint) && raw.endpoint) approval.endpoint = raw.endpoint;
  const changed = strList(raw.changed);
  if (changed.length > 0) approval.changed = changed;
  return approval;
}

function restoreSignIn(raw: unknown): PendingSignIn | undefined {
  if (!isRecord(raw) || !str(raw.id) || !raw.id || !str(raw.callId) || !raw.callId) return undefined;
  const s = (v: unknown) => (str(v) ? v : '');
  // Off to the server's page when the page was left: waiting again on return.
  const status = raw.status === 'resumed' || raw.status === 'failed' ? raw.status : 'pending';
  const out: PendingSignIn = {
    token: s(raw.token),
    id: raw.id,
    expiresAt: s(raw.expiresAt),
    callId: raw.callId,
    serverId: s(raw.serverId),
    serverName: s(raw.serverName),
    mcpConnectionId: s(raw.mcpConnectionId),
    endpointUrl: s(raw.endpointUrl),
    scope: s(raw.scope),
    reason: s(raw.reason),
    connectionId: s(raw.connectionId),
    model: s(raw.model),
    demo: raw.demo === true,
    status,
  };
  if (str(raw.detail) && raw.detail) out.detail = raw.detail;
  return out;
}

function restoreMessage(raw: unknown, now: string, legacy: boolean): ChatMessage | null {
  if (!isRecord(raw) || !str(raw.id) || !str(raw.content)) return null;
  if (raw.role !== 'user' && raw.role !== 'assistant') return null;
  const blocks = raw.role === 'assistant' && Array.isArray(raw.blocks) ? raw.blocks.map(restoreBlock).filter((b): b is MessageBlock => b !== null) : [];
  let approval = raw.role === 'assistant' ? restoreApproval(raw.approval) : undefined;
  let elicitation = raw.role === 'assistant' ? restoreElicitation(raw.elicitation) : undefined;
  const signin = raw.role === 'assistant' ? restoreSignIn(raw.signin) : undefined;
  let complete = raw.complete !== false;
  const serverId = !legacy && str(raw.serverId) && raw.serverId ? raw.serverId : undefined;
  const pausedForQuestion = elicitation?.status === 'pending' && !elicitation.live;
  // A reply the server keeps stays open: the server says how it went on (re-attach).
  if (!complete && raw.role === 'assistant' && approval?.status !== 'pending' && !pausedForQuestion && signin?.status !== 'pending' && !serverId) {
    // A reply cut off by a reload: drop it when empty, keep what arrived otherwise
    // (a tool call still running then was cut off with it).
    if (!raw.content && blocks.length === 0) return null;
    complete = true;
    for (let i = 0; i < blocks.length; i++) {
      const b = blocks[i];
      if (b.kind === 'tool' && (b.state === 'running' || b.state === 'asking')) blocks[i] = { ...b, state: 'interrupted' };
    }
    if (approval?.status === 'answered') approval = undefined;
    if (elicitation && elicitation.status !== 'failed') elicitation = undefined;
  }
  // A reply paused for a tool approval stays paused: its card still works after the reload.
  const message: ChatMessage = {
    id: raw.id,
    role: raw.role,
    content: raw.content,
    timestamp: str(raw.timestamp) ? raw.timestamp : now,
    complete,
    summary: str(raw.summary) && raw.summary ? raw.summary : null,
    truncated: false,
    showFull: raw.showFull === true,
    summaryRequested: raw.summaryRequested === true,
  };
  message.truncated = isLongMessage(message);
  const usage = restoreUsage(raw.usage);
  if (usage && message.role === 'assistant') message.usage = usage;
  const summaryUsage = restoreUsage(raw.summaryUsage);
  if (summaryUsage) message.summaryUsage = summaryUsage;
  if (blocks.length > 0) message.blocks = blocks;
  if (approval) message.approval = approval;
  if (elicitation) message.elicitation = elicitation;
  if (signin) message.signin = signin;
  if (serverId) message.serverId = serverId;
  if (str(raw.error) && raw.error) message.error = raw.error;
  if (raw.stopped === true) message.stopped = true;
  if (raw.cut === true) message.cut = true;
  if (legacy) message.legacy = true;
  return message;
}

/** One content block as kept in storage: long text cut, large images left out (flagged `omitted`). */
function storableContent(block: ToolContent): { block: ToolContent; cut: boolean } {
  if (block.type === 'text' && str(block.text) && block.text.length > STORED_TOOL_TEXT_CHARS) {
    return { block: { ...block, text: block.text.slice(0, STORED_TOOL_TEXT_CHARS) }, cut: true };
  }
  if ((block.type === 'image' || block.type === 'audio') && str(block.data) && block.data.length > STORED_IMAGE_CHARS) {
    const rest = { ...block };
    delete rest.data;
    return { block: { ...rest, omitted: true }, cut: true };
  }
  if (block.type === 'resource' && isRecord(block.resource)) {
    const r = block.resource;
    const big = (str(r.text) && r.text.length > STORED_TOOL_TEXT_CHARS) || (str(r.blob) && r.blob.length > STORED_IMAGE_CHARS);
    if (big) {
      const resource: Record<string, unknown> = { ...r };
      if (str(r.text)) resource.text = r.text.slice(0, STORED_TOOL_TEXT_CHARS);
      if (str(r.blob) && r.blob.length > STORED_IMAGE_CHARS) delete resource.blob;
      return { block: { ...block, resource }, cut: true };
    }
  }
  return { block, cut: false };
}

/** A message as written to storage (pure): its tool results fit in browser storage. */
export function storableMessage(message: ChatMessage): ChatMessage {
  if (!message.blocks?.some((b) => b.kind === 'tool' && b.result)) return message;
  let changed = false;
  const blocks = message.blocks.map((b) => {
    if (b.kind !== 'tool' || !b.result) return b;
    let cut = false;
    const result = b.result.map((c) => {
      const kept = storableContent(c);
      cut ||= kept.cut;
      return kept.block;
    });
    changed ||= cut;
    return cut ? { ...b, result, truncated: true } : b;
  });
  return changed ? { ...message, blocks } : message;
}

/** The state from what storage held (pure). `freshId` names the tab made when none is usable. */
export function restoreChatState(rawTabs: unknown, rawActive: unknown, rawConversations: unknown, freshId: string, now: string): ChatState {
  const tabs: ChatTab[] = [];
  const ids = new Set<string>();
  if (Array.isArray(rawTabs)) {
    rawTabs.forEach((raw, i) => {
      const tab = restoreTab(raw, i, now);
      if (tab && !ids.has(tab.id)) {
        ids.add(tab.id);
        tabs.push(tab);
      }
    });
  }
  if (tabs.length === 0) return freshChatState(freshId, now);
  const conversations: Record<string, ChatMessage[]> = {};
  for (const tab of tabs) {
    const list = isRecord(rawConversations) ? rawConversations[tab.id] : undefined;
    const legacy = tab.legacy === true;
    conversations[tab.id] = Array.isArray(list) ? list.map((m) => restoreMessage(m, now, legacy)).filter((m): m is ChatMessage => m !== null) : [];
  }
  const activeTabId = str(rawActive) && ids.has(rawActive) ? rawActive : tabs[0].id;
  return { tabs, activeTabId, conversations };
}

/** A tab as written: without the flags that reading derives. */
function storableTab(tab: ChatTab): ChatTab {
  if (!tab.legacy) return tab;
  const out = { ...tab };
  delete out.legacy;
  return out;
}

/**
 * The tabs with a server conversation and their messages (not those only
 * shown this session: legacy ones of an uploaded tab); a legacy tab not
 * uploaded yet is written back as it was read.
 */
export function storableState(state: ChatState): { tabs: ChatTab[]; conversations: Record<string, ChatMessage[]> } {
  const tabs = state.tabs.filter((t) => t.conversationId || t.legacy);
  const conversations: Record<string, ChatMessage[]> = {};
  for (const tab of tabs) {
    const list = state.conversations[tab.id] ?? [];
    conversations[tab.id] = list
      .filter((m) => !(m.legacy && tab.conversationId))
      .map((m) => {
        const stored = storableMessage(m);
        if (!stored.legacy) return stored;
        const out = { ...stored };
        delete out.legacy;
        return out;
      });
  }
  return { tabs: tabs.map(storableTab), conversations };
}
