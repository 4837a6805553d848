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
 * Tabs as buttons in a tablist (arrow keys, Home and End move between them),
 * newest first, × on each only when there is more than one, '+' for a new
 * chat, then what the page adds (History). The strip scrolls sideways
 * inside itself on narrow screens.
 */
export function TabStrip({ tabs, activeTabId, panelId, onSelect, onClose, onNew, children }: TabStripProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const timeouts = useTimeouts();

  useEffect(() => {
    const el = listRef.current?.querySelector<HTMLElement>(`[id="${tabDomId(activeTabId)}"]`);
    el?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [activeTabId, tabs.length]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((t) => t.id === activeTabId);
    let next = -1;
    if (e.key === 'ArrowRight') next = (index + 1) % tabs.length;
    else if (e.key === 'ArrowLeft') next = (index - 1 + tabs.length) % tabs.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = tabs.length - 1;
    if (next < 0 || !(e.target instanceof HTMLElement) || e.target.getAttribute('role') !== 'tab') return;
    e.preventDefault();
    onSelect(tabs[next].id);
    const id = tabDomId(tabs[next].id);
    timeouts.frame(() => document.getElementById(id)?.focus());
  };

  return (
    <div className="chat-tabs">
      <div ref={listRef} className="chat-tabs__list" role="tablist" aria-label="Chats" onKeyDown={onKeyDown}>
        {tabs.map((tab) => {
          const active = tab.id === activeTabId;
          return (
            <div key={tab.id} className={`chat-tab${active ? ' chat-tab--active' : ''}`}>
              <button
                type="button"
                role="tab"
                id={tabDomId(tab.id)}
                className="chat-tab__button"
                aria-selected={active}
                aria-controls={panelId}
                tabIndex={active ? 0 : -1}
                title={tab.title}
                onClick={() => onSelect(tab.id)}
              >
                {tab.title}
              </button>
              {tabs.length > 1 ? (
                <button type="button" className="chat-tab__close" aria-label={`Close ${tab.title}`} onClick={() => onClose(tab.id)}>
                  <span aria-hidden="true">×</span>
                </button>
              ) : null}
            </div>
          );
        })}
      </div>
      <button type="button" className="chat-tabs__new" aria-label="New chat" title="New chat" onClick={onNew}>
        <span aria-hidden="true">+</span>
      </button>
      {children}
    </div>
  );
}
