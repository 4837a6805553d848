// The confirmation before a refund, with an optional reason. "Refund" is
// disabled while the request runs, and a second click in the same instant
// is dropped (useAdminWrite), so a double click sends one request. (The
// API makes a repeat harmless too: the order's id is the refund's
// idempotency key.)

import { useState } from 'react';
import { TextAreaField } from '@aws-amplify/ui-react';
import { toast } from '../../../components/notifications/notification-store';
import { errorMessage } from '../../../lib/api-client';
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
}

export function RefundDialog({ order, onClose, onRefunded }: RefundDialogProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { run, pending } = useAdminWrite();

  const confirm = async () => {
    setError(null);
    const outcome = await run(() => refundOrder(order.id, reason));
    if (!outcome) return;
    if (outcome.ok) {
      toast.success(`Refunded ${formatUsd(order.amount)} to ${order.user_email || 'the buyer'}.`);
      onRefunded(outcome.value);
    } else if (!isAccessDenied(outcome.error)) {
      // e.g. 409: only a paid order can be refunded.
      setError(errorMessage(outcome.error, 'The refund failed. Please try again.'));
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
      fields={<TextAreaField label="Reason (optional)" rows={2} value={reason} onChange={(e) => setReason(e.target.value)} isReadOnly={pending} />}
    >
      <p>
        {order.user_email || 'The buyer'} gets {formatUsd(order.amount)} back through the payments provider and no longer owns “{order.prompt_title || order.prompt_id}”. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
