// One prompt or agent in the review queue: what the creator submitted
// (title, description, price, category, the whole content in a scrolling
// frame: an agent's instructions), who they are and whether they can be
// paid, for an edit of a published one its note and the version live now,
// for an agent its provider and model, its servers with the tools allowed
// on each and its starter prompts, the decisions made on it before, and
// Approve / Reject. A refusal (a 409) shows here, in place.

import { useId } from 'react';
import { Alert, Badge, Button } from '@aws-amplify/ui-react';
import { formatUsd } from '../../../lib/format';
import { llmProviderLabel } from '../../../lib/llm-providers';
import type { AdminReview } from '../api/types';
import { payoutsLabel } from '../creators/payouts-status';
import { formatUtc } from '../format';

interface ReviewItemProps {
  review: AdminReview;
  /** A decision (on any review) is being sent: one at a time. */
  busy: boolean;
  /** Why the last decision on this one was refused. */
  error: string | null;
  onApprove: (review: AdminReview) => void;
  onReject: (review: AdminReview) => void;
}

export function ReviewItem({ review: r, busy, error, onApprove, onReject }: ReviewItemProps) {
  const titleId = useId();
  const isEdit = r.live_version > 0;
  const agent = r.agent;
  const creator = r.creator.display_name || r.creator.username || r.creator.user_id;
  const facts: [string, string][] = [
    ['Creator', r.creator.username ? `${creator} (@${r.creator.username})` : creator],
    ['Payouts', payoutsLabel(r.creator.payouts_status)],
    ...(agent ? ([['Model', `${llmProviderLabel(agent.provider)} ${agent.model}`]] as [string, string][]) : []),
    ['Price', agent && r.price === 0 ? 'Free' : formatUsd(r.price)],
    ['Category', r.category_name || r.category_id || '—'],
    ['Submitted', formatUtc(r.submitted_at)],
    ...(isEdit ? ([['Live version', String(r.live_version)], ['What changed', r.change_note || '—']] as [string, string][]) : []),
  ];
  return (
    <article className="admin-review" aria-labelledby={titleId} data-testid="review-item" data-review-id={r.id}>
      <header className="admin-review__header">
        <h3 id={titleId} className="admin-review__title">
          {r.title}
        </h3>
        <Badge size="small" variation={isEdit ? 'info' : undefined}>
          {isEdit ? `Edit of version ${r.live_version}` : agent ? 'New agent' : 'New prompt'}
        </Badge>
      </header>
      <dl className="admin-facts" data-testid="review-facts">
        {facts.map(([label, value]) => (
          <div key={label} className="admin-facts__row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {r.description ? <p className="admin-review__description">{r.description}</p> : null}
      {/* Focusable: the content scrolls inside its frame, for keyboard users too. */}
      <div
        className="admin-review__content"
        role="region"
        aria-label={`${agent ? 'Instructions' : 'Content'} of ${r.title}`}
        tabIndex={0}
        data-testid="review-content"
      >
        {r.content}
      </div>
      {agent ? (
        <>
          <section className="admin-review__agent" aria-label={`MCP servers of ${r.title}`} data-testid="review-servers">
            <h4 className="admin-review__subtitle">MCP servers and allowed tools</h4>
            {agent.servers.length === 0 ? (
              <p className="admin-muted">None: the agent uses no tools.</p>
            ) : (
              <ul className="admin-review__servers">
                {agent.servers.map((s) => (
                  <li key={s.server_id}>
                    <strong>{s.name}</strong>
                    {s.name !== s.server_id ? <span className="admin-muted"> ({s.server_id})</span> : null}:{' '}
                    {s.tools.length ? s.tools.join(', ') : <span className="admin-muted">no tools allowed</span>}
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section className="admin-review__agent" aria-label={`Starter prompts of ${r.title}`} data-testid="review-starters">
            <h4 className="admin-review__subtitle">Starter prompts</h4>
            {agent.starters.length === 0 ? (
              <p className="admin-muted">None.</p>
            ) : (
              <ol className="admin-review__starters">
                {agent.starters.map((s, i) => (
                  <li key={i}>{s}</li>
                ))}
              </ol>
            )}
          </section>
        </>
      ) : null}
      {r.decisions.length ? (
        <section className="admin-review__decisions" aria-label={`Earlier decisions on ${r.title}`}>
          <h4 className="admin-review__subtitle">Earlier decisions</h4>
          <ol className="admin-events" data-testid="review-decisions">
            {r.decisions.map((d, i) => (
              <li key={`${d.at}-${i}`}>
                <strong>{d.decision === 'approve' ? 'Approved' : d.decision === 'reject' ? 'Rejected' : d.decision}</strong>{' '}
                <span className="admin-muted">{formatUtc(d.at)}</span>
                {d.reason ? <span>: {d.reason}</span> : null}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      {error ? (
        <Alert variation="error" data-testid="review-error">
          {error}
        </Alert>
      ) : null}
      <div className="admin-row-actions">
        <Button size="small" variation="primary" isDisabled={busy} aria-describedby={titleId} onClick={() => onApprove(r)}>
          Approve
        </Button>
        <Button size="small" colorTheme="error" isDisabled={busy} aria-describedby={titleId} onClick={() => onReject(r)}>
          Reject
        </Button>
      </div>
    </article>
  );
}
