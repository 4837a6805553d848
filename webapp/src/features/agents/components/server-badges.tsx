import type { AgentCardServer } from '../../../lib/api/agents';
import { AUTH_LABEL, AUTH_TITLE } from '../agent-text';

/** A server's auth kind as a small badge: No key / API key / OAuth. */
export function AuthBadge({ auth }: { auth: AgentCardServer['auth'] }) {
  return (
    <span className={`agent-auth agent-auth--${auth}`} title={AUTH_TITLE[auth]} data-auth={auth}>
      {AUTH_LABEL[auth]}
    </span>
  );
}

/** The agent's MCP servers, each with its auth kind. */
export function ServerBadges({ servers }: { servers: readonly AgentCardServer[] }) {
  if (servers.length === 0) return <p className="agent-card__servers agent-card__servers--none">No MCP servers</p>;
  return (
    <ul className="agent-card__servers" aria-label="MCP servers">
      {servers.map((s) => (
        <li key={s.server_id} className="agent-card__server" data-server-id={s.server_id}>
          <span>{s.name}</span> <AuthBadge auth={s.auth} />
        </li>
      ))}
    </ul>
  );
}
