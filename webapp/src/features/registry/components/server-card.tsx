import { useId } from 'react';
import { Button } from '@aws-amplify/ui-react';
import { CardSkeleton } from '../../../components/listing/listing';
import type { McpServer } from '../../../lib/api/mcp-types';
import { MESSAGES, signInLabel } from '../messages';
import { modelTypeEmoji, modelTypeLabel } from '../model-types';
import { checkedLabel, formatLatency, isHttpUrl, knowsTools, relativePhrase, signsIn, toolsChangedRecently, toolsCountLabel } from '../server-status';
import { FeatureChips, KeyIcon, ModelType, OAuthBadge, StatusBadge } from './status-badge';

export interface ServerCardHandlers {
  onCopy: (server: McpServer) => void;
  onDetails: (server: McpServer) => void;
  onConnect: (server: McpServer) => void;
}

interface ServerCardProps extends ServerCardHandlers {
  server: McpServer;
  /** Now, for the relative times. */
  now: number;
  /** The signed-in user has a connection to this server. */
  connected: boolean;
}

export function ServerCard({ server, now, connected, onCopy, onDetails, onConnect }: ServerCardProps) {
  const titleId = useId();
  const newTabId = useId();
  const inactiveId = useId();
  const latency = server.health.status === 'up' ? formatLatency(server.health.latency_ms) : '';
  const changed = toolsChangedRecently(server.tools_changed_at, now);
  const canOpen = isHttpUrl(server.endpoint_url);

  return (
    <article className="server-card" data-testid="server-card" data-server-id={server.id} aria-labelledby={titleId}>
      <div className="server-card__top">
        <h3 id={titleId} className="server-card__title">
          {server.name}
        </h3>
        <div className="server-card__marks">
          {server.api_key_required ? <KeyIcon /> : null}
          {server.oauth_required ? <OAuthBadge /> : null}
          <StatusBadge server={server} />
        </div>
      </div>
      {server.description ? <p className="server-card__description">{server.description}</p> : null}
      <div className="server-card__meta">
        <ModelType type={server.model_type} emoji={modelTypeEmoji(server.model_type)} label={modelTypeLabel(server.model_type)} />
        {connected ? (
          <span className="server-chip server-chip--connected" data-testid="connected-badge">
            Connected
          </span>
        ) : null}
        {changed ? (
          <span className="server-chip server-chip--changed" title={`The tool list changed ${relativePhrase(server.tools_changed_at, now)}`}>
            Tools changed
          </span>
        ) : null}
      </div>
      <code className="server-endpoint" data-testid="server-endpoint">
        {server.endpoint_url}
      </code>
      <FeatureChips features={server.supported_features} />
      <p className="server-card__health" data-testid="server-health">
        {/* The list's cards carry no probe time (it moves at every probe); the details show it. */}
        {server.health.checked_at || server.health.status === 'unknown' ? <span>{checkedLabel(server.health.checked_at, now)}</span> : null}
        {knowsTools(server) ? <span>{toolsCountLabel(server.health.tools_count)}</span> : null}
        {latency ? <span>{latency}</span> : null}
      </p>
      <div className="server-card__actions">
        <Button size="small" onClick={() => onCopy(server)} aria-describedby={titleId}>
          Copy
        </Button>
        {canOpen ? (
          <>
            <a
              className="amplify-button amplify-button--small server-card__open"
              href={server.endpoint_url}
              target="_blank"
              rel="noopener noreferrer"
              aria-describedby={`${titleId} ${newTabId}`}
            >
              Open
            </a>
            <span id={newTabId} hidden>
              Opens in a new tab
            </span>
          </>
        ) : null}
        <Button size="small" onClick={() => onDetails(server)} aria-describedby={titleId}>
          Details
        </Button>
        <Button
          size="small"
          variation="primary"
          isDisabled={!server.is_active}
          onClick={() => onConnect(server)}
          aria-describedby={server.is_active ? titleId : `${titleId} ${inactiveId}`}
        >
          {signsIn(server) ? signInLabel(server.name) : 'Connect'}
        </Button>
        {!server.is_active ? (
          <span id={inactiveId} className="server-card__note">
            {MESSAGES.inactiveServer}
          </span>
        ) : null}
      </div>
    </article>
  );
}

/** One loading placeholder in the card's shape: name, description, type, endpoint, health. */
export function ServerCardSkeleton() {
  return (
    <CardSkeleton
      className="server-card server-card--skeleton"
      testId="server-card-skeleton"
      parts={['title', 'line', 'line', 'short', 'block', 'short']}
    />
  );
}
