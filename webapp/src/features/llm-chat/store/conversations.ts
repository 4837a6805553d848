// The chat as a cache of the conversations kept with the account. Each tab
// is a server conversation: made when the tab is opened with
// + (a fresh 'Chat 1' with its first message), renamed and re-modelled with
// it, archived when it closes. When a session starts, the tabs are the
// user's open conversations, newest first (what the browser stored shows
// meanwhile, and stays when the server cannot be reached); a tab's messages
// are asked for when it is first shown, and a reply still being generated
// is re-attached (reattach.ts).
//
// Tabs stored before the server kept conversations are uploaded first (migration.ts).

import { ApiError, errorMessage } from '../../../lib/api-client';
import {
  createConversation,
  deleteConversation,
  listConversations,
  listMessages,
  MAX_OPEN_PAGES,
  OPEN_PAGE_SIZE,
  patchConversation,
  type ConversationInfo,
  type ConversationPatch,
} from '../api/conversations';
import { historyChanged } from '../api/history';
import { newId } from '../ids';
import { isPaused } from '../state/message-parts';
import { mergeServerMessages } from '../state/server-messages';
import type { ChatTab } from '../state/types';
import { reusableConnection } from './connections';
import { migrateLegacyTabs, uploadTab } from './migration';
import { reattach } from './reattach';
import { dispatch, findTab, nowIso, type Session } from './session';
import { chatError } from './toasts';

export const CONVERSATION_FAILED = 'Failed to save the chat';
export const ARCHIVE_FAILED = 'Failed to archive the chat';

/**
 * The tab's conversation id, made on the server when it has none (one
 * request however many ask at once). Rejects when the server refused;
 * null when the tab or the session is gone.
 */
export function ensureConversation(s: Session, tabId: string): Promise<string | null> {
  const tab = findTab(s, tabId);
  if (!tab || s.ended) return Promise.resolve(null);
  if (tab.conversationId) return Promise.resolve(tab.conversationId);
  const pending = s.creating.get(tabId);
  if (pending) return pending;
  if (tab.legacy) return uploadTab(s, tab); // with its old messages
  // An agent's tab is made bound to it (for good: the server runs its messages as the agent).
  const sent = { title: tab.title, provider: tab.provider, model: tab.model, ...(tab.agent ? { agent_id: tab.agent.id } : {}) };
  const run = (async () => {
    try {
      const conversation = await createConversation(sent, s.lifetime.signal);
      if (s.ended) return null;
      s.madeHere.add(conversation.id);
      if (!findTab(s, tabId)) return conversation.id; // closed meanwhile: closing archives it
      s.loadedTabs.add(tabId); // new on the server: nothing there to load, what the tab shows is all
      dispatch(s, { type: 'setConversation', tabId, conversation });
      // Renamed or re-modelled while it was being made: the server hears of it now.
      const now = findTab(s, tabId);
      const patch: ConversationPatch = {};
      if (now && now.title !== sent.title) patch.title = now.title;
      if (now && (now.provider !== sent.provider || now.model !== sent.model)) Object.assign(patch, { provider: now.provider, model: now.model });
      if (Object.keys(patch).length > 0) void updateConversation(s, tabId, patch);
      return conversation.id;
    } finally {
      s.creating.delete(tabId);
    }
  })();
  s.creating.set(tabId, run);
  return run;
}

/**
 * The tab was changed (model, tool settings): one not made on the server
 * yet (the fresh 'Chat 1') is made now, so the change is kept with it. A
 * failure is quiet: its first message tries again, and says so.
 */
export function keepTab(s: Session, tabId: string): void {
  if (findTab(s, tabId)?.conversationId) return;
  ensureConversation(s, tabId).catch(() => undefined);
}

/** Tells the server of a change to the tab's conversation (title, provider and model); a failure is quiet. */
export async function updateConversation(s: Session, tabId: string, patch: ConversationPatch): Promise<void> {
  const id = findTab(s, tabId)?.conversationId;
  if (!id || s.ended) return;
  try {
    await patchConversation(id, patch, s.lifetime.signal);
  } catch {
    // The tab shows the change; the server has the old value until the next change.
  }
}

/**
 * A closed tab's conversation is archived (History lists it); one that
 * never had a message is deleted instead, so History and the count of
 * conversations do not fill with empty chats. Waits for a conversation
 * still being made.
 */
export async function retireConversation(s: Session, tab: ChatTab, hadMessages: boolean): Promise<void> {
  let id: string | null | undefined = tab.conversationId;
  if (id) s.closedHere.add(id);
  else id = await s.creating.get(tab.id)?.catch(() => null);
  if (!id || s.ended) return;
  s.closedHere.add(id);
  const empty = !hadMessages && !(tab.messageCount && tab.messageCount > 0);
  try {
    if (empty) await deleteConversation(id, s.lifetime.signal);
    else {
      await patchConversation(id, { archived: true }, s.lifetime.signal);
      historyChanged();
    }
  } catch (error) {
    if (s.ended || (error instanceof ApiError && error.status === 404)) return; // gone already
    chatError(errorMessage(error, ARCHIVE_FAILED));
  }
}

/** A tab that is only the empty stand-in for a chat (a fresh 'Chat 1' nothing was done in). */
export function isPlaceholder(s: Session, tab: ChatTab): boolean {
  return (
    !tab.conversationId &&
    !tab.legacy &&
    !s.creating.has(tab.id) &&
    (s.snap.state.conversations[tab.id]?.length ?? 0) === 0 &&
    !(s.snap.drafts[tab.id] ?? '').trim()
  );
}

/**
 * The tabs of this session when the server's list of open conversations
 * arrives (`listed`: its ids), kept after the listed ones in their order:
 * those not made on the server yet, those made or reopened in this session,
 * and those it did not list (archived elsewhere) that are busy here. The
 * empty stand-in 'Chat 1' stays unless the user already had conversations.
 */
function sessionTabs(s: Session, listed: ReadonlySet<string>): string[] {
  const had = [...listed].some((id) => !s.madeHere.has(id));
  return s.snap.state.tabs
    .filter((tab) => {
      if (tab.conversationId) return s.madeHere.has(tab.conversationId) || (!listed.has(tab.conversationId) && Boolean(s.snap.sending[tab.id]));
      return !had || !isPlaceholder(s, tab);
    })
    .map((tab) => tab.id);
}

/** Every open conversation of the user, newest first, page after page. */
async function listOpen(s: Session): Promise<ConversationInfo[]> {
  const open: ConversationInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_OPEN_PAGES && !s.ended; page++) {
    const { conversations, next_cursor } = await listConversations({ archived: false, limit: OPEN_PAGE_SIZE, cursor }, s.lifetime.signal);
    open.push(...conversations);
    if (!next_cursor) break;
    cursor = next_cursor;
  }
  return open;
}

/**
 * Brings the session in line with the server: uploads old tabs, then makes
 * the open conversations the tabs and loads the active tab's messages. The
 * server not answering leaves what the browser stored.
 */
export async function syncConversations(s: Session): Promise<void> {
  await migrateLegacyTabs(s);
  if (s.ended) return;
  let open: ConversationInfo[];
  try {
    open = await listOpen(s);
  } catch {
    return; // offline: the stored tabs stay
  }
  if (s.ended) return;
  open = open.filter((c) => !s.closedHere.has(c.id)); // listed before its tab closed here
  const keep = sessionTabs(s, new Set(open.map((c) => c.id)));
  dispatch(s, { type: 'syncTabs', conversations: open, keep, id: newId('tab'), now: nowIso() });
  await loadMessages(s, s.snap.state.activeTabId);
}

/**
 * The tab's messages as the server has them (once per session per tab, or
 * again with `force`), merged with what the tab shows; a reply still being
 * generated is re-attached. Not while the tab sends: what it shows is newer.
 * The server not answering leaves what the browser stored (a reply that was
 * streaming ends there, with what had arrived; the next load asks again).
 */
export async function loadMessages(s: Session, tabId: string, force = false): Promise<void> {
  const tab = findTab(s, tabId);
  const id = tab?.conversationId;
  if (!tab || !id || s.ended || (!force && s.loadedTabs.has(tabId))) return;
  s.loadedTabs.add(tabId);
  let server;
  try {
    server = await listMessages(id, s.lifetime.signal);
  } catch (error) {
    if (s.ended) return;
    s.loadedTabs.delete(tabId); // asked again when the tab is shown again
    if (error instanceof ApiError && error.status === 404) {
      // Deleted elsewhere: the tab keeps what it shows, and its next message makes a new conversation.
      dispatch(s, { type: 'forgetConversation', tabId });
    }
    for (const m of s.snap.state.conversations[tabId] ?? []) {
      if (m.role === 'assistant' && !m.complete && !isPaused(m) && !s.snap.sending[tabId]) dispatch(s, { type: 'completeMessage', tabId, messageId: m.id });
    }
    return;
  }
  const current = findTab(s, tabId);
  if (s.ended || current?.conversationId !== id || s.snap.sending[tabId]) return;
  const connection = reusableConnection(s, current.provider, current.model);
  const resume = { connectionId: connection?.id ?? '', model: connection?.model ?? current.model, demo: connection?.demo ?? false };
  const messages = mergeServerMessages(server, s.snap.state.conversations[tabId] ?? [], resume, nowIso());
  dispatch(s, { type: 'setMessages', tabId, messages });
  for (const m of messages) {
    if (m.role === 'assistant' && !m.complete && !isPaused(m) && m.serverId) void reattach(s, tabId, m.id);
  }
}

/** Asks again for the messages of every tab showing a reply still open (a page back from the back/forward cache). */
export async function resumeReplies(s: Session): Promise<void> {
  const open = s.snap.state.tabs.filter((t) => (s.snap.state.conversations[t.id] ?? []).some((m) => m.role === 'assistant' && !m.complete && !isPaused(m)));
  await Promise.all(open.map((t) => loadMessages(s, t.id, true)));
}

/**
 * Reopens an archived conversation (History): it becomes the first tab,
 * made active, and its messages load; an empty stand-in tab goes. Rejects
 * with the server's refusal.
 */
export async function reopenConversation(s: Session, conversationId: string): Promise<void> {
  const conversation = await patchConversation(conversationId, { archived: false }, s.lifetime.signal);
  if (s.ended) return;
  s.madeHere.add(conversation.id);
  s.closedHere.delete(conversation.id);
  const placeholders = s.snap.state.tabs.filter((t) => isPlaceholder(s, t)).map((t) => t.id);
  dispatch(s, { type: 'openConversation', conversation, now: nowIso() });
  for (const tabId of placeholders) dispatch(s, { type: 'closeTab', tabId, id: newId('tab'), now: nowIso() });
  const tab = s.snap.state.tabs.find((t) => t.conversationId === conversation.id);
  if (tab) await loadMessages(s, tab.id, true);
}

/** Deletes a conversation for good (History); already gone counts as done. Rejects with the server's refusal. */
export async function removeConversation(s: Session, conversationId: string): Promise<void> {
  try {
    await deleteConversation(conversationId, s.lifetime.signal);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
  if (s.ended) return;
  // Open in a tab meanwhile (another device reopened it): that tab keeps what it shows, unsaved.
  const tab = s.snap.state.tabs.find((t) => t.conversationId === conversationId);
  if (tab) dispatch(s, { type: 'forgetConversation', tabId: tab.id });
}
