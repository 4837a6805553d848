import { useState } from 'react';
import { Button, SelectField, TableCell, TableRow, TextField } from '@aws-amplify/ui-react';
import { ListingFilters, SEARCH_DEBOUNCE_MS } from '../../../components/listing/listing';
import { formatUsd } from '../../../lib/format';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import type { AdminOrder, OrderStatus } from '../api/types';
import { useAdminOrders } from '../api/use-admin-lists';
import { ListTable } from '../components/list-table';
import { SectionHeader } from '../components/section-header';
import { formatUtc } from '../format';
import { OrderDialog } from './order-dialog';
import { ORDER_STATES, OrderStatusBadge } from './order-status';

const COLUMNS = ['Order', 'Created', 'Buyer', 'Prompt', 'Amount', 'Status', 'Details'] as const;

export function OrdersSection() {
  const [state, setState] = useState<OrderStatus | ''>('');
  const [userInput, setUserInput] = useState('');
  const [promptInput, setPromptInput] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const user = useDebouncedValue(userInput.trim(), SEARCH_DEBOUNCE_MS);
  const prompt = useDebouncedValue(promptInput.trim(), SEARCH_DEBOUNCE_MS);
  // The API refuses from after to; the dates apply only once they make a range.
  const datesBackwards = Boolean(from && to && from > to);
  const list = useAdminOrders({ state, user, prompt, from: datesBackwards ? '' : from, to: datesBackwards ? '' : to });
  const [open, setOpen] = useState<AdminOrder | null>(null);
  const filtered = Boolean(state || user || prompt || from || to);

  return (
    <section className="admin-section" aria-labelledby="admin-orders-heading">
      <SectionHeader id="admin-orders-heading" title="Orders" />

      <ListingFilters label="Filter orders">
        <TextField label="Buyer" placeholder="User id or email" value={userInput} onChange={(e) => setUserInput(e.target.value)} autoComplete="off" />
        <SelectField label="State" value={state} onChange={(e) => setState(e.target.value as OrderStatus | '')}>
          <option value="">All states</option>
          {ORDER_STATES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </SelectField>
        <TextField label="Prompt" placeholder="Prompt id" value={promptInput} onChange={(e) => setPromptInput(e.target.value)} autoComplete="off" />
        <TextField label="From (UTC)" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        <TextField
          label="To (UTC)"
          type="date"
          value={to}
          onChange={(e) => setTo(e.target.value)}
          hasError={datesBackwards}
          errorMessage={datesBackwards ? 'The last day is before the first: the dates are not applied.' : undefined}
        />
      </ListingFilters>

      <ListTable
        list={list}
        caption="Orders"
        noun="orders"
        columns={COLUMNS}
        emptyText={filtered ? 'No order matches these filters.' : 'No orders yet.'}
        testId="orders-table"
        renderRow={(o) => (
          <TableRow key={o.id} data-testid="order-row" data-order-id={o.id}>
            <TableCell className="admin-table__mono">{o.id}</TableCell>
            <TableCell>{formatUtc(o.created_at)}</TableCell>
            <TableCell>{o.user_email || o.user_id}</TableCell>
            <TableCell>{o.prompt_title || o.prompt_id}</TableCell>
            <TableCell className="admin-table__number">{formatUsd(o.amount)}</TableCell>
            <TableCell>
              <OrderStatusBadge status={o.status} />
            </TableCell>
            <TableCell>
              <Button size="small" onClick={() => setOpen(o)} aria-label={`Open order ${o.id}`}>
                Open
              </Button>
            </TableCell>
          </TableRow>
        )}
      />

      {open ? <OrderDialog order={open} onClose={() => setOpen(null)} onRefunded={() => void list.refresh()} /> : null}
    </section>
  );
}
