import { useId } from 'react';
import { Button, Loader } from '@aws-amplify/ui-react';
import { DetailModal } from '../../../components/detail-modal';
import { errorMessage } from '../../../lib/api-client';
import type { McpServer } from '../../../lib/api/mcp-types';
import { useMcpServer } from '../api/use-mcp-server';
import { MESSAGES, signInLabel } from '../messages';
import { modelTypeEmoji, modelTypeLabel } from '../model-types';
import { checkedLabel, formatLatency, isHttpUrl, relativePhrase, serverStatus, signsIn, toolsChangedRecently } from '../server-status';
import { FeatureChips, KeyIcon, ModelType, OAuthBadge, StatusBadge } from './status-badge';
import { ToolList } from './tool-list';

interface ServerDetailsModalProps {
  /** The list entry: shown at once while the details load. */
  server: McpServer;
  now: number;
  onClose: () => void;
  onConnect: (server: McpServer) => void;
}

function noToolsText(server: McpServer): string {
  switch (serverStatus(server).key) {
    case 'needs-key':
      return 'This server lists its tools only with an API key; you will see them after connecting.';
    case 'needs-sign-in':
      return 'This server lists its tools only after sign-in with its OAuth; you will see them after signing in.';
    case 'down':
      return 'The server did not answer the last check, so its tools are not known.';
    case 'unknown':
      return 'The server has not been checked yet.';
    default:
      return 'The server reported no tools.';
  }
}

/**
 * GET /mcp-servers/{id}: what a server offers, before connecting: its
 * self-description and its tools with the read-only / destructive hints.
 */
export function ServerDetailsModal({ server: entry, now, onClose, onConnect }: ServerDetailsModalProps) {
  const titleId = useId();
  const descriptionId = useId();
  const details = useMcpServer(entry.id);
  // The fresh details win over the list entry once they arrive.
  const server: McpServer = details.data ?? entry;
  const info = details.data?.server_info ?? null;
  const tools = details.data?.tools ?? [];
  const latency = formatLatency(server.health.latency_ms);
  const changed = toolsChangedRecently(server.tools_changed_at, now);

  return (
    <DetailModal
      titleId={titleId}
      descriptionId={descriptionId}
      title={server.name}
      meta={
        <div className="server-card__marks">
          <StatusBadge server={server} />
          {server.api_key_required ? <KeyIcon /> : null}
          {server.oauth_required ? <OAuthBadge /> : null}
          <ModelType type={server.model_type} emoji={modelTypeEmoji(server.model_type)} label={modelTypeLabel(server.model_type)} />
        </div>
      }
      onClose={onClose}
      compact
      className="server-details"
      testId="server-details"
      footer={
        <>
          <Button onClick={onClose}>Close</Button>
          <Button variation="primary" isDisabled={!server.is_active} onClick={() => onConnect(server)}>
            {signsIn(server) ? signInLabel(server.name) : 'Connect'}
          </Button>
        </>
      }
    >
      <div className="detail-modal__body">
        <p id={descriptionId} className="detail-modal__description">
          {server.description || 'No description.'}
        </p>

        <dl className="server-facts">
          <div>
            <dt>Endpoint</dt>
            <dd>
              <code className="server-endpoint">{server.endpoint_url}</code>
            </dd>
          </div>
          <div>
            <dt>Transport</dt>
            <dd>{server.transport === 'sse' ? 'SSE' : 'Streamable HTTP'}</dd>
          </div>
          <div>
            <dt>Health</dt>
            <dd>
              {checkedLabel(server.health.checked_at, now)}
              {latency ? ` · ${latency}` : ''}
              {server.health.detail ? <span className="server-facts__detail">{server.health.detail}</span> : null}
            </dd>
          </div>
          {server.health.protocol_version ? (
            <div>
              <dt>Protocol</dt>
              <dd>{server.health.protocol_version}</dd>
            </div>
          ) : null}
          {server.registry_name ? (
            <div>
              <dt>Registry name</dt>
              <dd>
                <code>{server.registry_name}</code>
              </dd>
            </div>
          ) : null}
          {changed ? (
            <div>
              <dt>Tools changed</dt>
              <dd>{relativePhrase(server.tools_changed_at, now)}</dd>
            </div>
          ) : null}
        </dl>

        <FeatureChips features={server.supported_features} />

        {isHttpUrl(server.website_url) || isHttpUrl(server.repository) ? (
          <p className="server-links">
            {isHttpUrl(server.website_url) ? (
              <a href={server.website_url} target="_blank" rel="noopener noreferrer">
                Website
              </a>
            ) : null}
            {isHttpUrl(server.repository) ? (
              <a href={server.repository} target="_blank" rel="noopener noreferrer">
                Source repository
              </a>
            ) : null}
          </p>
        ) : null}

        {details.error !== undefined && !details.data ? (
          <div className="registry-inline-error" data-testid="details-error">
            <p>{errorMessage(details.error, MESSAGES.detailsFailed)}</p>
            <Button size="small" onClick={() => void details.mutate()}>
              Retry
            </Button>
          </div>
        ) : !details.data ? (
          <div className="registry-loading" role="status" aria-label="Loading server details">
            <Loader size="small" /> Loading what this server offers…
          </div>
        ) : (
          <>
            <section className="detail-modal__section" aria-labelledby={`${titleId}-info`}>
              <h3 id={`${titleId}-info`} className="detail-modal__section-title">
                Server info
              </h3>
              {info ? (
                <p data-testid="server-info">
                  <strong>{info.title || info.name}</strong>
                  {info.title && info.name && info.title !== info.name ? <> (<code>{info.name}</code>)</> : null}
                  {info.version ? <> · version {info.version}</> : null}
                </p>
              ) : (
                <p className="registry-muted">Not reported yet.</p>
              )}
            </section>
            <section className="detail-modal__section" aria-labelledby={`${titleId}-tools`}>
              <h3 id={`${titleId}-tools`} className="detail-modal__section-title">
                Tools ({tools.length})
              </h3>
              {tools.length > 0 ? <ToolList tools={tools} /> : <p className="registry-muted">{noToolsText(server)}</p>}
            </section>
          </>
        )}
      </div>
    </DetailModal>
  );
}
