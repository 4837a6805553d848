import { describe, expect, it } from 'vitest';
import {
  LOCAL_CONNECTIONS_KEY,
  parseLocalConnections,
  readLocalConnectionsOf,
  reconcileConnections,
  removeLocalConnection,
  saveLocalConnection,
  syncLocalConnections,
  withConnection,
  withoutConnection,
  type LocalConnection,
} from './local-connections';

const entry = (id: string, user = 'u1'): LocalConnection => ({
  connection_id: id,
  connected_at: '2026-11-22T12:00:00Z',
  status: 'connected',
  server_id: 'local-everything',
  server_name: 'Everything (local reference server)',
  endpoint_url: 'http://127.0.0.1:3001/mcp',
  user_id: user,
});

describe('pure helpers', () => {
  it('parses only well-formed entries', () => {
    expect(parseLocalConnections(null)).toEqual([]);
    expect(parseLocalConnections({})).toEqual([]);
    expect(parseLocalConnections([entry('a'), { connection_id: 'b' }, { ...entry('c'), status: 'gone' }, 3])).toEqual([entry('a')]);
  });
  it('adds newest first, replacing the same id', () => {
    const list = withConnection([entry('a'), entry('b')], { ...entry('b'), connected_at: 'later' });
    expect(list.map((c) => [c.connection_id, c.connected_at])).toEqual([
      ['b', 'later'],
      ['a', '2026-11-22T12:00:00Z'],
    ]);
    expect(withoutConnection(list, 'b').map((c) => c.connection_id)).toEqual(['a']);
  });
  it("reconciles only the given user's entries", () => {
    const list = [entry('a'), entry('b'), entry('x', 'u2')];
    expect(reconcileConnections(list, 'u1', new Set(['b'])).map((c) => c.connection_id)).toEqual(['b', 'x']);
  });
});

describe('storage', () => {
  it('saves, reads per user, removes and syncs; never stores a key field', () => {
    saveLocalConnection(entry('a'));
    saveLocalConnection(entry('b'));
    saveLocalConnection(entry('x', 'u2'));
    expect(readLocalConnectionsOf('u1').map((c) => c.connection_id)).toEqual(['b', 'a']);
    const raw = localStorage.getItem(LOCAL_CONNECTIONS_KEY) ?? '';
    expect(raw).not.toContain('api_key');
    expect(JSON.parse(raw)[0]).toMatchObject({ connection_id: 'x', status: 'connected', connected_at: '2026-11-22T12:00:00Z' });

    removeLocalConnection('b');
    expect(readLocalConnectionsOf('u1').map((c) => c.connection_id)).toEqual(['a']);
    syncLocalConnections('u1', []);
    expect(readLocalConnectionsOf('u1')).toEqual([]);
    expect(readLocalConnectionsOf('u2')).toHaveLength(1);
  });
  it('survives garbage in storage', () => {
    localStorage.setItem(LOCAL_CONNECTIONS_KEY, '{not json');
    expect(readLocalConnectionsOf('u1')).toEqual([]);
    saveLocalConnection(entry('a'));
    expect(readLocalConnectionsOf('u1')).toHaveLength(1);
  });
});
