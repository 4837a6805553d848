import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert, Loader, Text } from '@aws-amplify/ui-react';
import { useSWRConfig } from 'swr';
import { Page } from '../../../components/page';
import { PAYMENT_SUCCESS_TOAST_MS, toast } from '../../../components/notifications/notification-store';
import { errorMessage } from '../../../lib/api-client';
import { trackPurchase } from '../../../lib/analytics';
import { verifySession } from '../api/verify-session';
import {
  DUPLICATE_REFUNDED,
  duplicateDetail,
  formatAmount,
  initialState,
  PAYMENT_MESSAGES,
  type VerificationState,
} from '../payment-messages';

// /payment/success?session_id=… (login required by the route guard): asks the
// server to verify the session — which also fulfils it when the webhook has
// not arrived yet — then shows the purchase or the failure.
export default function PaymentSuccessPage() {
  const [params] = useSearchParams();
  const sessionId = params.get('session_id');
  const [state, setState] = useState<VerificationState>(() => initialState(sessionId));
  const { mutate } = useSWRConfig();
  const started = useRef<string | null>(null);

  useEffect(() => {
    if (!sessionId || !sessionId.trim() || started.current === sessionId) return;
    started.current = sessionId;
    // Verified once per session id, even under StrictMode's double effects;
    // a late answer after unmount is dropped by React.
    verifySession(sessionId)
      .then((v) => {
        const agentId = v.kind === 'agent' ? v.agent_id : undefined;
        setState({ kind: 'verified', promptTitle: v.prompt_title, amount: v.amount, sessionId: v.session_id, status: v.status, agentId });
        if (v.status === DUPLICATE_REFUNDED) {
          // Not a purchase: the money went back (no purchase analytics).
          toast.info(agentId ? PAYMENT_MESSAGES.agentDuplicateToast : PAYMENT_MESSAGES.duplicateToast, { duration: PAYMENT_SUCCESS_TOAST_MS });
        } else {
          toast.success(agentId ? PAYMENT_MESSAGES.agentSuccessToast : PAYMENT_MESSAGES.successToast, { duration: PAYMENT_SUCCESS_TOAST_MS });
          trackPurchase({ sessionId: v.session_id, amount: v.amount, promptTitle: v.prompt_title });
        }
        // Ownership changed: refresh every cached list (prompts, owned, activities).
        void mutate(() => true);
      })
      .catch((err) => {
        setState({ kind: 'failed', detail: errorMessage(err, PAYMENT_MESSAGES.failedFallback) });
        toast.error(PAYMENT_MESSAGES.failedToast);
      });
  }, [sessionId, mutate]);

  if (state.kind === 'loading') {
    return (
      <Page title="Verifying your payment" className="page--centered">
        <div role="status" aria-live="polite" className="payment-status">
          <Loader size="large" />
          <Text>Confirming your payment with the payment provider...</Text>
        </div>
      </Page>
    );
  }

  if (state.kind === 'failed') {
    return (
      <Page title={PAYMENT_MESSAGES.failedTitle} className="page--centered">
        <Alert variation="error" role="alert">
          {state.detail}
        </Alert>
        <div className="button-row">
          <Link to="/marketplace" className="button-link button-link--primary">
            Back to prompts
          </Link>
          <Link to="/dashboard" className="button-link">
            Go to Dashboard
          </Link>
        </div>
      </Page>
    );
  }

  const duplicate = state.status === DUPLICATE_REFUNDED;
  const agentId = state.agentId;
  return (
    <Page
      title={duplicate ? PAYMENT_MESSAGES.duplicateTitle : 'Payment successful!'}
      subtitle={
        duplicate ? duplicateDetail(state.promptTitle, state.amount, Boolean(agentId)) : agentId ? PAYMENT_MESSAGES.agentReady : 'Your prompt is ready to use.'
      }
      className="page--centered"
    >
      <dl className="payment-details" data-testid="payment-details">
        <dt>{agentId ? 'Agent' : 'Prompt'}</dt>
        <dd data-testid="payment-prompt-title">{state.promptTitle}</dd>
        <dt>Amount</dt>
        <dd data-testid="payment-amount">{formatAmount(state.amount)}</dd>
        <dt>Session ID</dt>
        <dd className="payment-details__mono">{state.sessionId}</dd>
        <dt>Status</dt>
        <dd>{state.status}</dd>
      </dl>
      {agentId ? (
        <div className="button-row">
          <Link to={`/llm-chat?agent=${encodeURIComponent(agentId)}`} className="button-link button-link--primary">
            Start chat
          </Link>
          <Link to={`/agents/${encodeURIComponent(agentId)}`} className="button-link">
            Open the agent
          </Link>
          <Link to="/agents" className="button-link">
            Browse agents
          </Link>
        </div>
      ) : (
        <div className="button-row">
          <Link to="/dashboard" className="button-link button-link--primary">
            Go to Dashboard
          </Link>
          <Link to="/marketplace?filter=purchased" className="button-link">
            View your prompts
          </Link>
          <Link to="/marketplace" className="button-link">
            Browse prompts
          </Link>
        </div>
      )}
    </Page>
  );
}
