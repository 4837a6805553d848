// 'Use in Chat' hand-off (SPEC §3/§4): the marketplace writes three
// sessionStorage keys and navigates to /llm-chat; the chat page reads them
// once (takeChatHandoff) and starts from that text.
//
//   STORAGE_KEYS.chatPrefill      the text to put in the message box
//   STORAGE_KEYS.chatOpenMenu     'true' only when the text holds [start menu] … [end menu]
//   STORAGE_KEYS.chatForceNewTab  'true' when the chat should open a new tab for it
//
// sessionStorage, not localStorage: the hand-off belongs to this browser tab
// and must not pop up later in another one.

import { hasMenuBlock } from './menu-markers';
import { readString, removeKey, STORAGE_KEYS, writeString } from './storage';

export interface ChatHandoff {
  text: string;
  openMenu: boolean;
  forceNewTab: boolean;
}

const AREA = 'session' as const;

/** What writeChatHandoff stores for a text (pure). */
export function buildChatHandoff(text: string, options: { forceNewTab?: boolean } = {}): ChatHandoff {
  return { text, openMenu: hasMenuBlock(text), forceNewTab: options.forceNewTab ?? true };
}

/** Store the hand-off for /llm-chat; flags that are false are removed, never left stale. */
export function writeChatHandoff(text: string, options: { forceNewTab?: boolean } = {}): ChatHandoff {
  const handoff = buildChatHandoff(text, options);
  writeString(STORAGE_KEYS.chatPrefill, handoff.text, AREA);
  if (handoff.openMenu) writeString(STORAGE_KEYS.chatOpenMenu, 'true', AREA);
  else removeKey(STORAGE_KEYS.chatOpenMenu, AREA);
  if (handoff.forceNewTab) writeString(STORAGE_KEYS.chatForceNewTab, 'true', AREA);
  else removeKey(STORAGE_KEYS.chatForceNewTab, AREA);
  return handoff;
}

/** The pending hand-off, or null when there is no prefill text. */
export function readChatHandoff(): ChatHandoff | null {
  const text = readString(STORAGE_KEYS.chatPrefill, AREA);
  if (text === null) return null;
  return {
    text,
    openMenu: readString(STORAGE_KEYS.chatOpenMenu, AREA) === 'true',
    forceNewTab: readString(STORAGE_KEYS.chatForceNewTab, AREA) === 'true',
  };
}

export function clearChatHandoff(): void {
  removeKey(STORAGE_KEYS.chatPrefill, AREA);
  removeKey(STORAGE_KEYS.chatOpenMenu, AREA);
  removeKey(STORAGE_KEYS.chatForceNewTab, AREA);
}

/** Read and clear in one step: a hand-off is used once. */
export function takeChatHandoff(): ChatHandoff | null {
  const handoff = readChatHandoff();
  clearChatHandoff();
  return handoff;
}
