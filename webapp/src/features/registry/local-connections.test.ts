import { describe, expect, it } from 'vitest';
import { clearUserData } from '../../lib/storage';
import {
  localConnectionsKey,
  parseLocalConnections,
  readLocalConnectionsOf,
  reconcileConnections,
  removeLocalConnection,
  saveLocalConnection,
  syncLocalConnections,
  withConnection,
  withoutConnection,
  type LocalConnection,
} from '../../lib/local-connections';

const entry = (id: string, user = 'u1'): LocalConnection => ({
  connection_id: id,
  connected_at: '2026-11-22T12:00:00Z',
  status: 'connected',
  server_id: 'local-everything',
  server_name: 'Everything (local reference server)',
  endpoint_url: 'http://127.0.0.1:3001/mcp',
  user_id: user,
});

const stored = (userId: string) => JSON.parse(localStorage.getItem(localConnectionsKey(userId)) ?? 'null');

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
  it('reconciles with the server list', () => {
    expect(reconcileConnections([entry('a'), entry('b')], new Set(['b', 'z'])).map((c) => c.connection_id)).toEqual(['b']);
  });
});

describe('storage, per user', () => {
  it('keeps each account under mcp-connections:<uid>', () => {
    expect(localConnectionsKey('u1')).toBe('mcp-connections:u1');
    saveLocalConnection(entry('a'));
    saveLocalConnection(entry('x', 'u2'));
    expect(Object.keys({ ...localStorage }).sort()).toEqual(['mcp-connections:u1', 'mcp-connections:u2']);
    expect(stored('u1').map((c: LocalConnection) => c.connection_id)).toEqual(['a']);
    expect(stored('u2').map((c: LocalConnection) => c.connection_id)).toEqual(['x']);
  });

  it('saves, reads, removes and syncs one user without touching another; never stores a key field', () => {
    saveLocalConnection(entry('a'));
    saveLocalConnection(entry('b'));
    saveLocalConnection(entry('x', 'u2'));
    expect(readLocalConnectionsOf('u1').map((c) => c.connection_id)).toEqual(['b', 'a']);
    const raw = localStorage.getItem(localConnectionsKey('u1')) ?? '';
    expect(raw).not.toContain('api_key');
    expect(JSON.parse(raw)[0]).toMatchObject({ connection_id: 'b', status: 'connected', connected_at: '2026-11-22T12:00:00Z', user_id: 'u1' });

    removeLocalConnection('u1', 'b');
    removeLocalConnection('u1', 'x'); // another user's id: not in u1's list, nothing happens
    expect(readLocalConnectionsOf('u1').map((c) => c.connection_id)).toEqual(['a']);
    expect(readLocalConnectionsOf('u2').map((c) => c.connection_id)).toEqual(['x']);
    syncLocalConnections('u1', []);
    expect(readLocalConnectionsOf('u1')).toEqual([]);
    expect(readLocalConnectionsOf('u2')).toHaveLength(1);
  });

  it("never reads another account's entries, even if one were planted under this key", () => {
    localStorage.setItem(localConnectionsKey('u1'), JSON.stringify([entry('a'), entry('planted', 'u2')]));
    expect(readLocalConnectionsOf('u1').map((c) => c.connection_id)).toEqual(['a']);
  });

  it('drops the old unscoped list (it mixed accounts) and ignores it when reading', () => {
    localStorage.setItem('mcp-connections', JSON.stringify([entry('old'), entry('other', 'u2')]));
    expect(readLocalConnectionsOf('u1')).toEqual([]);
    saveLocalConnection(entry('a'));
    expect(localStorage.getItem('mcp-connections')).toBeNull();
    expect(readLocalConnectionsOf('u1').map((c) => c.connection_id)).toEqual(['a']);
  });

  it('goes with the session: clearUserData (logout, 401) removes every account’s list', () => {
    saveLocalConnection(entry('a'));
    saveLocalConnection(entry('x', 'u2'));
    clearUserData();
    expect(localStorage.length).toBe(0);
    expect(readLocalConnectionsOf('u1')).toEqual([]);
  });

  it('survives garbage in storage', () => {
    localStorage.setItem(localConnectionsKey('u1'), '{not json');
    expect(readLocalConnectionsOf('u1')).toEqual([]);
    saveLocalConnection(entry('a'));
    expect(readLocalConnectionsOf('u1')).toHaveLength(1);
  });
});
