import { useId } from 'react';
import { Badge, Button, TableCell, TableRow } from '@aws-amplify/ui-react';
import type { AdminUser } from '../api/types';
import { formatCount, formatUtc, yesNo } from '../format';
import { actionsFor, isLocked, type UserActionSpec } from './user-actions';

export const USER_COLUMNS = ['Email', 'Username', 'Verified', 'Admin', 'Disabled', 'Locked', 'Created', 'Purchases', 'Connections', 'Tokens today', 'Actions'] as const;

interface UserRowProps {
  user: AdminUser;
  selfId: string;
  /** An action (on any row) is running: one at a time. */
  busy: boolean;
  onAction: (user: AdminUser, spec: UserActionSpec) => void;
}

export function UserRow({ user: u, selfId, busy, onAction }: UserRowProps) {
  const who = u.email || u.username || u.id;
  const hintId = useId();
  const specs = actionsFor(u, selfId);
  const reasons = specs.flatMap((s) => (s.blockedBy ? [s.blockedBy] : []));
  return (
    <TableRow data-testid="user-row" data-user-id={u.id}>
      <TableCell className="admin-table__main">
        {u.email}
        {u.id === selfId ? <span className="admin-muted"> (you)</span> : null}
        {u.full_name ? <span className="admin-muted admin-table__sub">{u.full_name}</span> : null}
      </TableCell>
      <TableCell>{u.username}</TableCell>
      <TableCell>{yesNo(u.is_verified)}</TableCell>
      <TableCell>
        {u.is_superuser ? (
          <Badge size="small" variation="info">
            Admin
          </Badge>
        ) : (
          'No'
        )}
      </TableCell>
      <TableCell>
        {u.disabled ? (
          <Badge size="small" variation="error">
            Disabled
          </Badge>
        ) : (
          'No'
        )}
      </TableCell>
      <TableCell>{isLocked(u) ? `Until ${formatUtc(u.locked_until)}` : 'No'}</TableCell>
      <TableCell>{formatUtc(u.created_at)}</TableCell>
      <TableCell className="admin-table__number">{formatCount(u.purchases)}</TableCell>
      <TableCell className="admin-table__number">{formatCount(u.connections)}</TableCell>
      <TableCell className="admin-table__number">{formatCount(u.chat_tokens_today)}</TableCell>
      <TableCell>
        <div className="admin-row-actions">
          {specs.map((spec) => (
            <Button
              key={spec.action}
              size="small"
              colorTheme={spec.confirm ? 'error' : undefined}
              onClick={() => onAction(u, spec)}
              isDisabled={busy || Boolean(spec.blockedBy)}
              aria-label={`${spec.label}: ${who}`}
              aria-describedby={spec.blockedBy ? hintId : undefined}
            >
              {spec.label}
            </Button>
          ))}
        </div>
        {reasons.length ? (
          <span id={hintId} className="admin-muted admin-row-actions__hint">
            {reasons.join(' ')}
          </span>
        ) : null}
      </TableCell>
    </TableRow>
  );
}
