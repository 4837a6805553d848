// One order: its ids, amounts and times, the payment events received for
// it, and Refund for a paid one (behind RefundDialog's confirmation).

import { useId, useState } from 'react';
import { Alert, Button, Loader } from '@aws-amplify/ui-react';
import { DetailModal } from '../../../components/detail-modal';
import { errorMessage } from '../../../lib/api-client';
import { formatUsd } from '../../../lib/format';
import type { AdminOrder, AdminOrderDetail } from '../api/types';
import { useAdminOrder } from '../api/use-admin-lists';
import { formatUtc } from '../format';
import { OrderStatusBadge } from './order-status';
import { RefundDialog } from './refund-dialog';

interface OrderDialogProps {
  /** The order as the list has it, shown until its details arrive. */
  order: AdminOrder;
  onClose: () => void;
  /** The order changed (refunded, or found changed): read the list again. */
  onRefunded: () => void;
}

export function OrderDialog({ order: listed, onClose, onRefunded }: OrderDialogProps) {
  const titleId = useId();
  const detail = useAdminOrder(listed.id);
  const [refunding, setRefunding] = useState(false);
  const order: AdminOrder = detail.data ?? listed;

  const refunded = (answer: AdminOrder | null) => {
    setRefunding(false);
    // Show the answer at once, then read the order (and its new event) again.
    if (answer) void detail.mutate((d: AdminOrderDetail | undefined) => ({ ...answer, events: d?.events ?? [] }), { revalidate: true });
    else void detail.mutate();
    onRefunded();
  };

  const facts: [string, string][] = [
    ['Order', order.id],
    ['Buyer', order.user_email ? `${order.user_email} (${order.user_id})` : order.user_id],
    ['Prompt', order.prompt_title ? `${order.prompt_title} (${order.prompt_id})` : order.prompt_id],
    ['Amount', formatUsd(order.amount)],
    // A creator's sale: who sold it and how the amount was split.
    ...(order.creator ? [['Creator', `${order.creator.display_name || order.creator.username} (${order.creator.username})`] as [string, string]] : []),
    ...(order.fee !== null ? [['Platform fee', formatUsd(order.fee)] as [string, string]] : []),
    ...(order.net !== null ? [["Creator's share", formatUsd(order.net)] as [string, string]] : []),
    ['Created', formatUtc(order.created_at)],
    ['Paid', order.paid_at ? formatUtc(order.paid_at) : '—'],
    ['Refunded', order.refunded_at ? formatUtc(order.refunded_at) : '—'],
    ['Payment intent', order.payment_intent || '—'],
    ['Refund reason', order.refund_reason || '—'],
  ];

  return (
    <DetailModal
      titleId={titleId}
      title={`Order ${order.id}`}
      meta={<OrderStatusBadge status={order.status} />}
      onClose={onClose}
      className="admin-order"
      testId="order-dialog"
      footer={
        <>
          <Button onClick={onClose}>Close</Button>
          {order.status === 'paid' ? (
            <Button variation="primary" colorTheme="error" onClick={() => setRefunding(true)}>
              Refund…
            </Button>
          ) : null}
        </>
      }
    >
      {/* Focusable: on a phone the details scroll, and keyboard users scroll them too. */}
      <div className="detail-modal__body" tabIndex={0} role="region" aria-label="Order details">
        <dl className="admin-facts" data-testid="order-facts">
          {facts.map(([label, value]) => (
            <div key={label} className="admin-facts__row">
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        <section className="detail-modal__section" aria-label="Payment events">
          <h3 className="detail-modal__section-title">Payment events</h3>
          {detail.error !== undefined ? (
            <Alert variation="error">
              <span>{errorMessage(detail.error, 'The events could not be loaded.')}</span>{' '}
              <Button size="small" onClick={() => void detail.mutate()}>
                Retry
              </Button>
            </Alert>
          ) : detail.data === undefined ? (
            <div role="status" className="admin-list__loading">
              <Loader aria-hidden="true" /> Loading events…
            </div>
          ) : detail.data.events.length === 0 ? (
            <p className="admin-muted">No payment event received for this order.</p>
          ) : (
            <ol className="admin-events" data-testid="order-events">
              {detail.data.events.map((e) => (
                <li key={e.id}>
                  <strong>{e.type}</strong> <span className="admin-muted">{formatUtc(e.received_at)}</span>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
      {refunding ? (
        <RefundDialog
          order={order}
          onClose={() => setRefunding(false)}
          onRefunded={refunded}
          onStale={() => {
            void detail.mutate();
            onRefunded();
          }}
        />
      ) : null}
    </DetailModal>
  );
}
