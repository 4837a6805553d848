// The unsent text of each tab's message box. Kept in memory only (not with
// the saved chat), so it survives leaving the page and coming back, but not
// a reload; it goes with its tab, and is cleared when a send asks for it.

import { setSnap, type Session } from './session';

/** Sets a tab's draft; no change (and no render) when it is the same text. */
export function setDraft(s: Session, text: string, tabId: string): void {
  if ((s.snap.drafts[tabId] ?? '') === text) return;
  setSnap(s, { drafts: { ...s.snap.drafts, [tabId]: text } });
}

/** Forgets a tab's draft (its tab is closing). */
export function dropDraft(s: Session, tabId: string): void {
  if (!(tabId in s.snap.drafts)) return;
  const drafts = { ...s.snap.drafts };
  delete drafts[tabId];
  setSnap(s, { drafts });
}

/** The tab whose conversation holds the message `messageId`. */
export function tabOfMessage(s: Session, messageId: string): string | undefined {
  const { conversations } = s.snap.state;
  return Object.keys(conversations).find((id) => conversations[id].some((m) => m.id === messageId));
}

/**
 * A tool's view suggests a follow-up message (MCP Apps ui/message): its
 * text goes into the message box of the tab whose reply shows the view,
 * after what the user has typed there; it is never sent by itself. False
 * when no tab holds that reply any more.
 */
export function suggestDraft(s: Session, messageId: string, text: string): boolean {
  const tabId = tabOfMessage(s, messageId);
  if (!tabId) return false;
  const draft = s.snap.drafts[tabId] ?? '';
  setDraft(s, draft.trim() ? `${draft.trimEnd()}\n\n${text}` : text, tabId);
  return true;
}
