import { Badge, type BadgeVariations } from '@aws-amplify/ui-react';
import type { OrderStatus } from '../api/types';

export const ORDER_STATES: readonly { value: OrderStatus; label: string; variation?: BadgeVariations }[] = [
  { value: 'pending', label: 'Pending', variation: 'warning' },
  { value: 'paid', label: 'Paid', variation: 'success' },
  { value: 'refunded', label: 'Refunded', variation: 'info' },
  { value: 'expired', label: 'Expired' },
  { value: 'failed', label: 'Failed', variation: 'error' },
];

/** The state in words (colour only repeats it). */
export function OrderStatusBadge({ status }: { status: string }) {
  const known = ORDER_STATES.find((s) => s.value === status);
  return (
    <Badge size="small" variation={known?.variation} data-testid="order-status">
      {known?.label ?? status}
    </Badge>
  );
}
