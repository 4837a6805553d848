// The confirmation before a refund, with an optional reason (one line of at
// most 500 characters, as the API takes it). "Refund" is
// disabled while the request runs, and a second click in the same instant
// is dropped (useAdminWrite), so a double click sends one request. (The
// API makes a repeat harmless too: the order's id is the refund's
// idempotency key.)

import { useState } from 'react';
import { TextField } from '@aws-amplify/ui-react';
import { toast } from '../../../components/notifications/notification-store';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { formatUsd } from '../../../lib/format';
import { refundOrder } from '../api/requests';
import type { AdminOrder } from '../api/types';
import { isAccessDenied } from '../components/admin-access';
import { ConfirmDialog } from '../components/confirm-dialog';
import { useAdminWrite } from '../components/use-admin-write';

interface RefundDialogProps {
  order: AdminOrder;
  onClose: () => void;
  /** The refunded order as the API answered it (null when unreadable). */
  onRefunded: (order: AdminOrder | null) => void;
  /** A 409: the order is not as it was read (refunded meanwhile, not paid): read it again. */
  onStale: () => void;
}

export const REASON_MAX = 500;

/** Why the reason cannot be sent, or null. */
export function checkReason(reason: string): string | null {
  const t = reason.trim();
  if ([...t].length > REASON_MAX) return `The reason must be at most ${REASON_MAX} characters.`;
  if (/\p{Cc}/u.test(t)) return 'The reason must be one line.';
  return null;
}

export function RefundDialog({ order, onClose, onRefunded, onStale }: RefundDialogProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { run, pending } = useAdminWrite();
  const reasonProblem = checkReason(reason);

  const confirm = async () => {
    setError(null);
    if (reasonProblem) return;
    const outcome = await run(() => refundOrder(order.id, reason));
    if (!outcome) return;
    if (outcome.ok) {
      toast.success(`Refunded ${formatUsd(order.amount)} to ${order.user_email || 'the buyer'}.`);
      onRefunded(outcome.value);
    } else if (!isAccessDenied(outcome.error)) {
      // e.g. 409: only a paid order can be refunded (the details behind are read again).
      setError(errorMessage(outcome.error, 'The refund failed. Please try again.'));
      if (outcome.error instanceof ApiError && outcome.error.status === 409) onStale();
    }
  };

  return (
    <ConfirmDialog
      title={`Refund ${formatUsd(order.amount)}?`}
      confirmLabel="Refund"
      pendingLabel="Refunding…"
      pending={pending}
      error={error}
      onConfirm={() => void confirm()}
      onCancel={onClose}
      testId="refund-dialog"
      fields={
        <TextField
          label="Reason (optional)"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          isReadOnly={pending}
          hasError={reasonProblem !== null}
          errorMessage={reasonProblem ?? undefined}
          descriptiveText={`Kept with the order; at most ${REASON_MAX} characters.`}
          autoComplete="off"
        />
      }
    >
      <p>
        {order.user_email || 'The buyer'} gets {formatUsd(order.amount)} back through the payments provider and no longer owns “{order.prompt_title || order.prompt_id}”. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
