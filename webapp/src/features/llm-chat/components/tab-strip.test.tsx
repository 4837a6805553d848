// The chat tab strip as the WAI-ARIA tabs pattern has it: a tablist that
// owns only tabs (axe's serious aria-required-children otherwise), the ×
// buttons beside it; arrows, Home and End move between tabs, Delete and ×
// close one.

import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { ChatTab } from '../state/types';
import { TabStrip } from './tab-strip';

const tab = (id: string, title: string) => ({ id, title, provider: 'openai', model: 'gpt-4o-mini', createdAt: '2026-03-07T10:00:00Z' }) as ChatTab;

/** The strip over three tabs, closing as the page does (the next tab, else the one before, becomes active). */
function Strip({ onClose }: { onClose?: (id: string) => void }) {
  const [tabs, setTabs] = useState([tab('a', 'Alpha'), tab('b', 'Beta'), tab('c', 'Gamma')]);
  const [active, setActive] = useState('a');
  const close = (id: string) => {
    onClose?.(id);
    const i = tabs.findIndex((t) => t.id === id);
    const rest = tabs.filter((t) => t.id !== id);
    if (id === active) setActive((tabs[i + 1] ?? tabs[i - 1]).id);
    setTabs(rest);
  };
  return (
    <>
      <TabStrip tabs={tabs} activeTabId={active} panelId="panel" onSelect={setActive} onClose={close} onNew={() => {}} />
      <div id="panel" role="tabpanel" aria-labelledby={`chat-tab-${active}`} />
    </>
  );
}

async function seriousViolations(): Promise<string[]> {
  const result = await axe.run(document.body, { resultTypes: ['violations'], rules: { 'color-contrast': { enabled: false } } });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

describe('TabStrip', () => {
  it('has a tablist of tabs alone, the close buttons beside it, and no serious axe finding', async () => {
    render(<Strip />);
    const list = screen.getByRole('tablist', { name: 'Chats' });
    expect(within(list).getAllByRole('tab').map((t) => t.textContent)).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(within(list).queryAllByRole('button')).toEqual([]);
    expect(screen.getAllByRole('button', { name: /^Close / }).map((b) => b.getAttribute('aria-label'))).toEqual(['Close Alpha', 'Close Beta', 'Close Gamma']);
    expect(await seriousViolations()).toEqual([]);
  });

  it('moves between tabs with the arrows, Home and End, and closes the focused one with Delete', async () => {
    const onClose = vi.fn();
    const user = userEvent.setup();
    render(<Strip onClose={onClose} />);
    await user.click(screen.getByRole('tab', { name: 'Alpha' }));
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Beta' })).toHaveAttribute('aria-selected', 'true');
    await vi.waitFor(() => expect(screen.getByRole('tab', { name: 'Beta' })).toHaveFocus());
    await user.keyboard('{End}');
    await vi.waitFor(() => expect(screen.getByRole('tab', { name: 'Gamma' })).toHaveFocus());
    await user.keyboard('{Home}');
    await vi.waitFor(() => expect(screen.getByRole('tab', { name: 'Alpha' })).toHaveFocus());
    await user.keyboard('{ArrowRight}{Delete}');
    expect(onClose).toHaveBeenCalledWith('b');
    expect(screen.queryByRole('tab', { name: 'Beta' })).toBeNull();
    await vi.waitFor(() => expect(screen.getByRole('tab', { name: 'Gamma' })).toHaveFocus());
    expect(screen.getByRole('tab', { name: 'Gamma' })).toHaveAttribute('aria-selected', 'true');

    await user.click(screen.getByRole('button', { name: 'Close Alpha' }));
    expect(onClose).toHaveBeenLastCalledWith('a');
    // One tab left: it cannot be closed, by × or Delete.
    expect(screen.queryByRole('button', { name: /^Close / })).toBeNull();
    screen.getByRole('tab', { name: 'Gamma' }).focus();
    await user.keyboard('{Delete}');
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});
