import { useEffect, useState } from 'react';
import { Text } from '@aws-amplify/ui-react';
import type { Activity, ActivityType } from '../../../lib/api/types';
import { formatRelativeTime } from '../../../lib/relative-time';
import { formatUsd } from '../../../lib/format';

export const EMPTY_ACTIVITY_TEXT = 'Your recent activity will appear here as you use the platform';

const ICONS: Record<ActivityType, string> = {
  account_created: '🎉',
  free_prompt_used: '🎁',
  purchase: '🛒',
  login: '🔑',
  other: '•',
};

/** Re-render relative times every minute. */
function useNow(intervalMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(t);
  }, [intervalMs]);
  return now;
}

export function ActivityList({ activities }: { activities: readonly Activity[] }) {
  const now = useNow();
  if (activities.length === 0) {
    return <Text className="activity-empty">{EMPTY_ACTIVITY_TEXT}</Text>;
  }
  return (
    <ul className="activity-list">
      {activities.map((a) => {
        const when = formatRelativeTime(a.created_at, now);
        return (
          <li key={a.id} className="activity-item">
            <span className="activity-item__icon" aria-hidden="true">
              {ICONS[a.type] ?? ICONS.other}
            </span>
            <div className="activity-item__body">
              <span className="activity-item__title">{a.title}</span>
              {a.description ? <span className="activity-item__description">{a.description}</span> : null}
            </div>
            <div className="activity-item__meta">
              {typeof a.amount === 'number' && Number.isFinite(a.amount) ? (
                <span className="activity-item__amount">{formatUsd(a.amount)}</span>
              ) : null}
              {when ? (
                <time dateTime={a.created_at} className="activity-item__time">
                  {when}
                </time>
              ) : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
