// The MCP registry's wire types, exactly as the HTTP contract and
// shared/domain/mcp.go send them. Times are RFC 3339 strings; "" means "never".
// A connection (read by the dashboard too) is in lib/api/types.ts.

import type { McpTransport } from './types';

/** Last probe's verdict (domain.Health*). */
export type McpHealthStatus = 'up' | 'auth_required' | 'down' | 'unknown';

/** The prober's last record of a server. */
export interface McpHealth {
  status: McpHealthStatus;
  /** RFC 3339; "" when never probed. */
  checked_at: string;
  latency_ms: number;
  protocol_version: string;
  tools_count: number;
  /** Short reason for down / auth_required; "" otherwise. */
  detail: string;
}

/** One entry of GET /api/v1/mcp-servers/ (SPEC §3 MCP server plus the contract's fields). */
export interface McpServer {
  /** URL-path-safe id, e.g. "local-everything" or "com.notion--mcp". */
  id: string;
  name: string;
  /** The official registry's name, e.g. "com.notion/mcp". */
  registry_name: string;
  description: string;
  endpoint_url: string;
  model_type: string;
  api_key_required: boolean;
  oauth_required: boolean;
  is_active: boolean;
  supported_features: string[];
  transport: McpTransport;
  website_url: string;
  repository: string;
  health: McpHealth;
  /** RFC 3339 of the last change of the tool list; "" when none seen. */
  tools_changed_at: string;
}

/** A server's self-description from initialize (domain.MCPImplementation). */
export interface McpImplementation {
  name: string;
  /** Omitted by the server when empty. */
  title?: string;
  version: string;
}

/** One tool with the hints from its annotations (domain.MCPTool). */
export interface McpTool {
  name: string;
  /** Omitted by the server when empty. */
  title?: string;
  description: string;
  read_only: boolean;
  destructive: boolean;
}

/** GET /api/v1/mcp-servers/{id}: the list entry plus the last probe's findings. */
export interface McpServerDetail extends McpServer {
  server_info: McpImplementation | null;
  tools: McpTool[];
}

/** POST /api/v1/mcp-connections/ body (SPEC §3 Connection request). */
export interface McpConnectRequest {
  server_id: string;
  server_name: string;
  /** The user's value, else the server's default endpoint. */
  endpoint_url: string;
  model_type: string;
  /** Sent only when the server requires a key or the user typed one. */
  api_key?: string;
}

/** POST /api/v1/mcp-connections/ answer (200). */
export interface McpConnectResponse {
  connection_id: string;
  server_id: string;
  server_name: string;
  endpoint_url: string;
  transport: McpTransport;
  protocol_version: string;
  server_info: McpImplementation;
  tools: McpTool[];
  /** RFC 3339. */
  connected_at: string;
  has_api_key: boolean;
  /** At most the key's last 4 characters; "" without a key. */
  api_key_last4: string;
  /** The host reached when the user's endpoint was not on the entry's default host, else "". */
  endpoint_host: string;
}
