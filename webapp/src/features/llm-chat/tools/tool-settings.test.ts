import { describe, expect, it } from 'vitest';
import type { McpToolServer } from '../api/mcp-tools';
import { enabledServers, toolsForSend, toolsLine } from './tool-settings';

const tool = (name: string) => ({ name, title: '', description: '', input_schema: {}, read_only: true, destructive: false });
const server = (n: number, tools: string[] = ['echo']): McpToolServer => ({
  connection_id: `conn-${n}`,
  server_id: `srv-${n}`,
  server_name: `Server ${n}`,
  endpoint_url: '',
  endpoint_host: '',
  connected_at: '',
  tools: tools.map(tool),
});

describe('tool settings', () => {
  it('every connected server is on unless the tab turned it off', () => {
    const servers = [server(1), server(2)];
    expect(enabledServers(servers, {}).map((s) => s.connection_id)).toEqual(['conn-1', 'conn-2']);
    expect(enabledServers(servers, { toolsOff: ['conn-1'] }).map((s) => s.connection_id)).toEqual(['conn-2']);
    expect(enabledServers(undefined, {})).toEqual([]);
  });

  it('a message sends the enabled ids (at most 10) and the read-only setting, nothing when none', () => {
    const servers = Array.from({ length: 12 }, (_, i) => server(i + 1));
    expect(toolsForSend(servers, { confirmReadOnly: true })).toEqual({ connectionIds: servers.slice(0, 10).map((s) => s.connection_id), confirmReadOnly: true });
    expect(toolsForSend([server(1)], {})).toEqual({ connectionIds: ['conn-1'], confirmReadOnly: false });
    expect(toolsForSend([server(1)], { toolsOff: ['conn-1'] })).toBeUndefined();
    expect(toolsForSend(undefined, {})).toBeUndefined();
  });

  it('the empty state line names the tools per server, with … past five', () => {
    expect(toolsLine([{ ...server(1, ['echo', 'get-sum']), server_name: 'Everything (local reference server)' }])).toBe(
      'Tools: echo, get-sum from Everything (local reference server)',
    );
    expect(toolsLine([server(1, ['a', 'b', 'c', 'd', 'e', 'f']), server(2, []), server(3, ['x'])])).toBe('Tools: a, b, c, d, e … from Server 1; x from Server 3');
    expect(toolsLine([{ ...server(1), endpoint_host: '127.0.0.1:18101' }])).toBe('Tools: echo from Server 1 · 127.0.0.1:18101');
    expect(toolsLine([])).toBe('');
    expect(toolsLine([server(1, [])])).toBe('');
  });
});
