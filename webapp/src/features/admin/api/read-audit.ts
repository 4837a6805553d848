import { bool, isRecord, str } from '../../../lib/api/wire';
import { idOf } from './read-page';
import type { AuditEntry } from './types';

export function readAuditEntry(v: unknown): AuditEntry | null {
  const id = idOf(v);
  if (id === null || !isRecord(v)) return null;
  return {
    id,
    at: str(v.at),
    actor_id: str(v.actor_id),
    actor_email: str(v.actor_email),
    action: str(v.action),
    target_type: str(v.target_type),
    target_id: str(v.target_id),
    before: v.before ?? null,
    after: v.after ?? null,
    pending: bool(v.pending),
  };
}
