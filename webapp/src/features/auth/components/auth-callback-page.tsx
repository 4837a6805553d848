import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { LoadingScreen } from '../../../components/loading-screen';
import { useDocumentTitle } from '../../../components/page';
import { decideCallback, loginErrorPath } from '../callback-decision';
import { fetchMe } from '../../../lib/account-api';
import { setSession } from '../../../lib/auth-session';
import { trackLogin } from '../../../lib/analytics';
import { toast } from '../../../components/notifications/notification-store';
import { forgetUrlToken, readUrlToken } from '../../../lib/url-secrets';

const PAGE = '/auth/callback';

export const GOOGLE_SUCCESS_MESSAGE = 'Google login successful!';

/** SPEC §2 /auth/callback: processing, then the dashboard or a login error. */
export default function AuthCallbackPage() {
  useDocumentTitle('Signing in');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // The token left the address before anything ran (app/start.tsx): read it
    // from memory, and forget it once used.
    const decision = decideCallback(params, readUrlToken(PAGE, params));
    forgetUrlToken(PAGE);
    if (decision.kind === 'error') {
      navigate(loginErrorPath(decision.code), { replace: true });
      return;
    }
    fetchMe(decision.token)
      .then((user) => {
        setSession(user, decision.token);
        toast.success(GOOGLE_SUCCESS_MESSAGE);
        trackLogin('google');
        navigate('/dashboard', { replace: true });
      })
      .catch(() => navigate(loginErrorPath('token_processing_failed'), { replace: true }));
  }, [params, navigate]);

  return <LoadingScreen label="Completing Google sign-in..." />;
}
