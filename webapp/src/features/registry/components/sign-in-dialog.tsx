import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@aws-amplify/ui-react';
import { toast } from '../../../components/notifications/notification-store';
import { browserLocation } from '../../../lib/browser-location';
import { requestSignIn, signInHost, type SignInStart } from '../../../lib/api/mcp-sign-in';
import type { McpServer } from '../../../lib/api/mcp-types';
import { connectFailureReason } from '../../../lib/mcp-connect-request';
import { connectFailedMessage, MESSAGES, signInLabel } from '../messages';
import { ConnectModal, EndpointField, SupportedFeatures } from './connect-parts';

/**
 * Connecting a server that signs users in with its own OAuth (MCP
 * authorization): no key field. On open the sign-in is prepared for the
 * default endpoint, so the dialog can say where the user will sign in and
 * what the product asks to be allowed (the scopes); "Sign in with {server}"
 * then leaves for the server's page. An endpoint override is prepared on
 * click instead.
 */
type Phase =
  | { kind: 'preparing' }
  | { kind: 'ready'; start: SignInStart | null }
  | { kind: 'failed'; reason: string }
  | { kind: 'leaving' };

interface SignInDialogProps {
  server: McpServer;
  /** The endpoint a "Sign in again" keeps; empty for the server's default. */
  endpointUrl?: string;
  onClose: () => void;
}

export function SignInDialog({ server, endpointUrl: initialEndpoint = '', onClose }: SignInDialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const formId = useId();
  const [endpointUrl, setEndpointUrl] = useState(initialEndpoint);
  const [phase, setPhase] = useState<Phase>({ kind: 'preparing' });
  const mounted = useRef(true);
  const prepared = useRef(false);
  const failureRef = useRef<HTMLDivElement>(null);

  const prepare = useCallback(
    async (endpoint: string): Promise<SignInStart | null> => {
      setPhase({ kind: 'preparing' });
      try {
        const start = await requestSignIn(server.id, endpoint);
        if (mounted.current) setPhase({ kind: 'ready', start });
        return start;
      } catch (err) {
        const reason = connectFailureReason(err) || MESSAGES.connectFailedFallback;
        toast.error(connectFailedMessage(server.name, reason));
        if (mounted.current) setPhase({ kind: 'failed', reason });
        return null;
      }
    },
    [server.id, server.name],
  );

  useEffect(() => {
    mounted.current = true;
    // Once per dialog (StrictMode runs effects twice in development).
    if (!prepared.current) {
      prepared.current = true;
      void prepare(initialEndpoint);
    }
    return () => {
      mounted.current = false;
    };
  }, [prepare, initialEndpoint]);

  useEffect(() => {
    if (phase.kind === 'failed') failureRef.current?.focus();
  }, [phase]);

  const busy = phase.kind === 'preparing' || phase.kind === 'leaving';
  const close = () => {
    if (phase.kind !== 'leaving') onClose();
  };

  const signIn = async (e?: FormEvent) => {
    e?.preventDefault();
    if (busy) return;
    const start = phase.kind === 'ready' && phase.start ? phase.start : await prepare(endpointUrl);
    if (!start || !mounted.current) return;
    setPhase({ kind: 'leaving' });
    browserLocation.assign(start.authorization_url);
  };

  const start = phase.kind === 'ready' ? phase.start : null;
  const host = start ? signInHost(start.authorization_url) : '';

  return (
    <ConnectModal
      server={server}
      titleId={titleId}
      descriptionId={descriptionId}
      locked={phase.kind === 'leaving'}
      onClose={onClose}
      testId="sign-in-dialog"
      footer={
        <>
          <Button onClick={close} isDisabled={phase.kind === 'leaving'}>
            Close
          </Button>
          {phase.kind === 'failed' ? (
            <Button onClick={() => void prepare(endpointUrl)}>Try again</Button>
          ) : null}
          <Button type="submit" form={formId} variation="primary" isDisabled={busy || phase.kind === 'failed'} isLoading={busy} loadingText={phase.kind === 'leaving' ? MESSAGES.signInLeaving : MESSAGES.signInPreparing}>
            {signInLabel(server.name)}
          </Button>
        </>
      }
    >
      <form id={formId} className="detail-modal__body connect-dialog__form" onSubmit={(e) => void signIn(e)} noValidate aria-busy={busy}>
        <p id={descriptionId} className="detail-modal__description">
          {server.description || 'No description.'}
        </p>
        <div className="sign-in-dialog__explain" data-testid="sign-in-explain">
          <p>
            You will be sent to {server.name}’s own sign-in page{host ? <> on <strong>{host}</strong></> : null}. After you approve, you come back here
            connected. Your password stays with {server.name}; we keep only the access it grants, encrypted.
          </p>
          {start ? (
            start.scopes.length > 0 ? (
              <div data-testid="sign-in-scopes">
                <p>AIWork asks to be allowed:</p>
                <ul className="sign-in-dialog__scopes">
                  {start.scopes.map((s) => (
                    <li key={s}>
                      <code>{s}</code>
                    </li>
                  ))}
                </ul>
              </div>
            ) : (
              <p data-testid="sign-in-scopes">{server.name} names no scopes: it grants what its sign-in page shows you.</p>
            )
          ) : null}
        </div>
        <EndpointField
          server={server}
          value={endpointUrl}
          onChange={(v) => {
            setEndpointUrl(v);
            // A prepared sign-in is for the endpoint it was made for.
            if (phase.kind === 'ready' || phase.kind === 'failed') setPhase({ kind: 'ready', start: null });
          }}
          readOnly={busy}
        />
        <SupportedFeatures features={server.supported_features} />
        {phase.kind === 'failed' ? (
          <div ref={failureRef} tabIndex={-1} className="registry-inline-error" data-testid="connect-failure">
            <strong>Sign-in is not possible.</strong> {phase.reason}
          </div>
        ) : null}
        {phase.kind === 'preparing' ? (
          <p className="registry-loading" role="status">
            Asking {server.name} how to sign in…
          </p>
        ) : null}
      </form>
    </ConnectModal>
  );
}
