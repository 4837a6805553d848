import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { Alert, Button, Flex, TextField } from '@aws-amplify/ui-react';
import { AuthCard } from './auth-card';
import { validateForgot, type ForgotValues } from '../validation';
import { useValidatedForm } from '../use-validated-form';
import { postForgotPassword } from '../api/auth-api';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../components/notifications/notification-store';

export const FORGOT_MESSAGES = {
  /** Shown when the server's answer has no detail; says nothing about the account either. */
  sent: 'If an account exists for that email, we sent it a link to reset the password.',
  failure: 'Could not send the reset link. Please try again.',
} as const;

/** The email typed on the sign-in page, handed over in the navigation state (never in the URL). */
function emailFromState(state: unknown): string {
  if (!state || typeof state !== 'object') return '';
  const email = (state as Record<string, unknown>).email;
  return typeof email === 'string' ? email : '';
}

/**
 * /forgot-password: asks for a reset link. The answer is the server's one
 * text for every address, so the page never tells whether an account exists.
 */
export default function ForgotPasswordPage() {
  const location = useLocation();
  const { values, formRef, field, checkOnSubmit } = useValidatedForm<ForgotValues>({ email: emailFromState(location.state) }, validateForgot);
  const [submitting, setSubmitting] = useState(false);
  const [sent, setSent] = useState<string | null>(null);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (submitting) return;
    if (!checkOnSubmit()) return;
    setSubmitting(true);
    try {
      const res = await postForgotPassword(values.email.trim());
      setSent(res?.detail || FORGOT_MESSAGES.sent);
    } catch (err) {
      toast.error(errorMessage(err, FORGOT_MESSAGES.failure));
    } finally {
      setSubmitting(false);
    }
  }

  const footer = (
    <>
      Remembered it? <Link to="/login">Sign in</Link>
    </>
  );

  if (sent !== null) {
    return (
      <AuthCard title="Check your email" footer={footer}>
        <Alert variation="success" role="status" className="auth-card__alert" data-testid="forgot-sent">
          {sent}
        </Alert>
        <p className="auth-card__hint">The link works once. If nothing arrives, check your spam folder or ask again in a few minutes.</p>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Forgot your password?" subtitle="Enter the email of your account and we will send you a link to choose a new password." footer={footer}>
      <form ref={formRef} noValidate onSubmit={onSubmit} aria-label="Send a reset link">
        <Flex direction="column" gap="medium">
          <TextField label="Email" name="email" type="email" autoComplete="email" inputMode="email" {...field('email')} />
          <Button type="submit" variation="primary" isFullWidth isLoading={submitting} loadingText="Sending...">
            Send reset link
          </Button>
        </Flex>
      </form>
    </AuthCard>
  );
}
