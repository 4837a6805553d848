// SPEC §4 "Chat connection": idle, connecting, connected; an existing
// connection is reused if the model matches and the server name contains
// the provider's first label word.

import type { ChatConnection } from './api/connect';
import { firstLabelWord, type ProviderId } from './providers';

export type ConnectionStatus = 'idle' | 'connecting' | 'connected';

export const STATUS_TEXT: Readonly<Record<ConnectionStatus, string>> = {
  idle: 'Idle',
  connecting: 'Connecting...',
  connected: 'Connected',
};

export const CONNECTION_FAILED = 'Connection failed';

export function connectedMessage(serverName: string): string {
  return `Connected to ${serverName}`;
}

/** Connections are kept per provider and model. */
export function connectionKey(provider: ProviderId, model: string): string {
  return `${provider}:${model}`;
}

/** The reuse rule (the label word is matched in any letter case). */
export function canReuseConnection(connection: ChatConnection | null | undefined, provider: ProviderId, model: string): boolean {
  if (!connection) return false;
  return connection.model === model && connection.server_name.toLowerCase().includes(firstLabelWord(provider).toLowerCase());
}

export function connectionStatus(connecting: boolean, connection: ChatConnection | null | undefined, provider: ProviderId, model: string): ConnectionStatus {
  if (connecting) return 'connecting';
  return canReuseConnection(connection, provider, model) ? 'connected' : 'idle';
}
