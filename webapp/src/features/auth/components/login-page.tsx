import { useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert, Button, Divider, Flex, PasswordField, TextField } from '@aws-amplify/ui-react';
import { AuthCard } from './auth-card';
import { GoogleButton } from './google-button';
import { BLUR_ERROR_DELAY_MS, hasErrors, validateLogin, type LoginValues } from '../validation';
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

  const [values, setValues] = useState<LoginValues>({ email: '', password: '' });
  const [touched, setTouched] = useState<Partial<Record<keyof LoginValues, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const errors = validateLogin(values);
  const shown = (field: keyof LoginValues) => (submitted || touched[field] ? errors[field] : undefined);

  const update = (field: keyof LoginValues) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [field]: e.target.value }));
  // Shown a moment after blur: an error appearing at once would push the
  // submit button away between mouse-down and mouse-up and swallow the click.
  const blur = (field: keyof LoginValues) => () =>
    window.setTimeout(() => setTouched((t) => ({ ...t, [field]: true })), BLUR_ERROR_DELAY_MS);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (submitting) return;
    setSubmitted(true);
    if (hasErrors(errors)) {
      formRef.current?.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
      return;
    }
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
            value={values.email}
            onChange={update('email')}
            onBlur={blur('email')}
            hasError={Boolean(shown('email'))}
            errorMessage={shown('email')}
          />
          <PasswordField
            label="Password"
            name="password"
            autoComplete="current-password"
            value={values.password}
            onChange={update('password')}
            onBlur={blur('password')}
            hasError={Boolean(shown('password'))}
            errorMessage={shown('password')}
          />
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
