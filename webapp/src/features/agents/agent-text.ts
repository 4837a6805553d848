// What the agent pages say of an agent: its price, how each of its servers
// is connected, its model.

import { formatUsd } from '../../lib/format';
import type { AgentAuth, AgentCard } from '../../lib/api/agents';

/** "Free", or the price. */
export function priceLabel(agent: Pick<AgentCard, 'price' | 'is_free'>): string {
  return agent.is_free || agent.price <= 0 ? 'Free' : formatUsd(agent.price);
}

/** The badge beside a server's name: how a user connects to it. */
export const AUTH_LABEL: Record<AgentAuth, string> = { none: 'No key', key: 'API key', oauth: 'OAuth' };

/** The badge's longer text, for its tooltip and screen readers. */
export const AUTH_TITLE: Record<AgentAuth, string> = {
  none: 'Connects without a key',
  key: 'Needs your API key for this server',
  oauth: 'You sign in to this server with its own account (OAuth)',
};

/** The agent's provider and model, as the card shows them. */
export function modelLabel(agent: Pick<AgentCard, 'provider' | 'model'>): string {
  return agent.provider ? `${agent.model} (${agent.provider})` : agent.model;
}

/** The agent's id from a /agents/{id} address; null when the path names none. */
export function agentIdFromPath(pathname: string): string | null {
  const base = '/agents/';
  if (!pathname.startsWith(base)) return null;
  const rest = pathname.slice(base.length).replace(/\/+$/, '');
  if (!rest || rest.includes('/')) return null;
  try {
    return decodeURIComponent(rest);
  } catch {
    return null;
  }
}
