import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { SWRConfig } from 'swr';
import { beforeEach, describe, expect, it } from 'vitest';
import { getNotifications } from '../../components/notifications/notification-store';
import { setUpPageTests } from '../../test/page-tests';
import { startSignedOut } from '../../test/session';
import { usePromptActions } from './use-prompt-actions';

const wrapper = ({ children }: { children: ReactNode }) => (
  <SWRConfig value={{ provider: () => new Map() }}>
    <MemoryRouter>{children}</MemoryRouter>
  </SWRConfig>
);
const PROMPT = { id: 'p1', title: 'T', description: '', price: 1 };

const api = setUpPageTests();
beforeEach(() => {
  startSignedOut();
});

describe('usePromptActions signed out', () => {
  it.each([
    ['claimFree', 'Please log in to use prompts'],
    ['purchase', 'Please log in to purchase prompts'],
  ] as const)('%s asks to log in without calling the server', async (action, message) => {
    const { result } = renderHook(() => usePromptActions(), { wrapper });
    await act(async () => {
      await result.current[action](PROMPT);
    });
    expect(getNotifications().map((n) => [n.kind, n.message])).toEqual([['error', message]]);
    expect(api.calls).toHaveLength(0);
  });

  it('rate asks to log in', async () => {
    const { result } = renderHook(() => usePromptActions(), { wrapper });
    await act(async () => {
      await result.current.rate(PROMPT, 5, { purchased: true });
    });
    expect(getNotifications().map((n) => n.message)).toEqual(['Please log in to rate prompts']);
    expect(api.calls).toHaveLength(0);
  });

  it('copy toasts last 2 s', async () => {
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    const { result } = renderHook(() => usePromptActions(), { wrapper });
    await act(async () => {
      await result.current.copy('x');
    });
    expect(getNotifications().map((n) => [n.message, n.duration])).toEqual([['Failed to copy to clipboard', 2000]]);
  });

  it('Use in Chat without content does not navigate or write the hand-off', async () => {
    const { result } = renderHook(() => usePromptActions(), { wrapper });
    act(() => result.current.openInChat(PROMPT));
    expect(sessionStorage.getItem('chat-prefill')).toBeNull();
    expect(getNotifications()).toHaveLength(1);
  });
});
