// A stale write (docs/admin.md: "Writes to a prompt or an MCP server carry the
// `version` they were read at: a stale one is 409 … "current": {…}"): the
// server's detail and the record as it stands now.

import { ApiError } from '../../../lib/api-client';
import { isRecord } from '../../../lib/api/wire';

export interface Conflict<T> {
  detail: string;
  current: T;
}

/** The conflict in `err`, or null when it is another failure (or a 409 without a readable `current`). */
export function readConflict<T>(err: unknown, read: (v: unknown) => T | null): Conflict<T> | null {
  if (!(err instanceof ApiError) || err.status !== 409 || !isRecord(err.body)) return null;
  const current = read(err.body.current);
  return current === null ? null : { detail: err.detail, current };
}
