import { describe, expect, it, vi } from 'vitest';
import { clearUserData, PER_USER_KEYS, readJson, STORAGE_KEYS, userKey, writeJson } from './storage';

/** Every key in an area, sorted. */
const keys = (area: Storage) => Object.keys(area).sort();

describe('userKey', () => {
  it('scopes a per-user key by user id: <base>:<uid>', () => {
    expect(userKey(STORAGE_KEYS.chatTabs, 'u1')).toBe('chat-tabs:u1');
    expect(userKey(STORAGE_KEYS.chatConversations, '42')).toBe('chat-conversations:42');
    expect(userKey(STORAGE_KEYS.mcpConnections, 'u1')).not.toBe(userKey(STORAGE_KEYS.mcpConnections, 'u2'));
  });

  it('one account never reads what another wrote', () => {
    writeJson(userKey(STORAGE_KEYS.chatConversations, 'alice'), { t1: [{ content: 'My private note: salary negotiation' }] });
    expect(readJson(userKey(STORAGE_KEYS.chatConversations, 'bob'))).toBeNull();
  });

  it('covers every chat key and the MCP connection copies', () => {
    expect([...PER_USER_KEYS].sort()).toEqual(['chat-active-tab', 'chat-conversations', 'chat-tabs', 'mcp-connections']);
  });
});

describe('clearUserData', () => {
  it("removes every account's per-user data, legacy unscoped copies and the chat hand-off; keeps the rest", () => {
    for (const base of PER_USER_KEYS) {
      localStorage.setItem(userKey(base, 'alice'), '"a"');
      localStorage.setItem(userKey(base, 'bob'), '"b"');
      localStorage.setItem(base, '"legacy"');
    }
    // Not per-user: kept.
    localStorage.setItem(STORAGE_KEYS.theme, 'dark');
    localStorage.setItem(STORAGE_KEYS.tourCompleted, '{"at":1}');
    localStorage.setItem('chat-tabs-archive', 'x'); // only '<base>' and '<base>:…' are per-user
    sessionStorage.setItem(STORAGE_KEYS.chatPrefill, 'My private note: salary negotiation');
    sessionStorage.setItem(STORAGE_KEYS.chatOpenMenu, 'true');
    sessionStorage.setItem(STORAGE_KEYS.chatForceNewTab, 'true');
    sessionStorage.setItem(STORAGE_KEYS.redirectPath, '/marketplace');

    clearUserData();

    expect(keys(localStorage)).toEqual(['chat-tabs-archive', 'theme', 'tour-completed']);
    expect(keys(sessionStorage)).toEqual(['redirectPath']);
  });

  it('is a no-op on empty storage and can run twice', () => {
    clearUserData();
    clearUserData();
    expect(localStorage.length).toBe(0);
  });

  it('keeps working when storage is disabled (private mode)', () => {
    const local = vi.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    const session = vi.spyOn(window, 'sessionStorage', 'get').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    try {
      expect(() => clearUserData()).not.toThrow();
    } finally {
      local.mockRestore();
      session.mockRestore();
    }
  });

  it('keeps working when removing throws', () => {
    localStorage.setItem(userKey(STORAGE_KEYS.chatTabs, 'alice'), '[]');
    const remove = vi.spyOn(Storage.prototype, 'removeItem').mockImplementation(() => {
      throw new Error('broken');
    });
    try {
      expect(() => clearUserData()).not.toThrow();
    } finally {
      remove.mockRestore();
    }
  });
});
