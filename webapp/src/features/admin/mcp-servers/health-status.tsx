import type { McpHealth } from '../api/types';
import { formatUtc } from '../format';

const LABELS: Record<string, { label: string; tone: string }> = {
  up: { label: 'Up', tone: 'good' },
  auth_required: { label: 'Needs sign-in', tone: 'warn' },
  down: { label: 'Down', tone: 'bad' },
  unknown: { label: 'Unknown', tone: 'none' },
  '': { label: 'Not checked yet', tone: 'none' },
};

export function healthLabel(status: string): string {
  return LABELS[status]?.label ?? status;
}

/** '12 ms · 13 tools'. */
export function healthFacts(h: Pick<McpHealth, 'latency_ms' | 'tools_count'>): string {
  return `${h.latency_ms} ms · ${h.tools_count === 1 ? '1 tool' : `${h.tools_count} tools`}`;
}

/** The health as text (the dot only repeats it in colour), when it was checked, and the error. */
export function HealthStatus({ health }: { health: McpHealth }) {
  const known = LABELS[health.status] ?? { label: health.status, tone: 'none' };
  return (
    <div className="admin-health" data-testid="server-health" data-status={health.status}>
      <span className={`admin-health__status admin-health__status--${known.tone}`}>
        <span className="admin-health__dot" aria-hidden="true" />
        {known.label}
      </span>
      {health.checked_at ? (
        <span className="admin-muted admin-health__facts">
          {formatUtc(health.checked_at)} · {healthFacts(health)}
        </span>
      ) : null}
      {health.error ? <span className="admin-health__error">{health.error}</span> : null}
    </div>
  );
}
