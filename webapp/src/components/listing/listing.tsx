// The shell of a listing page (the marketplace, the MCP registry): the
// visitor notice, the filter bar, then the results: an error with Retry,
// skeleton cards while the first list loads, the "N … found" line, and the
// cards or the empty state. Each page brings its own cards and texts.

import { Children, Fragment, useId, type CSSProperties, type ReactNode } from 'react';
import { Alert, Button, VisuallyHidden } from '@aws-amplify/ui-react';
import { Link } from 'react-router';
import { useRenderedCount } from '../../lib/use-rendered-count';
import './listing.css';

/** The search box waits this long after the last key before it asks. */
export const SEARCH_DEBOUNCE_MS = 300;
/** SPEC §9: six skeleton cards while loading. */
export const SKELETON_COUNT = 6;

interface VisitorNoticeProps {
  testId: string;
  heading?: string;
  /** What a visitor gets now, before the links ('Browse freely.'). */
  lead: string;
  /** The page to come back to after login. */
  returnTo: string;
  /** What signing in allows, after the links ('to connect to a server.'). */
  purpose: string;
}

/** '{lead} Log in or sign up {purpose}' for visitors, with login coming back here. */
export function VisitorNotice({ testId, heading, lead, returnTo, purpose }: VisitorNoticeProps) {
  return (
    <Alert variation="info" className="page__notice" data-testid={testId} heading={heading}>
      {lead} <Link to={`/login?redirect=${encodeURIComponent(returnTo)}`}>Log in</Link> or <Link to="/register">sign up</Link> {purpose}
    </Alert>
  );
}

/**
 * The listing's filters and results under their own h2, read by screen
 * readers only: the cards' titles are h3s and need an h2 above them
 * (heading order).
 */
export function ListingCatalogue({ heading, children }: { heading: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="listing-catalogue" aria-labelledby={headingId}>
      <VisuallyHidden>
        <h2 id={headingId}>{heading}</h2>
      </VisuallyHidden>
      {children}
    </section>
  );
}

/** The filter bar: a search landmark; the first control (the search box) takes twice the width of the others. */
export function ListingFilters({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="listing-filters" role="search" aria-label={label}>
      {children}
    </div>
  );
}

export type SkeletonPart = 'line' | 'short' | 'title' | 'block';

const PART_CLASS: Record<SkeletonPart, string> = {
  line: 'skeleton-line',
  short: 'skeleton-line skeleton-line--short',
  title: 'skeleton-line skeleton-line--title',
  block: 'skeleton-block',
};

/** One loading placeholder in a card's shape: its parts top to bottom, hidden from assistive technology. */
export function CardSkeleton({ className, testId, parts }: { className: string; testId: string; parts: readonly SkeletonPart[] }) {
  return (
    <div className={className} data-testid={testId} aria-hidden="true">
      {parts.map((part, i) => (
        <span key={i} className={PART_CLASS[part]} />
      ))}
    </div>
  );
}

export interface EmptyStateProps {
  title: string;
  hint: string;
  /** The title's heading level: 2 directly under the page title, 3 inside a section. */
  headingLevel: 2 | 3;
  /** Offers 'Clear filters' when given (some filter is set). */
  onClearFilters?: () => void;
}

export function EmptyState({ title, hint, headingLevel, onClearFilters }: EmptyStateProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className="empty-state" data-testid="empty-state">
      <Heading className="empty-state__title">{title}</Heading>
      <p className="empty-state__hint">{hint}</p>
      {onClearFilters ? (
        <Button size="small" onClick={onClearFilters}>
          Clear filters
        </Button>
      ) : null}
    </div>
  );
}

interface ListingResultsProps {
  /** The list could not be read: the alert's heading and text; Retry asks again. */
  failure: { heading: string; message: string; testId?: string; onRetry: () => void } | null;
  /** Nothing to show yet: skeleton cards. */
  loading: boolean;
  /** Names the skeleton grid ('Loading prompts'). */
  loadingLabel: string;
  /** One skeleton card; shown SKELETON_COUNT times. */
  skeleton: ReactNode;
  /** The count line ('3 prompts found') and its test id. */
  countText: string;
  countTestId: string;
  /** No cards: the empty state. */
  empty: EmptyStateProps | null;
  /** The cards are an older query's, shown while the new one loads. */
  busy: boolean;
  /** The narrowest a card may get before the grid drops a column, in px. */
  cardMinWidth: number;
  /** The cards; a long list is rendered a few at a time (useRenderedCount). */
  children: ReactNode;
  /** Under the cards once all are rendered: the next page's control (LoadMore). */
  more?: ReactNode;
}

export function ListingResults({ failure, loading, loadingLabel, skeleton, countText, countTestId, empty, busy, cardMinWidth, children, more }: ListingResultsProps) {
  const gridStyle = { '--listing-card-min': `${cardMinWidth}px` } as CSSProperties;
  const cards = Children.toArray(children);
  const rendered = useRenderedCount(cards.length);
  if (failure) {
    return (
      <Alert variation="error" heading={failure.heading} className="listing-error" data-testid={failure.testId}>
        <span>{failure.message}</span>{' '}
        <Button size="small" onClick={failure.onRetry}>
          Retry
        </Button>
      </Alert>
    );
  }
  if (loading) {
    return (
      <div className="listing-grid" style={gridStyle} role="status" aria-label={loadingLabel}>
        {Array.from({ length: SKELETON_COUNT }, (_, i) => (
          <Fragment key={i}>{skeleton}</Fragment>
        ))}
      </div>
    );
  }
  return (
    <>
      <p className="listing-count" data-testid={countTestId} aria-live="polite">
        {countText}
      </p>
      {empty ? (
        <EmptyState {...empty} />
      ) : (
        <div className="listing-grid" style={gridStyle} aria-busy={busy}>
          {cards.slice(0, rendered)}
        </div>
      )}
      {/* Not before every card is there: the control would be in view, and load, too early. */}
      {rendered >= cards.length ? more : null}
    </>
  );
}
