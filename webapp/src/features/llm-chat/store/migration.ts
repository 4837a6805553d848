// Migration: tabs the app stored before conversations were kept with the
// account (state/persistence.ts reads them as legacy) are uploaded once
// when the session starts, each a conversation with its title, provider,
// model and messages, the last tab first so the first ends newest. The
// upload is keyed by the tab's id, so one whose answer was lost is not made
// twice when tried again. Once uploaded, the tab's messages are an ordinary
// cache of the server's (its load replaces them). A tab whose upload fails
// (offline, refused) stays in storage as it was, its messages marked as not
// uploaded yet, and is tried again next time.
//
// An upload holds what the API takes: the newest messages up to 500 and
// 4 MiB, each message's text cut at the 1 MiB the server keeps.

import {
  MAX_MESSAGE_BYTES,
  MAX_UPLOAD_BYTES,
  MAX_UPLOADED_MESSAGES,
  uploadConversation,
  type UploadedMessage,
} from '../api/conversations';
import type { ChatMessage, ChatTab } from '../state/types';
import { dispatch, findTab, type Session } from './session';

const encoder = new TextEncoder();

/** The longest start of `text` of at most `max` bytes (UTF-8), whole characters only. */
export function cutToBytes(text: string, max: number): string {
  if (text.length * 3 <= max) return text; // fits however it encodes
  const { read } = encoder.encodeInto(text, new Uint8Array(max));
  return text.slice(0, read);
}

/** The messages of an upload: the newest that fit, in their order. */
export function uploadableMessages(messages: readonly ChatMessage[]): UploadedMessage[] {
  const out: UploadedMessage[] = [];
  let bytes = 0;
  for (let i = messages.length - 1; i >= 0 && out.length < MAX_UPLOADED_MESSAGES; i--) {
    const m = messages[i];
    if (m.role === 'assistant' && !m.content && !m.error) continue; // a reply that never began
    const u: UploadedMessage = { role: m.role, content: cutToBytes(m.content, MAX_MESSAGE_BYTES), created_at: m.timestamp };
    if (m.role === 'assistant' && m.error) u.error = m.error;
    if (m.role === 'assistant' && m.usage) u.usage = m.usage;
    bytes += encoder.encode(JSON.stringify(u)).length + 1;
    if (bytes > MAX_UPLOAD_BYTES) break;
    out.push(u);
  }
  return out.reverse();
}

/** Uploads one old tab (one request however many ask); rejects with why it failed. */
export function uploadTab(s: Session, tab: ChatTab): Promise<string | null> {
  const pending = s.creating.get(tab.id);
  if (pending) return pending;
  const run = (async () => {
    try {
      const messages = s.snap.state.conversations[tab.id] ?? [];
      const conversation = await uploadConversation(
        { title: tab.title, provider: tab.provider, model: tab.model, upload_key: tab.id, messages: uploadableMessages(messages) },
        s.lifetime.signal,
      );
      if (s.ended) return null;
      s.madeHere.add(conversation.id);
      if (!findTab(s, tab.id)) return conversation.id; // closed meanwhile: closing archives it
      dispatch(s, { type: 'setConversation', tabId: tab.id, conversation });
      // What the tab shows is now the server's: no longer marked, replaced when the tab loads.
      const shown = s.snap.state.conversations[tab.id] ?? [];
      dispatch(s, { type: 'setMessages', tabId: tab.id, messages: shown.map(withoutLegacy) });
      return conversation.id;
    } finally {
      s.creating.delete(tab.id);
    }
  })();
  s.creating.set(tab.id, run);
  return run;
}

function withoutLegacy(m: ChatMessage): ChatMessage {
  if (!m.legacy) return m;
  const out = { ...m };
  delete out.legacy;
  return out;
}

/** Uploads the tabs stored before conversations were kept with the account (see above); false when one failed. */
export async function migrateLegacyTabs(s: Session): Promise<boolean> {
  const legacy = s.snap.state.tabs.filter((t) => t.legacy && !t.conversationId);
  for (const tab of [...legacy].reverse()) {
    try {
      await uploadTab(s, tab);
    } catch {
      return false; // offline or refused: stored as it was, tried again next time
    }
    if (s.ended) return false;
  }
  return true;
}
