// POST /api/v1/mcp-connections/{provider} {model} → {id, server_name, model, demo}.

import { apiRequest } from '../../../lib/api-client';
import type { ProviderId } from '../providers';

/** SPEC §3 "Chat connection". */
export interface ChatConnection {
  id: string;
  model: string;
  server_name: string;
}

interface ConnectResponse {
  id: string | number;
  server_name?: string;
  model?: string;
  demo?: boolean;
}

export async function connectProvider(provider: ProviderId, model: string, signal?: AbortSignal): Promise<ChatConnection> {
  const res = await apiRequest<ConnectResponse>(`/mcp-connections/${provider}`, { method: 'POST', body: { model }, signal });
  return { id: String(res.id), model: res.model || model, server_name: res.server_name ?? '' };
}
