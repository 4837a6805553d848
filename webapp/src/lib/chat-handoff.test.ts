import { describe, expect, it } from 'vitest';
import { buildChatHandoff, clearChatHandoff, readChatHandoff, takeChatHandoff, writeChatHandoff } from './chat-handoff';
import { STORAGE_KEYS } from './storage';

const MENU_TEXT = 'Plan my week.\n[start menu]\nd {focus} Focus\n- deep work\n- meetings\n[end menu]';

describe('chat hand-off', () => {
  it('uses three distinct, named keys', () => {
    const keys = [STORAGE_KEYS.chatPrefill, STORAGE_KEYS.chatOpenMenu, STORAGE_KEYS.chatForceNewTab];
    expect(new Set(keys).size).toBe(3);
    expect(keys).toEqual(['chat-prefill', 'chat-open-menu', 'chat-force-new-tab']);
  });

  it('buildChatHandoff sets the open-menu flag only with both markers, force-new-tab by default', () => {
    expect(buildChatHandoff(MENU_TEXT)).toEqual({ text: MENU_TEXT, openMenu: true, forceNewTab: true });
    expect(buildChatHandoff('Write about [TOPIC]')).toEqual({ text: 'Write about [TOPIC]', openMenu: false, forceNewTab: true });
    expect(buildChatHandoff('[end menu] then [start menu]').openMenu).toBe(false);
    expect(buildChatHandoff('x', { forceNewTab: false }).forceNewTab).toBe(false);
  });

  it('writes the raw text and both flags to sessionStorage', () => {
    writeChatHandoff(MENU_TEXT);
    expect(sessionStorage.getItem('chat-prefill')).toBe(MENU_TEXT);
    expect(sessionStorage.getItem('chat-open-menu')).toBe('true');
    expect(sessionStorage.getItem('chat-force-new-tab')).toBe('true');
    expect(localStorage.getItem('chat-prefill')).toBeNull();
  });

  it('removes a stale open-menu flag when the new text has no menu', () => {
    writeChatHandoff(MENU_TEXT);
    writeChatHandoff('Plain prompt');
    expect(sessionStorage.getItem('chat-prefill')).toBe('Plain prompt');
    expect(sessionStorage.getItem('chat-open-menu')).toBeNull();
    expect(readChatHandoff()).toEqual({ text: 'Plain prompt', openMenu: false, forceNewTab: true });
  });

  it('removes the force-new-tab flag when asked not to force', () => {
    writeChatHandoff('x');
    writeChatHandoff('y', { forceNewTab: false });
    expect(sessionStorage.getItem('chat-force-new-tab')).toBeNull();
  });

  it('reads null without prefill text, and take reads once then clears', () => {
    expect(readChatHandoff()).toBeNull();
    writeChatHandoff(MENU_TEXT);
    expect(takeChatHandoff()).toEqual({ text: MENU_TEXT, openMenu: true, forceNewTab: true });
    expect(takeChatHandoff()).toBeNull();
    expect(sessionStorage.length).toBe(0);
  });

  it('clear removes every key', () => {
    writeChatHandoff(MENU_TEXT);
    clearChatHandoff();
    expect(sessionStorage.getItem('chat-prefill')).toBeNull();
    expect(sessionStorage.getItem('chat-open-menu')).toBeNull();
    expect(sessionStorage.getItem('chat-force-new-tab')).toBeNull();
  });
});
