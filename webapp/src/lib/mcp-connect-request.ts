// The Connect dialog's rules (SPEC §3 Connection request, §5, §8) as pure functions.

import { ApiError } from './api-client';
import type { McpConnectRequest, McpServer } from './api/mcp-types';

export interface ConnectInputs {
  /** What the user typed in Endpoint URL; blank means the default. */
  endpointUrl: string;
  /** What the user typed in API Key. */
  apiKey: string;
}

/** SPEC §5: a required key that is empty or whitespace blocks Connect. */
export function isApiKeyMissing(server: Pick<McpServer, 'api_key_required'>, apiKey: string): boolean {
  return server.api_key_required && apiKey.trim() === '';
}

/**
 * SPEC §3: server_id, server_name, endpoint_url (the user's value or the
 * default), model_type, and api_key only when the server requires one or the
 * user typed one.
 */
export function buildConnectRequest(
  server: Pick<McpServer, 'id' | 'name' | 'endpoint_url' | 'model_type' | 'api_key_required'>,
  inputs: ConnectInputs,
): McpConnectRequest {
  const endpoint = inputs.endpointUrl.trim();
  const key = inputs.apiKey.trim();
  const body: McpConnectRequest = {
    server_id: server.id,
    server_name: server.name,
    endpoint_url: endpoint || server.endpoint_url,
    model_type: server.model_type,
  };
  if (server.api_key_required || key) body.api_key = key;
  return body;
}

/** SPEC §8's '{detail or message or Connection failed}'. */
export function connectFailureReason(error: unknown): string {
  if (error instanceof ApiError && error.fromServer && error.detail.trim()) return error.detail;
  if (error instanceof Error && error.message.trim()) return error.message;
  return '';
}
