import { Badge, Button, TableCell, TableRow } from '@aws-amplify/ui-react';
import { formatUsd } from '../../../lib/format';
import type { AdminCreator } from '../api/types';
import { formatCount, formatUtc } from '../format';
import { payoutsLabel } from './payouts-status';

export const CREATOR_COLUMNS = ['Creator', 'Country', 'Payouts', 'Prompts', 'Sales', 'Net', 'Suspended', 'Created', 'Actions'] as const;

/** '2 published, 1 in review, 0 drafts, 0 rejected'. */
export function promptCounts(p: AdminCreator['prompts']): string {
  return `${formatCount(p.published)} published, ${formatCount(p.in_review)} in review, ${formatCount(p.draft)} ${p.draft === 1 ? 'draft' : 'drafts'}, ${formatCount(p.rejected)} rejected`;
}

interface CreatorRowProps {
  creator: AdminCreator;
  busy: boolean;
  onSuspend: (creator: AdminCreator, suspend: boolean) => void;
}

export function CreatorRow({ creator: c, busy, onSuspend }: CreatorRowProps) {
  const who = c.display_name || c.username || c.id;
  const label = c.suspended ? 'Unsuspend' : 'Suspend';
  return (
    <TableRow data-testid="creator-row" data-creator-id={c.id}>
      <TableCell className="admin-table__main">
        {who}
        {c.username ? <span className="admin-muted admin-table__sub">@{c.username}</span> : null}
      </TableCell>
      <TableCell>{c.country || '—'}</TableCell>
      <TableCell>{payoutsLabel(c.payouts_status)}</TableCell>
      <TableCell>{promptCounts(c.prompts)}</TableCell>
      <TableCell className="admin-table__number">{c.sales === null ? '—' : formatCount(c.sales)}</TableCell>
      <TableCell className="admin-table__number">{c.net === null ? '—' : formatUsd(c.net)}</TableCell>
      <TableCell>
        {c.suspended ? (
          <Badge size="small" variation="error">
            Suspended
          </Badge>
        ) : (
          'No'
        )}
      </TableCell>
      <TableCell>{formatUtc(c.created_at)}</TableCell>
      <TableCell>
        <div className="admin-row-actions">
          <Button size="small" colorTheme={c.suspended ? undefined : 'error'} isDisabled={busy} aria-label={`${label}: ${who}`} onClick={() => onSuspend(c, !c.suspended)}>
            {label}
          </Button>
        </div>
      </TableCell>
    </TableRow>
  );
}
