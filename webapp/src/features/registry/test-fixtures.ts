// MCP registry data for tests, shaped as the registry's HTTP contract.

import type { McpConnectResponse, McpServer, McpServerDetail, McpTool } from '../../lib/api/mcp-types';
import type { McpConnection } from '../../lib/api/types';

export function server(over: Partial<McpServer> & { id: string }): McpServer {
  return {
    name: `Server ${over.id}`,
    registry_name: `io.example/${over.id}`,
    description: `About ${over.id}`,
    endpoint_url: `https://${over.id}.example.com/mcp`,
    model_type: 'code',
    api_key_required: false,
    oauth_required: false,
    is_active: true,
    supported_features: ['tools'],
    transport: 'streamable-http',
    website_url: '',
    repository: '',
    health: { status: 'up', checked_at: '', latency_ms: 12, protocol_version: '2025-06-18', tools_count: 3, detail: '' },
    tools_changed_at: '',
    ...over,
  };
}

export const TOOLS: McpTool[] = [
  { name: 'echo', title: 'Echo', description: 'Echoes back the input.', read_only: true, destructive: false },
  { name: 'delete-everything', description: 'Deletes it all.', read_only: false, destructive: true },
  { name: 'add', description: 'Adds two numbers.', read_only: false, destructive: false },
];

export function detail(s: McpServer, over: Partial<McpServerDetail> = {}): McpServerDetail {
  return { ...s, server_info: { name: 'mcp-servers/everything', title: 'Everything Server', version: '2026.8.31' }, tools: TOOLS, ...over };
}

export function connectResponse(s: McpServer, over: Partial<McpConnectResponse> = {}): McpConnectResponse {
  return {
    connection_id: 'c-new',
    server_id: s.id,
    server_name: s.name,
    endpoint_url: s.endpoint_url,
    transport: 'streamable-http',
    protocol_version: '2025-06-18',
    server_info: { name: 'mcp-servers/everything', version: '2026.8.31' },
    tools: TOOLS,
    connected_at: new Date().toISOString(),
    has_api_key: false,
    api_key_last4: '',
    endpoint_host: '',
    ...over,
  };
}

export function connection(over: Partial<McpConnection> & { connection_id: string }): McpConnection {
  return {
    server_id: 'local-everything',
    server_name: 'Everything (local reference server)',
    endpoint_url: 'http://127.0.0.1:3001/mcp',
    model_type: 'reference',
    transport: 'streamable-http',
    protocol_version: '2025-06-18',
    tools_count: 13,
    has_api_key: false,
    api_key_last4: '',
    connected_at: new Date().toISOString(),
    oauth: false,
    needs_sign_in: false,
    endpoint_host: '',
    ...over,
  };
}
