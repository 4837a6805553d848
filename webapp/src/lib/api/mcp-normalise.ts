// Answers from the API, checked into the exact wire types. The Go side sends
// nil slices as null and omits empty optional fields; a malformed entry is
// dropped rather than crashing the page. The connection list is read in
// lib/api/use-mcp-connections.ts (the dashboard counts it too).

import { bool, isRecord, num, str, strList, transportOf } from './wire';
import type { McpConnectResponse, McpHealth, McpHealthStatus, McpImplementation, McpServer, McpServerDetail, McpTool } from './mcp-types';

const HEALTH: readonly McpHealthStatus[] = ['up', 'auth_required', 'down', 'unknown'];

function healthStatus(v: unknown): McpHealthStatus {
  return HEALTH.find((h) => h === v) ?? 'unknown';
}

export function normaliseHealth(v: unknown): McpHealth {
  const o = isRecord(v) ? v : {};
  return {
    status: healthStatus(o.status),
    checked_at: str(o.checked_at),
    latency_ms: num(o.latency_ms),
    protocol_version: str(o.protocol_version),
    tools_count: num(o.tools_count),
    detail: str(o.detail),
  };
}

export function normaliseServer(v: unknown): McpServer | null {
  if (!isRecord(v) || typeof v.id !== 'string' || !v.id) return null;
  return {
    id: v.id,
    name: str(v.name) || v.id,
    registry_name: str(v.registry_name),
    description: str(v.description),
    endpoint_url: str(v.endpoint_url),
    model_type: str(v.model_type),
    api_key_required: bool(v.api_key_required),
    oauth_required: bool(v.oauth_required),
    is_active: bool(v.is_active),
    supported_features: strList(v.supported_features),
    transport: transportOf(v.transport),
    website_url: str(v.website_url),
    repository: str(v.repository),
    health: normaliseHealth(v.health),
    tools_changed_at: str(v.tools_changed_at),
  };
}

export function normaliseServerList(data: unknown): McpServer[] {
  return Array.isArray(data) ? data.map(normaliseServer).filter((s): s is McpServer => s !== null) : [];
}

export function normaliseImplementation(v: unknown): McpImplementation | null {
  if (!isRecord(v) || (typeof v.name !== 'string' && typeof v.title !== 'string')) return null;
  const out: McpImplementation = { name: str(v.name), version: str(v.version) };
  if (str(v.title)) out.title = str(v.title);
  return out;
}

export function normaliseTool(v: unknown): McpTool | null {
  if (!isRecord(v) || typeof v.name !== 'string' || !v.name) return null;
  const out: McpTool = { name: v.name, description: str(v.description), read_only: bool(v.read_only), destructive: bool(v.destructive) };
  if (str(v.title)) out.title = str(v.title);
  return out;
}

export function normaliseTools(v: unknown): McpTool[] {
  return Array.isArray(v) ? v.map(normaliseTool).filter((t): t is McpTool => t !== null) : [];
}

export function normaliseServerDetail(v: unknown): McpServerDetail | null {
  const base = normaliseServer(v);
  if (!base || !isRecord(v)) return null;
  return { ...base, server_info: normaliseImplementation(v.server_info), tools: normaliseTools(v.tools) };
}

/** The connect answer; null when it carries no connection id (never a fake success). */
export function normaliseConnectResponse(v: unknown): McpConnectResponse | null {
  if (!isRecord(v) || typeof v.connection_id !== 'string' || !v.connection_id) return null;
  return {
    connection_id: v.connection_id,
    server_id: str(v.server_id),
    server_name: str(v.server_name),
    endpoint_url: str(v.endpoint_url),
    transport: transportOf(v.transport),
    protocol_version: str(v.protocol_version),
    server_info: normaliseImplementation(v.server_info) ?? { name: '', version: '' },
    tools: normaliseTools(v.tools),
    connected_at: str(v.connected_at),
    has_api_key: bool(v.has_api_key),
    api_key_last4: str(v.api_key_last4),
    endpoint_host: str(v.endpoint_host),
  };
}
