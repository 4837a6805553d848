// "Load more" under a listing whose server answers a page at a time. It is
// a real button (a click, Enter or Space loads the next page), and it also
// loads by itself when it scrolls near the viewport (IntersectionObserver),
// which makes the list scroll on endlessly without a scroll handler. The
// observer is made again after each page, so a page too short to push the
// button out of view loads the next one too.

import { useEffect, useRef } from 'react';
import { Button } from '@aws-amplify/ui-react';

/** How far below the viewport the button starts the next page. */
export const LOAD_AHEAD = '600px';

interface LoadMoreProps {
  /** Loads the next page (ignored while one loads). */
  onLoadMore: () => void;
  loading: boolean;
  /** The button's text ('Load more prompts'). */
  label: string;
  /** How many pages are read: a new page makes the observer look again. */
  pages: number;
  /** The next page failed: its message, and the button reads "Try again". */
  error?: string | null;
}

export function LoadMore({ onLoadMore, loading, label, pages, error = null }: LoadMoreProps) {
  const button = useRef<HTMLButtonElement>(null);
  const load = useRef(onLoadMore);
  load.current = onLoadMore;
  useEffect(() => {
    const el = button.current;
    // After a failure only a click asks again.
    if (!el || error || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) load.current();
      },
      { rootMargin: `0px 0px ${LOAD_AHEAD} 0px` },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [pages, error]);
  return (
    <div className="listing-more" data-testid="load-more">
      {error ? (
        <p className="listing-more__error" role="alert">
          {error}
        </p>
      ) : null}
      <Button ref={button} onClick={onLoadMore} isLoading={loading} loadingText="Loading more…" isFullWidth={false}>
        {error ? 'Try again' : label}
      </Button>
    </div>
  );
}
