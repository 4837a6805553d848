import { describe, expect, it } from 'vitest';
import { normaliseConnectionList } from '../../../lib/api/use-mcp-connections';
import { normaliseConnectResponse, normaliseServerDetail, normaliseServerList } from '../../../lib/api/mcp-normalise';
import { mcpServersUrl } from './use-mcp-servers';
import { mcpServerPath } from './use-mcp-server';

// The contract's example entry, verbatim.
const CONTRACT_ENTRY = {
  id: 'local-everything',
  name: 'Everything (local reference server)',
  registry_name: 'local/everything',
  description: '…',
  endpoint_url: 'http://127.0.0.1:3001/mcp',
  model_type: 'reference',
  api_key_required: false,
  oauth_required: false,
  is_active: true,
  supported_features: ['tools', 'prompts', 'resources'],
  transport: 'streamable-http',
  website_url: '…',
  repository: '…',
  health: { status: 'up', checked_at: '2026-11-22T12:00:00Z', latency_ms: 12, protocol_version: '2025-06-18', tools_count: 13, detail: '' },
  tools_changed_at: '',
};

describe('normaliseServerList', () => {
  it('keeps the contract entry exactly', () => {
    expect(normaliseServerList([CONTRACT_ENTRY])).toEqual([CONTRACT_ENTRY]);
  });
  it('fills what Go leaves null or out, drops entries without an id', () => {
    const [s] = normaliseServerList([{ id: 'x', supported_features: null, health: null, transport: 'carrier-pigeon' }, { name: 'no id' }, null]);
    expect(s).toMatchObject({
      id: 'x',
      name: 'x',
      supported_features: [],
      transport: 'streamable-http',
      is_active: false,
      health: { status: 'unknown', checked_at: '', latency_ms: 0, tools_count: 0 },
    });
    expect(normaliseServerList({ items: [] })).toEqual([]);
  });
});

describe('normaliseServerDetail', () => {
  it('adds server_info and tools; null server_info and null tools are fine', () => {
    const d = normaliseServerDetail({
      ...CONTRACT_ENTRY,
      server_info: { name: 'mcp-servers/everything', title: 'Everything', version: '1.0.0' },
      tools: [{ name: 'echo', title: '', description: 'Echo', read_only: true, destructive: false }, { description: 'nameless' }],
    });
    expect(d?.server_info).toEqual({ name: 'mcp-servers/everything', title: 'Everything', version: '1.0.0' });
    expect(d?.tools).toEqual([{ name: 'echo', description: 'Echo', read_only: true, destructive: false }]);
    const bare = normaliseServerDetail({ ...CONTRACT_ENTRY, server_info: null, tools: null });
    expect(bare?.server_info).toBeNull();
    expect(bare?.tools).toEqual([]);
    expect(normaliseServerDetail('nope')).toBeNull();
  });
});

describe('connections', () => {
  it('reads the list and the connect answer; no connection_id is no success', () => {
    const list = normaliseConnectionList([
      {
        connection_id: 'c1',
        server_id: 's',
        server_name: 'S',
        endpoint_url: 'u',
        model_type: 'code',
        transport: 'sse',
        protocol_version: 'p',
        tools_count: 2,
        has_api_key: true,
        api_key_last4: 'abcd',
        connected_at: 't',
      },
      { server_id: 'no-id' },
    ]);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ transport: 'sse', has_api_key: true, api_key_last4: 'abcd', tools_count: 2 });
    expect(normaliseConnectResponse({ server_name: 'S' })).toBeNull();
    expect(normaliseConnectResponse({ connection_id: 'c1', tools: null, server_info: null })).toMatchObject({
      connection_id: 'c1',
      tools: [],
      server_info: { name: '', version: '' },
    });
  });
});

describe('paths', () => {
  it.each([
    [{}, '/mcp-servers/'],
    [{ model_type: '' }, '/mcp-servers/'],
    [{ model_type: 'code' }, '/mcp-servers/?model_type=code'],
    [{ search: '  git hub ' }, '/mcp-servers/?search=git+hub'],
    [{ model_type: 'code', search: 'a&b' }, '/mcp-servers/?model_type=code&search=a%26b'],
  ])('%j → %s', (q, want) => {
    expect(mcpServersUrl(q)).toBe(want);
  });
  it('escapes ids', () => {
    expect(mcpServerPath('com.notion--mcp')).toBe('/mcp-servers/com.notion--mcp');
    expect(mcpServerPath('a/b')).toBe('/mcp-servers/a%2Fb');
  });
});
