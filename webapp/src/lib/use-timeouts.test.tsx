import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTimeouts, type Timeouts } from './use-timeouts';

let api: Timeouts;
function Probe() {
  api = useTimeouts();
  return null;
}

describe('useTimeouts', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] }));
  afterEach(() => vi.useRealTimers());

  it('runs timers and frames while mounted', () => {
    const fn = vi.fn();
    render(<Probe />);
    act(() => {
      api.set(fn, 250);
      api.frame(fn);
    });
    act(() => vi.advanceTimersByTime(250));
    expect(fn).toHaveBeenCalledTimes(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('clears every pending timer and frame on unmount', () => {
    const fn = vi.fn();
    const { unmount } = render(<Probe />);
    act(() => {
      api.set(fn, 250);
      api.set(fn, 10_000);
      api.frame(fn);
    });
    expect(vi.getTimerCount()).toBe(3);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(20_000);
    expect(fn).not.toHaveBeenCalled();
  });
});
