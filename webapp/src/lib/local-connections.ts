// SPEC §3: a local copy of each connection in browser storage, with the
// connection id, the time connected and status 'connected'. Never a key.
// Each account has its own list under userKey(STORAGE_KEYS.mcpConnections,
// uid), removed with the session (lib/storage clearUserData), so the next
// person on the same browser never sees it. Written only through this module.

import { readJson, removeKey, STORAGE_KEYS, userKey, writeJson } from './storage';

/** The localStorage key of one account's list: `mcp-connections:<uid>`. */
export function localConnectionsKey(userId: string): string {
  return userKey(STORAGE_KEYS.mcpConnections, userId);
}

export interface LocalConnection {
  connection_id: string;
  /** RFC 3339, as the server reported it. */
  connected_at: string;
  status: 'connected';
  server_id: string;
  server_name: string;
  endpoint_url: string;
  /** The signed-in user the connection belongs to (the same as the key's). */
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

/** Keep only the entries the server still lists. */
export function reconcileConnections(list: readonly LocalConnection[], serverIds: ReadonlySet<string>): LocalConnection[] {
  return list.filter((c) => serverIds.has(c.connection_id));
}

/** `userId`'s list; an entry naming another user (never written so) is ignored. */
export function readLocalConnectionsOf(userId: string): LocalConnection[] {
  return parseLocalConnections(readJson<unknown>(localConnectionsKey(userId))).filter((c) => c.user_id === userId);
}

function write(userId: string, list: readonly LocalConnection[]): void {
  writeJson(localConnectionsKey(userId), list);
  // The list from before per-user keys mixed accounts: it is not kept.
  removeKey(STORAGE_KEYS.mcpConnections);
}

/** Store the copy in its user's list (entry.user_id). */
export function saveLocalConnection(entry: LocalConnection): void {
  write(entry.user_id, withConnection(readLocalConnectionsOf(entry.user_id), entry));
}

export function removeLocalConnection(userId: string, connectionId: string): void {
  const list = readLocalConnectionsOf(userId);
  const next = withoutConnection(list, connectionId);
  if (next.length !== list.length) write(userId, next);
}

/** Keep the user's local copy in step with the server's list. */
export function syncLocalConnections(userId: string, serverConnectionIds: readonly string[]): void {
  const list = readLocalConnectionsOf(userId);
  const next = reconcileConnections(list, new Set(serverConnectionIds));
  if (next.length !== list.length) write(userId, next);
}
