import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import type { ChatTab } from '../state/types';
import { useTimeouts } from '../../../lib/use-timeouts';

interface TabStripProps {
  tabs: readonly ChatTab[];
  activeTabId: string;
  panelId: string;
  onSelect: (tabId: string) => void;
  onClose: (tabId: string) => void;
  onNew: () => void;
  /** After '+': the History control. */
  children?: ReactNode;
}

export const tabDomId = (tabId: string) => `chat-tab-${tabId}`;

/**
 * Tabs as buttons in a tablist (arrow keys, Home and End move between them;
 * Delete closes the focused tab when there is more than one), newest first,
 * × beside each only when there is more than one, '+' for a new chat, then
 * what the page adds (History). The strip scrolls sideways inside itself on
 * narrow screens.
 *
 * The tablist holds the tabs alone (WAI-ARIA tabs: a tablist owns only
 * tabs); the × buttons are its siblings, each placed after its tab by its
 * flex order (the tablist lays its tabs out in the strip's own row).
 */
export function TabStrip({ tabs, activeTabId, panelId, onSelect, onClose, onNew, children }: TabStripProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const timeouts = useTimeouts();
  const closable = tabs.length > 1;

  useEffect(() => {
    const el = listRef.current?.querySelector<HTMLElement>(`[id="${tabDomId(activeTabId)}"]`);
    el?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [activeTabId, tabs.length]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!(e.target instanceof HTMLElement) || e.target.getAttribute('role') !== 'tab') return;
    const index = tabs.findIndex((t) => t.id === activeTabId);
    if (e.key === 'Delete') {
      if (!closable || index < 0) return;
      e.preventDefault();
      onClose(tabs[index].id);
      // Focus follows to the tab the page makes active.
      timeouts.frame(() => listRef.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus());
      return;
    }
    let next = -1;
    if (e.key === 'ArrowRight') next = (index + 1) % tabs.length;
    else if (e.key === 'ArrowLeft') next = (index - 1 + tabs.length) % tabs.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = tabs.length - 1;
    if (next < 0) return;
    e.preventDefault();
    onSelect(tabs[next].id);
    const id = tabDomId(tabs[next].id);
    timeouts.frame(() => document.getElementById(id)?.focus());
  };

  return (
    <div className="chat-tabs">
      <div ref={listRef} className="chat-tabs__list">
        <div className="chat-tabs__tabs" role="tablist" aria-label="Chats" onKeyDown={onKeyDown}>
          {tabs.map((tab, i) => {
            const active = tab.id === activeTabId;
            return (
              <button
                key={tab.id}
                type="button"
                role="tab"
                id={tabDomId(tab.id)}
                className={`chat-tab__button${active ? ' chat-tab--active' : ''}${closable ? '' : ' chat-tab--alone'}`}
                style={{ order: 2 * i }}
                aria-selected={active}
                aria-controls={panelId}
                aria-keyshortcuts={closable ? 'Delete' : undefined}
                tabIndex={active ? 0 : -1}
                title={tab.title}
                onClick={() => onSelect(tab.id)}
              >
                {tab.title}
              </button>
            );
          })}
        </div>
        {closable
          ? tabs.map((tab, i) => (
              <button
                key={tab.id}
                type="button"
                className={`chat-tab__close${tab.id === activeTabId ? ' chat-tab--active' : ''}`}
                style={{ order: 2 * i + 1 }}
                aria-label={`Close ${tab.title}`}
                onClick={() => onClose(tab.id)}
              >
                <span aria-hidden="true">×</span>
              </button>
            ))
          : null}
      </div>
      <button type="button" className="chat-tabs__new" aria-label="New chat" title="New chat" onClick={onNew}>
        <span aria-hidden="true">+</span>
      </button>
      {children}
    </div>
  );
}
