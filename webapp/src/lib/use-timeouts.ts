import { useEffect, useMemo, useRef } from 'react';

export interface Timeouts {
  /** Runs fn after ms unless the component unmounts first. */
  set(fn: () => void, ms: number): void;
  /** Runs fn before the next paint unless the component unmounts first. */
  frame(fn: () => void): void;
}

/**
 * One-shot timers owned by a component: every one still pending when it
 * unmounts is cleared, so none fires into a page (or test) that is gone.
 */
export function useTimeouts(): Timeouts {
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  const frames = useRef(new Set<number>());

  useEffect(() => {
    const pendingTimers = timers.current;
    const pendingFrames = frames.current;
    return () => {
      for (const t of pendingTimers) clearTimeout(t);
      pendingTimers.clear();
      for (const f of pendingFrames) cancelAnimationFrame(f);
      pendingFrames.clear();
    };
  }, []);

  return useMemo(
    () => ({
      set(fn, ms) {
        const t = setTimeout(() => {
          timers.current.delete(t);
          fn();
        }, ms);
        timers.current.add(t);
      },
      frame(fn) {
        const f = requestAnimationFrame(() => {
          frames.current.delete(f);
          fn();
        });
        frames.current.add(f);
      },
    }),
    [],
  );
}
