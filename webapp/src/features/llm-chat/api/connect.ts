// POST /api/v1/mcp-connections/{provider} {model} → {id, server_name, model, demo}.

import { apiRequest } from '../../../lib/api-client';
import type { ProviderId } from '../providers';

/** SPEC §3 "Chat connection". */
export interface ChatConnection {
  id: string;
  model: string;
  server_name: string;
  /** The local demo model stands in for the provider (no API key on the server): no real cost. */
  demo: boolean;
}

/** The server marks demo connections with `demo: true` and a '(local demo)' server name. */
export const DEMO_MARK = '(local demo)';

interface ConnectResponse {
  id: string | number;
  server_name?: string;
  model?: string;
  demo?: boolean;
}

export async function connectProvider(provider: ProviderId, model: string, signal?: AbortSignal): Promise<ChatConnection> {
  const res = await apiRequest<ConnectResponse>(`/mcp-connections/${provider}`, { method: 'POST', body: { model }, signal });
  const serverName = res.server_name ?? '';
  return { id: String(res.id), model: res.model || model, server_name: serverName, demo: res.demo === true || serverName.includes(DEMO_MARK) };
}
