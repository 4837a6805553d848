import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert, Button, Flex, Loader } from '@aws-amplify/ui-react';
import { AuthCard } from './auth-card';
import { ResendEmailButton } from '../../../components/resend-email-button';
import { useAuth } from '../../../lib/use-auth';
import { VERIFY_MESSAGES, verifyEmailOnce, type VerifyOutcome } from '../email-verification';
import { readUrlToken } from '../../../lib/url-secrets';

const PAGE = '/verify-email';
const LOGIN_TO_DASHBOARD = '/login?redirect=%2Fdashboard';

export const VERIFY_TITLES = {
  working: 'Confirming your email address',
  verified: 'Email address confirmed',
  failed: 'Your email address is not confirmed yet',
} as const;

/**
 * /verify-email?token=… (the link of the confirmation mail): spends the
 * link once, then says what happened and what to do next.
 */
export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  // Taken from the address at start (lib/url-secrets), else from the query.
  const [token] = useState(() => readUrlToken(PAGE, params));
  const { status, user } = useAuth();
  const signedIn = status === 'authenticated' && user !== null;
  const [outcome, setOutcome] = useState<VerifyOutcome | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!token) return;
    let active = true;
    // verifyEmailOnce sends one request per token, however often this runs.
    void verifyEmailOnce(token).then((o) => {
      if (active) setOutcome(o);
    });
    return () => {
      active = false;
    };
  }, [token, attempt]);

  if (!token && signedIn && user.is_verified) {
    // e.g. the confirmation page reloaded: the token left the address at start.
    return (
      <AuthCard title={VERIFY_TITLES.verified}>
        <Alert variation="success" role="status" className="auth-card__alert" data-testid="verify-result">
          {VERIFY_MESSAGES.alreadyVerified}
        </Alert>
        <Link to="/dashboard" className="amplify-button amplify-button--primary amplify-button--fullwidth">
          Go to your dashboard
        </Link>
      </AuthCard>
    );
  }

  if (!token) {
    return (
      <AuthCard title={VERIFY_TITLES.failed}>
        <Alert variation="error" role="alert" className="auth-card__alert" data-testid="verify-result">
          {VERIFY_MESSAGES.noToken}
        </Alert>
        <NextSteps signedIn={signedIn} verified={user?.is_verified === true} />
      </AuthCard>
    );
  }

  if (outcome === null) {
    return (
      <AuthCard title={VERIFY_TITLES.working}>
        <div className="loading-screen loading-screen--inline" role="status" aria-live="polite">
          <Loader size="large" aria-hidden="true" />
          <span>Confirming your email address...</span>
        </div>
      </AuthCard>
    );
  }

  if (outcome.kind === 'verified') {
    return (
      <AuthCard title={VERIFY_TITLES.verified}>
        <Alert variation="success" role="status" className="auth-card__alert" data-testid="verify-result">
          {outcome.detail}
        </Alert>
        {signedIn ? (
          <Flex direction="column" gap="small">
            <Link to="/dashboard" className="amplify-button amplify-button--primary amplify-button--fullwidth">
              Go to your dashboard
            </Link>
            <Link to="/marketplace">Use your free prompts</Link>
          </Flex>
        ) : (
          <Link to={LOGIN_TO_DASHBOARD} className="amplify-button amplify-button--primary amplify-button--fullwidth">
            Log in
          </Link>
        )}
      </AuthCard>
    );
  }

  return (
    <AuthCard title={VERIFY_TITLES.failed}>
      <Alert variation="error" role="alert" className="auth-card__alert" data-testid="verify-result">
        {outcome.detail}
      </Alert>
      {outcome.kind === 'failed' ? (
        <Button
          variation="primary"
          isFullWidth
          onClick={() => {
            setOutcome(null);
            setAttempt((n) => n + 1);
          }}
        >
          Try again
        </Button>
      ) : (
        <NextSteps signedIn={signedIn} verified={user?.is_verified === true} />
      )}
    </AuthCard>
  );
}

/** After a link that did not work: a new one (signed in) or the way to log in. */
function NextSteps({ signedIn, verified }: { signedIn: boolean; verified: boolean }) {
  if (!signedIn) {
    return (
      <p className="auth-card__hint">
        <Link to={LOGIN_TO_DASHBOARD}>Log in</Link> to ask for a new confirmation link from your dashboard.
      </p>
    );
  }
  if (verified) {
    return (
      <p className="auth-card__hint">
        Your email address is already confirmed. <Link to="/dashboard">Go to your dashboard</Link>
      </p>
    );
  }
  return (
    <Flex direction="column" gap="small" alignItems="flex-start">
      <span className="auth-card__hint">Send yourself a new confirmation link:</span>
      <ResendEmailButton variation="primary" />
    </Flex>
  );
}
