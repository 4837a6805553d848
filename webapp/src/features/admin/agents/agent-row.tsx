import { Badge, Button, TableCell, TableRow } from '@aws-amplify/ui-react';
import { formatUsd } from '../../../lib/format';
import { llmProviderLabel } from '../../../lib/llm-providers';
import type { AdminAgent } from '../api/types';
import { formatUtc } from '../format';

export const AGENT_COLUMNS = ['Agent', 'Creator', 'Model', 'Price', 'State', 'On the marketplace', 'Created', 'Actions'] as const;

const STATES: Record<string, string> = { draft: 'Draft', in_review: 'In review', published: 'Published', rejected: 'Rejected' };

/** 'Published', 'Published (withdrawn)', 'Draft'… */
export function agentStateLabel(a: Pick<AdminAgent, 'state' | 'withdrawn'>): string {
  const word = STATES[a.state] ?? a.state;
  return a.withdrawn ? `${word} (withdrawn)` : word;
}

/** Why it is or is not on the marketplace. */
export function onSaleLabel(a: Pick<AdminAgent, 'on_sale' | 'suspended' | 'creator_suspended' | 'withdrawn' | 'state'>): string {
  if (a.on_sale) return 'Yes';
  if (a.suspended) return 'No: suspended';
  if (a.creator_suspended) return 'No: creator suspended';
  if (a.withdrawn) return 'No: withdrawn';
  return 'No: not published';
}

interface AgentRowProps {
  agent: AdminAgent;
  busy: boolean;
  onSuspend: (agent: AdminAgent, suspend: boolean) => void;
}

export function AgentRow({ agent: a, busy, onSuspend }: AgentRowProps) {
  const creator = a.creator.display_name || a.creator.username || a.creator.user_id;
  const label = a.suspended ? 'Unsuspend' : 'Suspend';
  return (
    <TableRow data-testid="agent-row" data-agent-id={a.id}>
      <TableCell className="admin-table__main">
        {a.name}
        <span className="admin-muted admin-table__sub admin-table__mono">{a.id}</span>
      </TableCell>
      <TableCell>
        {creator}
        {a.creator.username ? <span className="admin-muted admin-table__sub">@{a.creator.username}</span> : null}
      </TableCell>
      <TableCell>
        {llmProviderLabel(a.provider)} {a.model}
      </TableCell>
      <TableCell className="admin-table__number">{a.price > 0 ? formatUsd(a.price) : 'Free'}</TableCell>
      <TableCell>{agentStateLabel(a)}</TableCell>
      <TableCell>
        {a.suspended ? (
          <Badge size="small" variation="error">
            {onSaleLabel(a)}
          </Badge>
        ) : (
          onSaleLabel(a)
        )}
      </TableCell>
      <TableCell>{formatUtc(a.created_at)}</TableCell>
      <TableCell>
        <div className="admin-row-actions">
          <Button size="small" colorTheme={a.suspended ? undefined : 'error'} isDisabled={busy} aria-label={`${label}: ${a.name}`} onClick={() => onSuspend(a, !a.suspended)}>
            {label}
          </Button>
        </div>
      </TableCell>
    </TableRow>
  );
}
