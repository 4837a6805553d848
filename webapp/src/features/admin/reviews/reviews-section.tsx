// The review queue (docs/admin.md, Creators and reviews): creators' prompts
// or agents (the "Review kind" switch, kept in the address as ?kind=agent)
// submitted for review, oldest first. Approve publishes one at once;
// Reject asks for the reason the creator reads. A refusal (409, e.g. the
// creator cannot be paid yet) shows on the item; the queue is read again
// after every decision, so one decided by another admin leaves it.

import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Button, Loader, Radio, RadioGroupField, TextAreaField } from '@aws-amplify/ui-react';
import { toast } from '../../../components/notifications/notification-store';
import { errorMessage } from '../../../lib/api-client';
import { decideReview } from '../api/requests';
import type { AdminReview, ReviewKind } from '../api/types';
import { useReviewQueue } from '../api/use-admin-lists';
import { isAccessDenied } from '../components/admin-access';
import { ConfirmDialog } from '../components/confirm-dialog';
import { SectionHeader } from '../components/section-header';
import { useAdminWrite } from '../components/use-admin-write';
import { ReviewItem } from './review-item';

export const EMPTY_QUEUE = 'No prompts are waiting for review.';
export const EMPTY_AGENT_QUEUE = 'No agents are waiting for review.';
export const REASON_MAX = 2000;

const NOUN: Record<ReviewKind, { one: string; many: string }> = { prompt: { one: 'prompt', many: 'prompts' }, agent: { one: 'agent', many: 'agents' } };

/** The kind the address names (?kind=agent); prompts otherwise. */
export function reviewKindOf(value: string | null): ReviewKind {
  return value === 'agent' ? 'agent' : 'prompt';
}

/** Why the reason cannot be sent, or null. */
export function checkRejectReason(reason: string): string | null {
  const t = reason.trim();
  if (!t) return 'Give a reason: the creator reads it.';
  if (new TextEncoder().encode(t).length > REASON_MAX) return `The reason must be at most ${REASON_MAX} bytes.`;
  return null;
}

export function ReviewsSection() {
  const [params, setParams] = useSearchParams();
  const kind = reviewKindOf(params.get('kind'));
  const noun = NOUN[kind];
  const queue = useReviewQueue(kind);
  const { run, pending } = useAdminWrite();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [rejecting, setRejecting] = useState<AdminReview | null>(null);
  const [reason, setReason] = useState('');
  const [reasonShown, setReasonShown] = useState(false);
  const [rejectError, setRejectError] = useState<string | null>(null);

  const setError = (id: string, message: string | null) =>
    setErrors((all) => {
      const next = { ...all };
      if (message === null) delete next[id];
      else next[id] = message;
      return next;
    });

  const approve = async (r: AdminReview) => {
    setError(r.id, null);
    const outcome = await run(() => decideReview(r.id, 'approve', ''));
    if (!outcome) return;
    if (outcome.ok) toast.success(`Approved “${r.title}”: it is on the marketplace now.`);
    else if (!isAccessDenied(outcome.error)) setError(r.id, errorMessage(outcome.error, 'The approval failed. Please try again.'));
    void queue.refresh();
  };

  const startReject = (r: AdminReview) => {
    setReason('');
    setReasonShown(false);
    setRejectError(null);
    setRejecting(r);
  };

  const reject = async (r: AdminReview) => {
    setReasonShown(true);
    setRejectError(null);
    if (checkRejectReason(reason)) return;
    const outcome = await run(() => decideReview(r.id, 'reject', reason));
    if (!outcome) return;
    if (outcome.ok) {
      toast.success(`Rejected “${r.title}”: the creator reads your reason.`);
      setError(r.id, null);
      setRejecting(null);
    } else if (!isAccessDenied(outcome.error)) {
      setRejectError(errorMessage(outcome.error, 'The rejection failed. Please try again.'));
    }
    void queue.refresh();
  };

  const reasonProblem = reasonShown ? checkRejectReason(reason) : null;

  return (
    <section className="admin-section" aria-labelledby="admin-reviews-heading">
      <SectionHeader id="admin-reviews-heading" title="Reviews" />
      <RadioGroupField
        legend="Review kind"
        name="review-kind"
        direction="row"
        value={kind}
        onChange={(e) => {
          setErrors({});
          setRejecting(null);
          setParams(e.target.value === 'agent' ? { kind: 'agent' } : {}, { replace: true });
        }}
        className="admin-review-kind"
      >
        <Radio value="prompt">Prompts</Radio>
        <Radio value="agent">Agents</Radio>
      </RadioGroupField>
      {queue.error !== undefined && queue.items.length === 0 ? (
        <Alert variation="error" heading="Could not load the review queue." className="admin-list__error" data-testid="reviews-error">
          <span>{errorMessage(queue.error, 'Please check your connection and try again.')}</span>{' '}
          <Button size="small" onClick={() => void queue.refresh()}>
            Retry
          </Button>
        </Alert>
      ) : queue.loading ? (
        <div className="admin-list__loading" role="status">
          <Loader aria-hidden="true" /> Loading the review queue…
        </div>
      ) : queue.items.length === 0 ? (
        <p className="admin-list__empty" data-testid="empty-state">
          {kind === 'agent' ? EMPTY_AGENT_QUEUE : EMPTY_QUEUE}
        </p>
      ) : (
        <div className="admin-reviews" aria-busy={queue.busy} data-testid="reviews-list">
          <p className="admin-list__count" aria-live="polite">
            {queue.items.length === 1 ? `1 ${noun.one} is waiting for review.` : `${queue.items.length} ${noun.many} are waiting for review.`}
          </p>
          {queue.items.map((r) => (
            <ReviewItem key={r.id} review={r} busy={pending} error={errors[r.id] ?? null} onApprove={(x) => void approve(x)} onReject={startReject} />
          ))}
        </div>
      )}

      {rejecting ? (
        <ConfirmDialog
          title={`Reject “${rejecting.title}”?`}
          confirmLabel="Reject"
          pendingLabel="Rejecting…"
          pending={pending}
          error={rejectError}
          onConfirm={() => void reject(rejecting)}
          onCancel={() => setRejecting(null)}
          testId="reject-dialog"
          fields={
            <TextAreaField
              label="Reason"
              rows={4}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              isRequired
              isReadOnly={pending}
              hasError={reasonProblem !== null}
              errorMessage={reasonProblem ?? undefined}
              descriptiveText={`Required. The creator reads it and can edit the ${noun.one} and submit it again.`}
            />
          }
        >
          <p>
            The {noun.one} stays off the marketplace, and {rejecting.creator.display_name || 'its creator'} reads your reason.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
