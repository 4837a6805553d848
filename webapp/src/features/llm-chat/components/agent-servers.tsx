// The panel of a chat tab bound to a marketplace agent: each of the agent's
// MCP servers, "Connected" or how to connect it as the registry does
// (Connect: at once for a server without a key, with the key typed here
// for one that needs it; Sign in: the server's own page, coming back to the
// chat), and the agent's starter prompts as buttons that send them.

import { useState, type FormEvent } from 'react';
import { useConnectMcpServer } from '../../../lib/api/mcp-connect';
import { normaliseServerDetail } from '../../../lib/api/mcp-normalise';
import { requestSignIn } from '../../../lib/api/mcp-sign-in';
import { apiRequest } from '../../../lib/api-client';
import type { Agent, AgentServer } from '../../../lib/api/agents';
import { browserLocation } from '../../../lib/browser-location';
import { buildConnectRequest, connectFailureReason } from '../../../lib/mcp-connect-request';

/** The agent's servers this user is connected to: server id → connection id. */
export type AgentConnections = ReadonlyMap<string, string>;

const AUTH_TEXT: Record<AgentServer['auth'], string> = { none: 'No key', key: 'API key', oauth: 'OAuth' };

interface AgentServersProps {
  agent: Agent;
  connections: AgentConnections;
  /** The signed-in user (the local copy of a connection is theirs). */
  userId: string;
  /** A server was connected: the lists are read again. */
  onConnected: () => void;
  /** Starters show while the conversation is empty; a click sends one. */
  showStarters: boolean;
  onStarter: (text: string) => void;
  busy: boolean;
}

export function AgentServers({ agent, connections, userId, onConnected, showStarters, onStarter, busy }: AgentServersProps) {
  return (
    <div className="chat-agent" data-testid="agent-panel">
      {agent.servers.length > 0 ? (
        <section className="chat-agent__servers" data-testid="agent-servers" aria-label={`${agent.name}: MCP servers`}>
          <p className="chat-agent__lead">
            {agent.name} uses these MCP servers. Connect them before your first message: their tools are offered only once connected.
          </p>
          <ul className="chat-agent__list">
            {agent.servers.map((s) => (
              <ServerRow key={s.server_id} server={s} connected={connections.has(s.server_id)} userId={userId} onConnected={onConnected} />
            ))}
          </ul>
        </section>
      ) : null}
      {showStarters && agent.starters.length > 0 ? (
        <div className="chat-agent__starters" role="group" aria-label="Starter prompts" data-testid="agent-starters">
          {agent.starters.map((text) => (
            <button key={text} type="button" className="chat-button chat-agent__starter" disabled={busy} onClick={() => onStarter(text)}>
              {text}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}

/** The registry's entry of a server: its endpoint and model type, which a connection request names. */
async function registryEntry(serverId: string) {
  const server = normaliseServerDetail(await apiRequest(`/mcp-servers/${encodeURIComponent(serverId)}`));
  if (!server) throw new Error('The registry did not describe this server.');
  return server;
}

function ServerRow({ server, connected, userId, onConnected }: { server: AgentServer; connected: boolean; userId: string; onConnected: () => void }) {
  const connect = useConnectMcpServer();
  const [askingKey, setAskingKey] = useState(false);
  const [apiKey, setApiKey] = useState('');
  const [working, setWorking] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const run = async (key: string) => {
    setWorking(true);
    setFailure(null);
    try {
      const entry = await registryEntry(server.server_id);
      await connect(userId, buildConnectRequest(entry, { endpointUrl: '', apiKey: key }));
      setApiKey('');
      setAskingKey(false);
      onConnected();
    } catch (err) {
      setFailure(connectFailureReason(err) || 'Connection failed.');
    } finally {
      setWorking(false);
    }
  };

  const signIn = async () => {
    setWorking(true);
    setFailure(null);
    try {
      const start = await requestSignIn(server.server_id, '', 'chat');
      browserLocation.assign(start.authorization_url);
    } catch (err) {
      setFailure(connectFailureReason(err) || 'Sign-in is not possible now.');
      setWorking(false);
    }
  };

  const submitKey = (e: FormEvent) => {
    e.preventDefault();
    if (apiKey.trim() && !working) void run(apiKey);
  };

  return (
    <li className="chat-agent__server" data-server-id={server.server_id}>
      <span className="chat-agent__name">{server.name}</span>
      <span className="chat-agent__auth">{AUTH_TEXT[server.auth]}</span>
      {server.tools.length > 0 ? <span className="chat-agent__tools">Tools: {server.tools.join(', ')}</span> : null}
      {/* Polite: a screen reader hears "Connected" when the button it pressed gives way to it. */}
      <span className="chat-agent__action" aria-live="polite">
        {connected ? (
          <span className="chat-agent__connected">Connected</span>
        ) : server.auth === 'oauth' ? (
          <button type="button" className="chat-button" disabled={working} onClick={() => void signIn()}>
            {working ? 'Opening…' : 'Sign in'}
          </button>
        ) : server.auth === 'key' && askingKey ? (
          <form className="chat-agent__key" onSubmit={submitKey}>
            <label>
              <span className="chat-agent__key-label">API key for {server.name}</span>
              <input type="password" value={apiKey} onChange={(e) => setApiKey(e.target.value)} autoComplete="off" spellCheck={false} readOnly={working} autoFocus />
            </label>
            <button type="submit" className="chat-button" disabled={working || !apiKey.trim()}>
              {working ? 'Connecting...' : 'Connect'}
            </button>
            <button type="button" className="chat-button" disabled={working} onClick={() => setAskingKey(false)}>
              Cancel
            </button>
          </form>
        ) : (
          <button
            type="button"
            className="chat-button"
            disabled={working}
            onClick={() => (server.auth === 'key' ? setAskingKey(true) : void run(''))}
          >
            {working ? 'Connecting...' : 'Connect'}
          </button>
        )}
      </span>
      {failure ? (
        <p className="chat-agent__failure" role="alert">
          Could not connect {server.name}: {failure}
        </p>
      ) : null}
    </li>
  );
}
