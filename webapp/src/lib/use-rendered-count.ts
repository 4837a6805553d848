// A long list rendered in steps: the first `first` items at once, then `step`
// more per idle moment until all are there. Rendering every card of a
// listing in one go was one long task between the data's arrival and the
// first card's paint (Lighthouse's TBT and LCP); a step of six
// cards stays well under the 50 ms a task may take on a slow phone.

import { useEffect, useState } from 'react';

/** The first cards: SPEC's six skeletons are replaced one for one. */
export const FIRST_RENDERED = 6;
export const RENDER_STEP = 6;

/** Runs fn when the browser is idle (a macrotask where requestIdleCallback is missing); returns a cancel. */
function whenIdle(fn: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    // The deadline keeps a busy page from holding the rest back for long.
    const id = window.requestIdleCallback(fn, { timeout: 200 });
    return () => window.cancelIdleCallback(id);
  }
  const id = setTimeout(fn, 0);
  return () => clearTimeout(id);
}

/**
 * How many of `total` items to render now. Grows step by step and never
 * shrinks, so a list that changes later (a filter) renders at once up to
 * what was already reached.
 */
export function useRenderedCount(total: number, first: number = FIRST_RENDERED, step: number = RENDER_STEP): number {
  const [limit, setLimit] = useState(first);
  const done = limit >= total;
  useEffect(() => {
    if (done) return undefined;
    return whenIdle(() => setLimit((l) => l + step));
  }, [done, limit, step]);
  return Math.min(total, limit);
}
