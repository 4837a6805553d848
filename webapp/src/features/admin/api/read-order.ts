import { isRecord, list, num, str } from '../../../lib/api/wire';
import { idOf } from './read-page';
import type { AdminOrder, AdminOrderDetail, OrderCreator, OrderEvent } from './types';

function readOrderCreator(v: unknown): OrderCreator | null {
  if (!isRecord(v) || !str(v.username)) return null;
  return { username: str(v.username), display_name: str(v.display_name) };
}

/** An amount the answer may leave out (a creator's sale only). */
export function amountOrNull(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function readOrder(v: unknown): AdminOrder | null {
  const id = idOf(v);
  if (id === null || !isRecord(v)) return null;
  return {
    id,
    user_id: str(v.user_id),
    user_email: str(v.user_email),
    prompt_id: str(v.prompt_id),
    prompt_title: str(v.prompt_title),
    amount: num(v.amount),
    status: str(v.status),
    created_at: str(v.created_at),
    paid_at: str(v.paid_at),
    refunded_at: str(v.refunded_at),
    payment_intent: str(v.payment_intent),
    refund_reason: str(v.refund_reason),
    creator: readOrderCreator(v.creator),
    fee: amountOrNull(v.fee),
    net: amountOrNull(v.net),
  };
}

function readEvent(v: unknown): OrderEvent | null {
  const id = idOf(v);
  if (id === null || !isRecord(v)) return null;
  return { id, type: str(v.type), received_at: str(v.received_at) };
}

export function readOrderDetail(v: unknown): AdminOrderDetail | null {
  const order = readOrder(v);
  if (!order || !isRecord(v)) return null;
  return { ...order, events: list(v.events).map(readEvent).filter((e): e is OrderEvent => e !== null) };
}
