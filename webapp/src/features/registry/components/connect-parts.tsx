import type { ReactNode } from 'react';
import { TextField } from '@aws-amplify/ui-react';
import { DetailModal } from '../../../components/detail-modal';
import type { McpServer } from '../../../lib/api/mcp-types';
import { MESSAGES } from '../messages';
import { FeatureChips, KeyIcon, OAuthBadge } from './status-badge';

// What the two ways to connect (a key: ConnectDialog; the server's own
// sign-in: SignInDialog) show alike: the frame, the endpoint override and
// the features.

interface ConnectModalProps {
  server: McpServer;
  titleId: string;
  descriptionId: string;
  /** While true the dialog cannot be closed. */
  locked: boolean;
  onClose: () => void;
  testId: string;
  footer: ReactNode;
  children: ReactNode;
}

export function ConnectModal({ server, titleId, descriptionId, locked, onClose, testId, footer, children }: ConnectModalProps) {
  return (
    <DetailModal
      titleId={titleId}
      descriptionId={descriptionId}
      title={`Connect to ${server.name}`}
      meta={
        <div className="server-card__marks">
          {server.api_key_required ? <KeyIcon /> : null}
          {server.oauth_required ? <OAuthBadge /> : null}
        </div>
      }
      onClose={() => {
        if (!locked) onClose();
      }}
      closeDisabled={locked}
      compact
      className="connect-dialog"
      testId={testId}
      footer={footer}
    >
      {children}
    </DetailModal>
  );
}

/** The optional endpoint override (SPEC §2: 'Leave empty to use default endpoint'). */
export function EndpointField({ server, value, onChange, readOnly }: { server: McpServer; value: string; onChange: (v: string) => void; readOnly: boolean }) {
  return (
    <TextField
      label="Endpoint URL"
      type="url"
      inputMode="url"
      placeholder={server.endpoint_url}
      descriptiveText={MESSAGES.useDefaultEndpoint}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      isReadOnly={readOnly}
      autoComplete="off"
      spellCheck={false}
    />
  );
}

export function SupportedFeatures({ features }: { features: string[] }) {
  if (features.length === 0) return null;
  return (
    <div className="detail-modal__section">
      <h3 className="detail-modal__section-title">Supported features</h3>
      <FeatureChips features={features} />
    </div>
  );
}
