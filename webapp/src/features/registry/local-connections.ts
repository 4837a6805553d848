// SPEC §3: a local copy of each connection in browser storage, with the
// connection id, the time connected and status 'connected'. Never a key.
// Kept per user in one list; written only through this module.

import { readJson, writeJson } from '../../lib/storage';

/** localStorage key (kebab-case like the keys in lib/storage.ts STORAGE_KEYS). */
export const LOCAL_CONNECTIONS_KEY = 'mcp-connections';

export interface LocalConnection {
  connection_id: string;
  /** RFC 3339, as the server reported it. */
  connected_at: string;
  status: 'connected';
  server_id: string;
  server_name: string;
  endpoint_url: string;
  /** The signed-in user the connection belongs to. */
  user_id: string;
}

function isLocalConnection(v: unknown): v is LocalConnection {
  if (!v || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.connection_id === 'string' &&
    o.connection_id !== '' &&
    typeof o.connected_at === 'string' &&
    o.status === 'connected' &&
    typeof o.server_id === 'string' &&
    typeof o.server_name === 'string' &&
    typeof o.endpoint_url === 'string' &&
    typeof o.user_id === 'string'
  );
}

/** Whatever storage held, as a clean list (malformed entries dropped). */
export function parseLocalConnections(raw: unknown): LocalConnection[] {
  return Array.isArray(raw) ? raw.filter(isLocalConnection) : [];
}

/** The list with `entry` first, replacing an entry of the same id. */
export function withConnection(list: readonly LocalConnection[], entry: LocalConnection): LocalConnection[] {
  return [entry, ...list.filter((c) => c.connection_id !== entry.connection_id)];
}

export function withoutConnection(list: readonly LocalConnection[], connectionId: string): LocalConnection[] {
  return list.filter((c) => c.connection_id !== connectionId);
}

/** Drop the user's entries the server no longer lists; other users' entries stay. */
export function reconcileConnections(list: readonly LocalConnection[], userId: string, serverIds: ReadonlySet<string>): LocalConnection[] {
  return list.filter((c) => c.user_id !== userId || serverIds.has(c.connection_id));
}

export function readLocalConnections(): LocalConnection[] {
  return parseLocalConnections(readJson<unknown>(LOCAL_CONNECTIONS_KEY));
}

export function readLocalConnectionsOf(userId: string): LocalConnection[] {
  return readLocalConnections().filter((c) => c.user_id === userId);
}

export function saveLocalConnection(entry: LocalConnection): void {
  writeJson(LOCAL_CONNECTIONS_KEY, withConnection(readLocalConnections(), entry));
}

export function removeLocalConnection(connectionId: string): void {
  const list = readLocalConnections();
  const next = withoutConnection(list, connectionId);
  if (next.length !== list.length) writeJson(LOCAL_CONNECTIONS_KEY, next);
}

/** Keep the local copy in step with the server's list for this user. */
export function syncLocalConnections(userId: string, serverConnectionIds: readonly string[]): void {
  const list = readLocalConnections();
  const next = reconcileConnections(list, userId, new Set(serverConnectionIds));
  if (next.length !== list.length) writeJson(LOCAL_CONNECTIONS_KEY, next);
}
