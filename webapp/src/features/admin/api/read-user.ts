import { bool, isRecord, num, str } from '../../../lib/api/wire';
import { idOf } from './read-page';
import type { AdminUser } from './types';

export function readUser(v: unknown): AdminUser | null {
  const id = idOf(v);
  if (id === null || !isRecord(v)) return null;
  return {
    id,
    email: str(v.email),
    username: str(v.username),
    full_name: str(v.full_name),
    is_verified: bool(v.is_verified),
    is_superuser: bool(v.is_superuser),
    disabled: bool(v.disabled),
    locked_until: str(v.locked_until),
    created_at: str(v.created_at),
    purchases: num(v.purchases),
    connections: num(v.connections),
    chat_tokens_today: num(v.chat_tokens_today),
  };
}
