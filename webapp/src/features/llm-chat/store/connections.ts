// Chat connections (SPEC §4): one per provider and model, made on demand
// (the first send, Connect, a change of model) and reused while the reuse
// rule holds. Concurrent asks for the same one share a single request; the
// outcome is told in the chat's toast; a connect still running when the
// session ends is aborted and its answer dropped.

import { errorMessage } from '../../../lib/api-client';
import { connectProvider, type ChatConnection } from '../api/connect';
import { canReuseConnection, CONNECTION_FAILED, connectedMessage, connectionKey } from '../connection';
import type { ProviderId } from '../providers';
import { setSnap, type Session } from './session';
import { chatError, chatSuccess } from './toasts';

/** Keeps (or, with null, forgets) the connection for `key`. A new one may start summaries. */
export function storeConnection(s: Session, key: string, connection: ChatConnection | null): void {
  const connections = { ...s.snap.connections };
  if (connection) connections[key] = connection;
  else delete connections[key];
  setSnap(s, { connections });
  if (connection) s.hooks.afterChange(s);
}

function bumpConnecting(s: Session, key: string, delta: number): void {
  const n = (s.snap.connecting[key] ?? 0) + delta;
  const connecting = { ...s.snap.connecting };
  if (n > 0) connecting[key] = n;
  else delete connecting[key];
  setSnap(s, { connecting });
}

/** The kept connection for this provider and model when the reuse rule allows it; else null. */
export function reusableConnection(s: Session, provider: ProviderId, model: string): ChatConnection | null {
  const connection = s.snap.connections[connectionKey(provider, model)];
  return canReuseConnection(connection, provider, model) ? connection : null;
}

/**
 * The connection for `provider` and `model`: the one kept when it may be
 * reused (unless `force`), else a new one. null when connecting failed (a
 * toast says why; with `force` the old one is forgotten) or the session ended.
 */
export function connectTo(s: Session, provider: ProviderId, model: string, force = false): Promise<ChatConnection | null> {
  const key = connectionKey(provider, model);
  const existing = reusableConnection(s, provider, model);
  if (!force && existing) return Promise.resolve(existing);
  const pending = s.inflight.get(key);
  if (pending) return pending;
  const run = (async () => {
    bumpConnecting(s, key, 1);
    try {
      const connection = await connectProvider(provider, model, s.lifetime.signal);
      if (s.ended) return null;
      storeConnection(s, key, connection);
      chatSuccess(connectedMessage(connection.server_name));
      return connection;
    } catch (error) {
      if (s.ended) return null;
      if (force) storeConnection(s, key, null);
      chatError(errorMessage(error, CONNECTION_FAILED));
      return null;
    } finally {
      s.inflight.delete(key);
      bumpConnecting(s, key, -1);
    }
  })();
  s.inflight.set(key, run);
  return run;
}
