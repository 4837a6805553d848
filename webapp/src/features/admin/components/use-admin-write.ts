import { useCallback, useRef, useState } from 'react';
import { isAccessDenied, useLoseAccess } from './admin-access';

export type WriteOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Runs one admin write at a time. `pending` is true while it runs (its
 * button shows as disabled); a call made while one runs is dropped at once
 * (null), before any re-render, so a double click sends one request. A 403
 * hands the page to the 403 page; other failures come back for the caller
 * to show.
 */
export function useAdminWrite() {
  const loseAccess = useLoseAccess();
  const running = useRef(false);
  const [pending, setPending] = useState(false);

  const run = useCallback(
    async <T>(request: () => Promise<T>): Promise<WriteOutcome<T> | null> => {
      if (running.current) return null;
      running.current = true;
      setPending(true);
      try {
        return { ok: true, value: await request() };
      } catch (error) {
        if (isAccessDenied(error)) loseAccess();
        return { ok: false, error };
      } finally {
        running.current = false;
        setPending(false);
      }
    },
    [loseAccess],
  );

  return { run, pending };
}
