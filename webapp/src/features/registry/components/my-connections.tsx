import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '@aws-amplify/ui-react';
import { toast } from '../../../components/notifications/notification-store';
import { errorMessage } from '../../../lib/api-client';
import { connectionLabel } from '../../../lib/connection-label';
import { useDisconnectMcpConnection } from '../api/disconnect-mcp-connection';
import type { McpConnection } from '../../../lib/api/types';
import type { McpServer } from '../../../lib/api/mcp-types';
import { useMcpConnections } from '../../../lib/api/use-mcp-connections';
import { syncLocalConnections } from '../../../lib/local-connections';
import { disconnectedMessage, disconnectFailedMessage, MESSAGES } from '../messages';
import { modelTypeEmoji, modelTypeLabel } from '../model-types';
import { keyHint, relativePhrase, toolsCountLabel } from '../server-status';

interface MyConnectionsProps {
  now: number;
  /** The registry's entries, to sign in again to a connection's server. */
  servers: McpServer[];
  onSignInAgain: (server: McpServer, endpointUrl: string) => void;
}

/** "My connections": the signed-in user's connections, each with Disconnect (and Sign in again when its sign-in lapsed). */
export function MyConnections({ now, servers, onSignInAgain }: MyConnectionsProps) {
  const headingId = useId();
  const list = useMcpConnections();
  const disconnect = useDisconnectMcpConnection();
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // Keep the local copy (SPEC §3) in step with the server's list.
  const { userId, data } = list;
  useEffect(() => {
    if (userId && data) syncLocalConnections(userId, data.map((c) => c.connection_id));
  }, [userId, data]);

  if (!userId) return null;

  const onDisconnect = async (c: McpConnection) => {
    setPending((p) => new Set(p).add(c.connection_id));
    try {
      await disconnect(userId, c.connection_id);
      toast.success(disconnectedMessage(connectionLabel(c)));
    } catch (err) {
      toast.error(disconnectFailedMessage(connectionLabel(c), errorMessage(err, 'Please try again.')));
    } finally {
      if (mounted.current) {
        setPending((p) => {
          const next = new Set(p);
          next.delete(c.connection_id);
          return next;
        });
      }
    }
  };

  return (
    <section className="my-connections" aria-labelledby={headingId} data-testid="my-connections">
      <h2 id={headingId} className="my-connections__title">
        My connections
        {list.data && list.data.length > 0 ? (
          <>
            {' '}
            <span className="my-connections__count">({list.data.length})</span>
          </>
        ) : null}
      </h2>
      {list.error !== undefined && !list.data ? (
        <div className="registry-inline-error">
          <p>{errorMessage(list.error, MESSAGES.connectionsFailed)}</p>
          <Button size="small" onClick={() => void list.mutate()}>
            Retry
          </Button>
        </div>
      ) : !list.data ? (
        <div role="status" aria-label="Loading your connections" className="my-connections__loading">
          <span className="skeleton-line" />
          <span className="skeleton-line skeleton-line--short" />
        </div>
      ) : list.data.length === 0 ? (
        <p className="registry-muted" data-testid="connections-empty">
          {MESSAGES.noConnections}
        </p>
      ) : (
        <ul className="my-connections__list">
          {list.data.map((c) => (
            <ConnectionItem
              key={c.connection_id}
              connection={c}
              now={now}
              busy={pending.has(c.connection_id)}
              onDisconnect={onDisconnect}
              server={servers.find((s) => s.id === c.server_id)}
              onSignInAgain={onSignInAgain}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function ConnectionItem({
  connection: c,
  now,
  busy,
  onDisconnect,
  server,
  onSignInAgain,
}: {
  connection: McpConnection;
  now: number;
  busy: boolean;
  onDisconnect: (c: McpConnection) => void;
  /** Its registry entry, when still listed. */
  server: McpServer | undefined;
  onSignInAgain: (server: McpServer, endpointUrl: string) => void;
}) {
  const nameId = useId();
  const noticeId = useId();
  const hint = c.oauth ? MESSAGES.signedIn : keyHint(c);
  // The entry's default endpoint is kept as "use the default".
  const endpointOverride = server && c.endpoint_url !== server.endpoint_url ? c.endpoint_url : '';
  const when = relativePhrase(c.connected_at, now);
  return (
    <li className="connection" data-testid="connection" data-connection-id={c.connection_id} data-server-id={c.server_id}>
      <div className="connection__main">
        <div className="connection__head">
          <strong id={nameId} className="connection__name">
            {connectionLabel(c)}
          </strong>
          {c.model_type ? (
            <span className="server-type">
              <span aria-hidden="true">{modelTypeEmoji(c.model_type)}</span> {modelTypeLabel(c.model_type)}
            </span>
          ) : null}
        </div>
        <p className="connection__meta">
          <span>{toolsCountLabel(c.tools_count)}</span>
          {when ? <span>Connected {when}</span> : null}
          {hint ? <span data-testid="key-hint">{hint}</span> : null}
        </p>
        <code className="server-endpoint">{c.endpoint_url}</code>
        {c.needs_sign_in ? (
          <p id={noticeId} className="connection__notice" data-testid="needs-sign-in">
            {MESSAGES.needsSignIn}
          </p>
        ) : null}
      </div>
      <div className="connection__actions">
        {c.needs_sign_in && server ? (
          <Button size="small" variation="primary" onClick={() => onSignInAgain(server, endpointOverride)} aria-describedby={`${nameId} ${noticeId}`}>
            {MESSAGES.signInAgain}
          </Button>
        ) : null}
        <Button size="small" onClick={() => onDisconnect(c)} isDisabled={busy} aria-describedby={nameId}>
          {busy ? 'Disconnecting...' : 'Disconnect'}
        </Button>
      </div>
    </li>
  );
}
