import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert, Button, Divider, Flex, PasswordField, TextField } from '@aws-amplify/ui-react';
import { AuthCard } from './auth-card';
import { GoogleButton } from './google-button';
import { validateLogin, type LoginValues } from '../validation';
import { useValidatedForm } from '../use-validated-form';
import { loginErrorMessage } from '../callback-decision';
import { postLogin, sessionFromTokenResponse } from '../api/auth-api';
import { errorMessage } from '../../../lib/api-client';
import { safeRedirect } from '../../../lib/safe-redirect';
import { setSession } from '../../../lib/auth-session';
import { trackLogin } from '../../../lib/analytics';
import { toast } from '../../../components/notifications/notification-store';

export const LOGIN_MESSAGES = {
  success: 'Login successful!',
  failure: 'Login failed',
} as const;

export default function LoginPage() {
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('redirect'));
  const queryError = loginErrorMessage(params.get('error'));

  const { values, formRef, field, checkOnSubmit } = useValidatedForm<LoginValues>({ email: '', password: '' }, validateLogin);
  const [submitting, setSubmitting] = useState(false);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (submitting) return;
    if (!checkOnSubmit()) return;
    setSubmitting(true);
    try {
      const res = await postLogin(values.email.trim(), values.password);
      const session = await sessionFromTokenResponse(res);
      if (!session) throw new Error('No access token in the login answer');
      toast.success(LOGIN_MESSAGES.success);
      trackLogin('email');
      // The route guard sends us to `target` once the session is set.
      setSession(session.user, session.token, { redirectTo: target });
    } catch (err) {
      toast.error(errorMessage(err, LOGIN_MESSAGES.failure));
      setSubmitting(false);
    }
  }

  return (
    <AuthCard
      title="Sign in"
      subtitle="Welcome back. Sign in to use your prompts, connections and chats."
      footer={
        <>
          Don&apos;t have an account? <Link to="/register">Sign up</Link>
        </>
      }
    >
      {queryError ? (
        <Alert variation="error" role="alert" className="auth-card__alert">
          {queryError}
        </Alert>
      ) : null}
      <form ref={formRef} noValidate onSubmit={onSubmit} aria-label="Sign in">
        <Flex direction="column" gap="medium">
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            {...field('email')}
          />
          <PasswordField
            label="Password"
            name="password"
            autoComplete="current-password"
            {...field('password')}
          />
          <Link to="/forgot-password" state={{ email: values.email.trim() }} className="auth-card__forgot">
            Forgot password?
          </Link>
          <Button type="submit" variation="primary" isFullWidth isLoading={submitting} loadingText="Signing in...">
            Sign in
          </Button>
        </Flex>
      </form>
      <Divider label="or" className="auth-card__divider" />
      <GoogleButton disabled={submitting} />
    </AuthCard>
  );
}
