// GET /api/v1/mcp-connections/tools: the caller's connected MCP servers
// with the tools the chat may offer the model, and the tools the caller
// lets run without asking ("always allowed": each on one endpoint, as the
// tool was defined when allowed). DELETE
// /api/v1/mcp-connections/tools/always/{server_id}/{tool}?endpoint=… revokes
// one endpoint's (without ?endpoint=, every endpoint's).
// Shapes as shared/api/mcpapi/tools.go sends them (Go may send null lists).

import { useCallback } from 'react';
import useSWR from 'swr';
import { ApiError, apiRequest } from '../../../lib/api-client';
import { isRecord, list, str, strList } from '../../../lib/api/wire';
import { useUserKey } from '../../../lib/use-user-key';

export const MCP_TOOLS_PATH = '/mcp-connections/tools';

/** At most this many servers' tools go with one message (the server refuses more). */
export const MAX_TOOL_SERVERS = 10;

export interface McpToolInfo {
  name: string;
  title: string;
  description: string;
  input_schema: unknown;
  read_only: boolean;
  /** Declared destructive, or not read-only with no hint either way. */
  destructive: boolean;
}

export interface McpToolServer {
  connection_id: string;
  server_id: string;
  server_name: string;
  endpoint_url: string;
  /** The host reached when the user's endpoint was not on the entry's default host, else "". */
  endpoint_host: string;
  /** RFC 3339. */
  connected_at: string;
  tools: McpToolInfo[];
}

export interface AlwaysAllowedTool {
  server_id: string;
  tool: string;
  /** The endpoint it is allowed on (what a revoke names); '' for one allowed before endpoints were recorded. */
  endpoint: string;
  /** The endpoint as a user reads it: host and path. */
  endpoint_label: string;
  /** The tool may change or delete data. */
  destructive: boolean;
  /**
   * What no longer matches the tool as a connection on that endpoint defines it now ('description',
   * 'input_schema', 'annotations', 'name'; 'unrecorded' for an allowance that kept neither); empty when it matches.
   */
  changed: string[];
  /** RFC 3339. */
  created_at: string;
}

export interface McpTools {
  servers: McpToolServer[];
  always_allowed: AlwaysAllowedTool[];
}

function normaliseTool(raw: unknown): McpToolInfo | null {
  if (!isRecord(raw) || !str(raw.name)) return null;
  return {
    name: str(raw.name),
    title: str(raw.title),
    description: str(raw.description),
    input_schema: raw.input_schema ?? null,
    read_only: raw.read_only === true,
    destructive: raw.destructive === true,
  };
}

function normaliseServer(raw: unknown): McpToolServer | null {
  if (!isRecord(raw) || !str(raw.connection_id)) return null;
  return {
    connection_id: str(raw.connection_id),
    server_id: str(raw.server_id),
    server_name: str(raw.server_name) || str(raw.server_id) || str(raw.connection_id),
    endpoint_url: str(raw.endpoint_url),
    endpoint_host: str(raw.endpoint_host),
    connected_at: str(raw.connected_at),
    tools: list(raw.tools)
      .map(normaliseTool)
      .filter((t): t is McpToolInfo => t !== null),
  };
}

/** The answer, checked field by field: anything unusable is dropped, null lists are empty. */
export function normaliseMcpTools(raw: unknown): McpTools {
  const body = isRecord(raw) ? raw : {};
  return {
    servers: list(body.servers)
      .map(normaliseServer)
      .filter((s): s is McpToolServer => s !== null),
    always_allowed: list(body.always_allowed)
      .filter(isRecord)
      .map((a) => ({
        server_id: str(a.server_id),
        tool: str(a.tool),
        endpoint: str(a.endpoint),
        endpoint_label: str(a.endpoint_label),
        destructive: a.destructive === true,
        changed: strList(a.changed),
        created_at: str(a.created_at),
      }))
      .filter((a) => a.server_id && a.tool),
  };
}

async function fetchTools([path]: readonly [string, string]): Promise<McpTools> {
  return normaliseMcpTools(await apiRequest(path));
}

/** The revoke of a tool's allowance on `endpoint` ('' names one allowed before endpoints were recorded), or on every endpoint when undefined. */
export function revokePath(serverId: string, tool: string, endpoint?: string): string {
  const path = `${MCP_TOOLS_PATH}/always/${encodeURIComponent(serverId)}/${encodeURIComponent(tool)}`;
  return endpoint === undefined ? path : `${path}?endpoint=${encodeURIComponent(endpoint)}`;
}

/** Revokes an "always allow" (one endpoint's, or every one's); a 404 (already gone) counts as done. */
export async function revokeAlwaysAllowed(serverId: string, tool: string, endpoint?: string): Promise<void> {
  try {
    await apiRequest<void>(revokePath(serverId, tool, endpoint), { method: 'DELETE' });
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
  }
}

/** GET …/mcp-connections/tools for the signed-in user (signed out: no request). */
export function useMcpTools() {
  const swr = useSWR<McpTools>(useUserKey(MCP_TOOLS_PATH), fetchTools, { shouldRetryOnError: false });
  const { mutate } = swr;
  const revoke = useCallback(
    async (serverId: string, tool: string, endpoint?: string) => {
      await revokeAlwaysAllowed(serverId, tool, endpoint);
      await mutate();
    },
    [mutate],
  );
  return {
    data: swr.data,
    error: swr.error as unknown,
    isLoading: swr.isLoading,
    mutate,
    revoke,
  };
}
