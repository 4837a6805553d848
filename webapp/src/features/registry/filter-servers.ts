// The listing's filter, applied on the client too: the server filters by
// `model_type` and `search`, and the client applies the same rules to what
// it has so a changed filter shows at once while the new query loads.

import type { McpServer } from '../../lib/api/mcp-types';

export interface ServerFilter {
  /** '' = all models. */
  modelType: string;
  /** Free text; '' = no search. */
  search: string;
}

export function matchesFilter(server: McpServer, filter: ServerFilter): boolean {
  if (filter.modelType && server.model_type !== filter.modelType) return false;
  const q = filter.search.trim().toLowerCase();
  if (!q) return true;
  // Slightly wider than the server (name and description) so the client
  // never hides something the server matched.
  return [server.name, server.description, server.registry_name].some((f) => typeof f === 'string' && f.toLowerCase().includes(q));
}

const HEALTH_RANK: Record<string, number> = { up: 0, auth_required: 1, unknown: 2, down: 3 };

// Built once: localeCompare with options builds a collator per call.
let nameCollator: Intl.Collator | undefined;
let idCollator: Intl.Collator | undefined;

/** Active servers first, working ones before the rest, then by name (the API's order, kept on the client). */
export function compareServers(a: McpServer, b: McpServer): number {
  if (a.is_active !== b.is_active) return a.is_active ? -1 : 1;
  const rank = (s: McpServer) => HEALTH_RANK[s.health.status] ?? 3;
  nameCollator ??= new Intl.Collator(undefined, { sensitivity: 'base' });
  idCollator ??= new Intl.Collator();
  return rank(a) - rank(b) || nameCollator.compare(a.name, b.name) || idCollator.compare(a.id, b.id);
}

export function filterServers(servers: readonly McpServer[], filter: ServerFilter): McpServer[] {
  return servers.filter((s) => matchesFilter(s, filter)).sort(compareServers);
}
