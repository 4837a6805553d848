// Which MCP servers' tools a chat tab offers the model: every connected
// server's, except those the tab turned off (ChatTab.toolsOff), at most
// MAX_TOOL_SERVERS of them per message.

import { connectionLabel } from '../../../lib/connection-label';
import { MAX_TOOL_SERVERS, type McpToolServer } from '../api/mcp-tools';
import type { ChatTab } from '../state/types';

/** The connected servers the tab offers, in the server's order. */
export function enabledServers(servers: readonly McpToolServer[] | undefined, tab: Pick<ChatTab, 'toolsOff'>): McpToolServer[] {
  const off = new Set(tab.toolsOff ?? []);
  return (servers ?? []).filter((s) => !off.has(s.connection_id));
}

/** What a message sends: the enabled servers' connection ids (at most 10) and the read-only setting; undefined for none. */
export function toolsForSend(
  servers: readonly McpToolServer[] | undefined,
  tab: Pick<ChatTab, 'toolsOff' | 'confirmReadOnly'>,
): { connectionIds: string[]; confirmReadOnly: boolean } | undefined {
  const ids = enabledServers(servers, tab)
    .slice(0, MAX_TOOL_SERVERS)
    .map((s) => s.connection_id);
  return ids.length > 0 ? { connectionIds: ids, confirmReadOnly: tab.confirmReadOnly === true } : undefined;
}

/** Tool names listed per server in the empty state before '…'. */
export const TOOLS_LINE_NAMES = 5;

/**
 * The empty state's line: 'Tools: echo, get-sum … from Everything (local
 * reference server)', servers separated by '; '; '' when no enabled
 * server has tools.
 */
export function toolsLine(servers: readonly McpToolServer[]): string {
  const parts = servers
    .slice(0, MAX_TOOL_SERVERS)
    .filter((s) => s.tools.length > 0)
    .map((s) => {
      const names = s.tools.map((t) => t.name);
      const shown = names.slice(0, TOOLS_LINE_NAMES).join(', ');
      return `${shown}${names.length > TOOLS_LINE_NAMES ? ' …' : ''} from ${connectionLabel(s)}`;
    });
  return parts.length > 0 ? `Tools: ${parts.join('; ')}` : '';
}

/**
 * An agent's tab: the user's connections to the agent's servers (one per
 * server, the tools list's first, else the one the agent's page named),
 * server id → connection id. Other connections add nothing: the server
 * offers only the agent's allowed tools.
 */
export function agentConnections(
  servers: readonly McpToolServer[] | undefined,
  agentServers: readonly { server_id: string; connection_id: string | null }[],
): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of agentServers) {
    const id = servers?.find((t) => t.server_id === s.server_id)?.connection_id ?? (servers === undefined ? s.connection_id : null);
    if (id) out.set(s.server_id, id);
  }
  return out;
}

/** What a message of an agent's tab sends: its connected servers' connection ids; undefined for none. */
export function agentToolsForSend(connections: ReadonlyMap<string, string>, tab: Pick<ChatTab, 'confirmReadOnly'>): { connectionIds: string[]; confirmReadOnly: boolean } | undefined {
  const ids = [...connections.values()].slice(0, MAX_TOOL_SERVERS);
  return ids.length > 0 ? { connectionIds: ids, confirmReadOnly: tab.confirmReadOnly === true } : undefined;
}
