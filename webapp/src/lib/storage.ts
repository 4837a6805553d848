// Safe wrappers around Web Storage: private browsing modes and disabled
// storage throw on access, and the app must keep working without it.

type Area = 'local' | 'session';

function area(kind: Area): Storage | null {
  try {
    if (typeof window === 'undefined') return null;
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

export function readString(key: string, kind: Area = 'local'): string | null {
  try {
    return area(kind)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeString(key: string, value: string, kind: Area = 'local'): void {
  try {
    area(kind)?.setItem(key, value);
  } catch {
    // Quota exceeded or storage disabled: nothing sensible to do.
  }
}

export function removeKey(key: string, kind: Area = 'local'): void {
  try {
    area(kind)?.removeItem(key);
  } catch {
    // ignore
  }
}

export function readJson<T>(key: string, kind: Area = 'local'): T | null {
  const raw = readString(key, kind);
  if (raw == null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown, kind: Area = 'local'): void {
  writeString(key, JSON.stringify(value), kind);
}

/** Every storage key the app uses, in one place. */
export const STORAGE_KEYS = {
  /** Auth session: JSON {user, token, isAuthenticated}. */
  auth: 'auth-storage',
  /** 'light' | 'dark'; absent means "follow the system preference". */
  theme: 'theme',
  /** sessionStorage: a path to restore at start (deep link hand-off). */
  redirectPath: 'redirectPath',
  /** Tour flags: JSON {at: epoch ms}; they expire after 2 hours. */
  tourCompleted: 'tour-completed',
  tourCancelled: 'tour-cancelled',
  /**
   * Chat hand-off ('Use in Chat' → /llm-chat), sessionStorage; written and
   * read only through lib/chat-handoff.ts. Prefill: the raw prompt text.
   */
  chatPrefill: 'chat-prefill',
  /** sessionStorage: 'true' when the prefill holds a [start menu] … [end menu] block; absent otherwise. */
  chatOpenMenu: 'chat-open-menu',
  /** sessionStorage: 'true' when the chat should open the prefill in a new tab; absent otherwise. */
  chatForceNewTab: 'chat-force-new-tab',
  /** LLM chat tabs: JSON [{id, title, provider, model, createdAt}]. */
  chatTabs: 'chat-tabs',
  /** LLM chat: the id of the active tab (plain string). */
  chatActiveTab: 'chat-active-tab',
  /** LLM chat conversations: JSON {tabId: [message, …]} (SPEC §3 Message fields). */
  chatConversations: 'chat-conversations',
} as const;
