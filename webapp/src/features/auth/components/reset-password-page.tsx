import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert, Button, Flex, PasswordField } from '@aws-amplify/ui-react';
import { AuthCard } from './auth-card';
import { validateReset, type ResetValues } from '../validation';
import { useValidatedForm } from '../use-validated-form';
import { postResetPassword, sessionFromTokenResponse } from '../api/auth-api';
import { isLinkRefusal } from '../email-verification';
import { errorMessage } from '../../../lib/api-client';
import { clearSession, getAuthState, setSession } from '../../../lib/auth-session';
import { trackLogin } from '../../../lib/analytics';
import { forgetUrlToken, readUrlToken } from '../../../lib/url-secrets';
import { toast } from '../../../components/notifications/notification-store';

const PAGE = '/reset-password';

export const RESET_MESSAGES = {
  success: 'Your password has been changed. You are signed in.',
  failure: 'Could not reset your password. Please try again.',
  noToken: 'The reset link is incomplete: it has no token. Open the whole link from the email, or ask for a new one.',
} as const;

function ForgotLink() {
  return (
    <p className="auth-card__hint">
      <Link to="/forgot-password">Forgot password?</Link> Ask for a new reset link.
    </p>
  );
}

/** /reset-password?token=… (the link of the reset mail): a new password, then signed in. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  // Taken from the address at start (lib/url-secrets), else from the query.
  const [token] = useState(() => readUrlToken(PAGE, params));
  const { values, formRef, field, checkOnSubmit } = useValidatedForm<ResetValues>({ password: '', confirmPassword: '' }, validateReset);
  const [submitting, setSubmitting] = useState(false);
  /** The server refused the link (used, expired, invalid): its words. */
  const [refusal, setRefusal] = useState<string | null>(null);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (submitting || !token) return;
    if (!checkOnSubmit()) return;
    setSubmitting(true);
    try {
      const res = await postResetPassword(token, values.password);
      const session = await sessionFromTokenResponse(res);
      if (!session) throw new Error('No access token in the reset answer');
      forgetUrlToken(PAGE);
      // Another account signed in on this browser ends here, with its data.
      const current = getAuthState().user;
      if (current && current.id !== session.user.id) clearSession();
      setSession(session.user, session.token);
      toast.success(RESET_MESSAGES.success);
      trackLogin('email');
      navigate('/dashboard', { replace: true });
    } catch (err) {
      if (isLinkRefusal(err)) {
        forgetUrlToken(PAGE);
        setRefusal(err.detail);
      } else {
        // Password rules and the like: the server's detail; the form stays.
        toast.error(errorMessage(err, RESET_MESSAGES.failure));
      }
      setSubmitting(false);
    }
  }

  const footer = (
    <>
      Remembered it? <Link to="/login">Sign in</Link>
    </>
  );

  if (!token || refusal !== null) {
    return (
      <AuthCard title="Reset your password" footer={footer}>
        <Alert variation="error" role="alert" className="auth-card__alert" data-testid="reset-refused">
          {refusal ?? RESET_MESSAGES.noToken}
        </Alert>
        <ForgotLink />
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose a new password" subtitle="Setting a new password signs you out everywhere else." footer={footer}>
      <form ref={formRef} noValidate onSubmit={onSubmit} aria-label="Choose a new password">
        <Flex direction="column" gap="medium">
          <PasswordField label="New password" name="password" autoComplete="new-password" {...field('password')} />
          <PasswordField label="Confirm new password" name="confirm_password" autoComplete="new-password" {...field('confirmPassword')} />
          <Button type="submit" variation="primary" isFullWidth isLoading={submitting} loadingText="Saving...">
            Set new password
          </Button>
        </Flex>
      </form>
    </AuthCard>
  );
}
