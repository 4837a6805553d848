import type { McpServer } from '../../../lib/api/mcp-types';
import { serverStatus } from '../server-status';

/** The status dot and its text: colour never carries the meaning alone. */
export function StatusBadge({ server }: { server: Pick<McpServer, 'is_active' | 'health' | 'api_key_required' | 'oauth_required'> }) {
  const status = serverStatus(server);
  return (
    <span className={`server-status server-status--${status.tone}`} data-testid="server-status" data-status={status.key} title={status.description}>
      <span className="server-status__dot" aria-hidden="true" />
      <span className="server-status__label">{status.label}</span>
    </span>
  );
}

/** 🔑 for servers that need an API key, with a spoken label. */
export function KeyIcon() {
  return (
    <span className="server-key" role="img" aria-label="API key required" title="API key required">
      🔑
    </span>
  );
}

/** The OAuth marker, spelled out for screen readers. */
export function OAuthBadge() {
  return (
    <span className="server-chip server-chip--oauth" title="Requires sign-in with the server's OAuth">
      OAuth
    </span>
  );
}

export function ModelType({ type, emoji, label }: { type: string; emoji: string; label: string }) {
  return (
    <span className="server-type" data-model-type={type}>
      <span aria-hidden="true">{emoji}</span> {label}
    </span>
  );
}

export function FeatureChips({ features, label = 'Supported features' }: { features: readonly string[]; label?: string }) {
  if (features.length === 0) return null;
  return (
    <ul className="server-features" aria-label={label}>
      {features.map((f) => (
        <li key={f} className="server-chip">
          {f}
        </li>
      ))}
    </ul>
  );
}
