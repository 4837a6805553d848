import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { Button, PasswordField } from '@aws-amplify/ui-react';
import { toast } from '../../../components/notifications/notification-store';
import { connectionLabel } from '../../../lib/connection-label';
import { useConnectMcpServer } from '../../../lib/api/mcp-connect';
import type { McpConnectResponse, McpServer } from '../../../lib/api/mcp-types';
import { buildConnectRequest, connectFailureReason, isApiKeyMissing } from '../../../lib/mcp-connect-request';
import { connectedMessage, connectFailedMessage, MESSAGES } from '../messages';
import { keyHint, toolsCountLabel } from '../server-status';
import { ConnectModal, EndpointField, SupportedFeatures } from './connect-parts';
import { ToolList } from './tool-list';

/**
 * SPEC §2 Connect dialog. Phases: input → connecting → success, or back to
 * input after a failure with everything typed kept. It cannot be closed
 * while connecting (Escape, the backdrop and both close buttons do nothing).
 */
type Phase = { kind: 'input'; failure: string | null } | { kind: 'connecting' } | { kind: 'success'; result: McpConnectResponse };

interface ConnectDialogProps {
  server: McpServer;
  /** The signed-in user (visitors never get the dialog). */
  userId: string;
  onClose: () => void;
}

export function ConnectDialog({ server, userId, onClose }: ConnectDialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const formId = useId();
  const keyHintId = useId();
  const connect = useConnectMcpServer();
  const [endpointUrl, setEndpointUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [phase, setPhase] = useState<Phase>({ kind: 'input', failure: null });
  const mounted = useRef(true);
  const successHeading = useRef<HTMLHeadingElement>(null);
  const failureRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // Move focus to what changed, so keyboard and screen-reader users follow.
  useEffect(() => {
    if (phase.kind === 'success') successHeading.current?.focus();
    else if (phase.kind === 'input' && phase.failure) failureRef.current?.focus();
  }, [phase]);

  const connecting = phase.kind === 'connecting';
  const keyMissing = isApiKeyMissing(server, apiKey);
  const close = () => {
    if (!connecting) onClose();
  };

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (connecting || keyMissing || phase.kind === 'success') return;
    setPhase({ kind: 'connecting' });
    try {
      const result = await connect(userId, buildConnectRequest(server, { endpointUrl, apiKey }));
      toast.success(connectedMessage(connectionLabel({ server_name: server.name, endpoint_host: result.endpoint_host })));
      if (mounted.current) {
        // The key is not needed any more: do not keep it in memory.
        setApiKey('');
        setPhase({ kind: 'success', result });
      }
    } catch (err) {
      const reason = connectFailureReason(err);
      toast.error(connectFailedMessage(server.name, reason));
      if (mounted.current) setPhase({ kind: 'input', failure: reason || MESSAGES.connectFailedFallback });
    }
  };

  return (
    <ConnectModal
      server={server}
      titleId={titleId}
      descriptionId={descriptionId}
      locked={connecting}
      onClose={onClose}
      testId="connect-dialog"
      footer={
        phase.kind === 'success' ? (
          <Button variation="primary" onClick={onClose}>
            Done
          </Button>
        ) : (
          <>
            <Button onClick={close} isDisabled={connecting}>
              Close
            </Button>
            <Button
              type="submit"
              form={formId}
              variation="primary"
              isDisabled={keyMissing || connecting}
              aria-describedby={keyMissing ? keyHintId : undefined}
            >
              {connecting ? MESSAGES.connecting : 'Connect'}
            </Button>
          </>
        )
      }
    >

      {phase.kind === 'success' ? (
        <ConnectSuccess server={server} result={phase.result} headingRef={successHeading} descriptionId={descriptionId} />
      ) : (
        <form id={formId} className="detail-modal__body connect-dialog__form" onSubmit={(e) => void submit(e)} noValidate aria-busy={connecting}>
          <p id={descriptionId} className="detail-modal__description">
            {server.description || 'No description.'}
          </p>
          <EndpointField server={server} value={endpointUrl} onChange={setEndpointUrl} readOnly={connecting} />
          <PasswordField
            label="API Key"
            className={server.api_key_required ? 'connect-dialog__key connect-dialog__key--required' : 'connect-dialog__key'}
            isRequired={server.api_key_required}
            value={apiKey}
            onChange={(e) => setApiKey(e.target.value)}
            isReadOnly={connecting}
            autoComplete="off"
            spellCheck={false}
            descriptiveText={
              server.api_key_required
                ? 'Required. Sent once to connect; stored encrypted and shown only by its last 4 characters.'
                : server.oauth_required
                  ? 'Optional. This server signs in with its own OAuth, which is not supported here yet.'
                  : 'Optional. Only if you have one for this server.'
            }
          />
          {keyMissing ? (
            <p id={keyHintId} className="connect-dialog__hint" data-testid="api-key-required">
              {MESSAGES.apiKeyRequired}
            </p>
          ) : null}
          <SupportedFeatures features={server.supported_features} />
          {phase.kind === 'input' && phase.failure ? (
            <div ref={failureRef} tabIndex={-1} className="registry-inline-error" data-testid="connect-failure">
              <strong>Connection failed.</strong> {phase.failure}
            </div>
          ) : null}
          {connecting ? (
            <p className="registry-loading" role="status">
              Connecting to {server.name}… this can take up to 15 seconds.
            </p>
          ) : null}
        </form>
      )}
    </ConnectModal>
  );
}

function ConnectSuccess({
  server,
  result,
  headingRef,
  descriptionId,
}: {
  server: McpServer;
  result: McpConnectResponse;
  headingRef: RefObject<HTMLHeadingElement | null>;
  descriptionId: string;
}) {
  const info = result.server_info;
  const hint = keyHint(result);
  return (
    <div className="detail-modal__body" data-testid="connect-success">
      <h3 ref={headingRef} tabIndex={-1} className="connect-dialog__success-title">
        <span aria-hidden="true">✓ </span>Connected to {connectionLabel({ server_name: server.name, endpoint_host: result.endpoint_host })}
      </h3>
      <p id={descriptionId} className="detail-modal__description">
        {info.title || info.name || result.server_name}
        {info.version ? ` ${info.version}` : ''}
        {result.protocol_version ? ` · protocol ${result.protocol_version}` : ''}
        {result.transport ? ` · ${result.transport === 'sse' ? 'SSE' : 'Streamable HTTP'}` : ''}
        {hint ? ` · ${hint}` : ''}. It is listed under My connections.
      </p>
      <section className="detail-modal__section" aria-label="Tools the server reported">
        <h4 className="detail-modal__section-title">Tools the server reported: {toolsCountLabel(result.tools.length)}</h4>
        {result.tools.length > 0 ? <ToolList tools={result.tools} label="Tools the server reported" /> : <p className="registry-muted">The server reported no tools.</p>}
      </section>
    </div>
  );
}
