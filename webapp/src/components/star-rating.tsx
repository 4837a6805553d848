import { useState } from 'react';
import { MAX_RATING } from '../lib/rating';
import './star-rating.css';

interface StarRatingProps {
  /** What is rated (a prompt's title, an agent's name), for the group's accessible name. */
  title: string;
  average: number;
  count: number;
  userRating: number | null;
  /** Why a click cannot rate (signed out, not purchased); null when it can. */
  blockedReason: string | null;
  busy?: boolean;
  onRate: (rating: number) => void;
}

const STARS = Array.from({ length: MAX_RATING }, (_, i) => i + 1);

/**
 * Five labelled star buttons (Tab to reach, Enter/Space to rate), with the
 * average and count beside them. Stars of an item the user cannot rate are
 * aria-disabled but still answer a click with the reason (SPEC §5).
 */
export function StarRating({ title, average, count, userRating, blockedReason, busy = false, onRate }: StarRatingProps) {
  const [hover, setHover] = useState<number | null>(null);
  const canRate = blockedReason === null;
  const avg = Number.isFinite(average) ? average : 0;
  const shown = hover ?? userRating ?? Math.round(avg);
  const summary = count > 0 ? `${avg.toFixed(1)} (${count})` : 'No ratings yet';
  const summaryLabel =
    count > 0 ? `Average rating ${avg.toFixed(1)} out of 5 from ${count} rating${count === 1 ? '' : 's'}` : 'No ratings yet';

  return (
    <div className={`star-rating${canRate ? ' star-rating--enabled' : ''}`}>
      <div role="group" aria-label={`Rate ${title}`} className="star-rating__stars" onMouseLeave={() => setHover(null)}>
        {STARS.map((n) => (
          <button
            key={n}
            type="button"
            className={`star-rating__star${n <= shown ? ' star-rating__star--on' : ''}`}
            aria-label={`Rate ${n} star${n === 1 ? '' : 's'}`}
            aria-pressed={userRating === n}
            aria-disabled={!canRate || busy}
            title={blockedReason ?? `Rate ${n} out of 5`}
            onMouseEnter={canRate && !busy ? () => setHover(n) : undefined}
            onClick={() => {
              if (busy) return;
              onRate(n);
            }}
          >
            <span aria-hidden="true">★</span>
          </button>
        ))}
      </div>
      <span className="star-rating__summary" aria-label={summaryLabel}>
        {summary}
      </span>
    </div>
  );
}
