import { bool, isRecord, list, num, str, strList } from '../../../lib/api/wire';
import { idOf, versionOf } from './read-page';
import type { AdminMcpServer, McpAuth, McpHealth, McpOAuthClient, McpServerSaved, McpSource, ProbeRecord, SyncResult } from './types';

const AUTHS: readonly McpAuth[] = ['none', 'api_key', 'oauth'];
const SOURCES: readonly McpSource[] = ['seed', 'registry', 'local', 'admin'];

export function readHealth(v: unknown): McpHealth {
  const o = isRecord(v) ? v : {};
  return { status: str(o.status), checked_at: str(o.checked_at), latency_ms: num(o.latency_ms), tools_count: num(o.tools_count), error: str(o.error) };
}

/** An operator's OAuth client; null when none (no client id). */
export function readOAuthClient(v: unknown): McpOAuthClient | null {
  if (!isRecord(v) || !str(v.client_id)) return null;
  return { client_id: str(v.client_id), has_secret: bool(v.has_secret), issuer: str(v.issuer) };
}

export function readServer(v: unknown): AdminMcpServer | null {
  const id = idOf(v);
  if (id === null || !isRecord(v)) return null;
  return {
    id,
    name: str(v.name) || id,
    registry_name: str(v.registry_name),
    description: str(v.description),
    endpoint_url: str(v.endpoint_url),
    model_type: str(v.model_type),
    auth: AUTHS.find((a) => a === v.auth) ?? 'none',
    features: strList(v.features),
    enabled: bool(v.enabled),
    listed: bool(v.listed),
    source: SOURCES.find((s) => s === v.source) ?? 'admin',
    health: readHealth(v.health),
    updated_at: str(v.updated_at),
    version: versionOf(v.version),
    oauth_client: readOAuthClient(v.oauth_client),
  };
}

/**
 * A save's answer. POST answers {"server", "warning"?}; a PATCH answer may
 * be that envelope or the server itself: both are read.
 */
export function readServerSaved(v: unknown): McpServerSaved | null {
  const o = isRecord(v) ? v : {};
  const server = readServer(isRecord(o.server) ? o.server : v);
  return server ? { server, warning: str(o.warning) } : null;
}

export function readProbe(v: unknown): ProbeRecord | null {
  if (!isRecord(v)) return null;
  return { at: str(v.at), status: str(v.status), latency_ms: num(v.latency_ms), tools_count: num(v.tools_count), error: str(v.error) };
}

export function readProbes(v: unknown): ProbeRecord[] {
  return list(isRecord(v) ? v.items : v)
    .map(readProbe)
    .filter((p): p is ProbeRecord => p !== null);
}

export function readSyncResult(v: unknown): SyncResult {
  const o = isRecord(v) ? v : {};
  return { upserted: num(o.upserted), deactivated: num(o.deactivated), skipped: num(o.skipped), pages: num(o.pages), registry: bool(o.registry) };
}
