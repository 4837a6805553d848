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
  /** MCP connections' local copies (SPEC §3): JSON [{connection_id, connected_at, status, …}]. */
  mcpConnections: 'mcp-connections',
} as const;

/**
 * Keys whose data belongs to one account: stored per user id (userKey) and
 * removed when the session ends (logout, or a 401 that clears it), so the
 * next person on the same browser never sees them.
 */
export const PER_USER_KEYS = [STORAGE_KEYS.chatTabs, STORAGE_KEYS.chatActiveTab, STORAGE_KEYS.chatConversations, STORAGE_KEYS.mcpConnections] as const;

/** Hand-off keys (sessionStorage) are written by one account and must not reach the next. */
const HANDOFF_KEYS = [STORAGE_KEYS.chatPrefill, STORAGE_KEYS.chatOpenMenu, STORAGE_KEYS.chatForceNewTab] as const;

/** The storage key of a per-user item: `<base>:<user id>`. */
export function userKey(base: (typeof PER_USER_KEYS)[number], userId: string): string {
  return `${base}:${userId}`;
}

/** Removes every account's per-user data (and any legacy unscoped copy) and the chat hand-off. */
export function clearUserData(): void {
  const local = area('local');
  if (local) {
    try {
      const doomed: string[] = [];
      for (let i = 0; i < local.length; i++) {
        const k = local.key(i);
        if (k && PER_USER_KEYS.some((base) => k === base || k.startsWith(`${base}:`))) doomed.push(k);
      }
      for (const k of doomed) local.removeItem(k);
    } catch {
      // storage disabled: nothing stored to leak
    }
  }
  for (const k of HANDOFF_KEYS) removeKey(k, 'session');
}
