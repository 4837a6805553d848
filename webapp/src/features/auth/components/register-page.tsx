import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, Divider, Flex, PasswordField, TextField } from '@aws-amplify/ui-react';
import { AuthCard } from './auth-card';
import { GoogleButton } from './google-button';
import { BLUR_ERROR_DELAY_MS, hasErrors, validateRegister, type RegisterValues } from '../validation';
import { postLogin, postRegister, sessionFromTokenResponse } from '../api/auth-api';
import { errorMessage } from '../../../lib/api-client';
import { setSession } from '../../../lib/auth-session';
import { trackLogin } from '../../../lib/analytics';
import { toast } from '../../../components/notifications/notification-store';

export const REGISTER_MESSAGES = {
  success: 'Registration successful!',
  failure: 'Registration failed',
  loginFailure: 'Login failed',
} as const;

const EMPTY: RegisterValues = { email: '', username: '', fullName: '', password: '', confirmPassword: '' };

export default function RegisterPage() {
  const navigate = useNavigate();
  const [values, setValues] = useState<RegisterValues>(EMPTY);
  const [touched, setTouched] = useState<Partial<Record<keyof RegisterValues, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const errors = validateRegister(values);
  const shown = (field: keyof RegisterValues) => (submitted || touched[field] ? errors[field] : undefined);
  const update = (field: keyof RegisterValues) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [field]: e.target.value }));
  // Shown a moment after blur: an error appearing at once would push the
  // submit button away between mouse-down and mouse-up and swallow the click.
  const blur = (field: keyof RegisterValues) => () =>
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
    const email = values.email.trim();
    let res;
    try {
      res = await postRegister({
        email,
        username: values.username.trim(),
        full_name: values.fullName.trim(),
        password: values.password,
      });
    } catch (err) {
      // Inputs keep what the user typed.
      toast.error(errorMessage(err, REGISTER_MESSAGES.failure));
      setSubmitting(false);
      return;
    }
    toast.success(REGISTER_MESSAGES.success);
    try {
      // Sign in with the returned token; without one, log in (SPEC §7).
      const session = (await sessionFromTokenResponse(res)) ?? (await sessionFromTokenResponse(await postLogin(email, values.password)));
      if (!session) throw new Error('No access token');
      trackLogin('email');
      setSession(session.user, session.token, { redirectTo: '/dashboard' });
    } catch (err) {
      toast.error(errorMessage(err, REGISTER_MESSAGES.loginFailure));
      navigate('/login?redirect=%2Fdashboard', { replace: true });
    }
  }

  return (
    <AuthCard
      title="Create your account"
      subtitle="Get 5 free prompts, connect to MCP servers and chat with leading models."
      footer={
        <>
          Already have an account? <Link to="/login">Sign in</Link>
        </>
      }
    >
      <form ref={formRef} noValidate onSubmit={onSubmit} aria-label="Create your account">
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
          <TextField
            label="Username"
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            value={values.username}
            onChange={update('username')}
            onBlur={blur('username')}
            hasError={Boolean(shown('username'))}
            errorMessage={shown('username')}
          />
          <TextField
            label="Full name"
            name="full_name"
            autoComplete="name"
            value={values.fullName}
            onChange={update('fullName')}
            onBlur={blur('fullName')}
            hasError={Boolean(shown('fullName'))}
            errorMessage={shown('fullName')}
          />
          <PasswordField
            label="Password"
            name="password"
            autoComplete="new-password"
            value={values.password}
            onChange={update('password')}
            onBlur={blur('password')}
            hasError={Boolean(shown('password'))}
            errorMessage={shown('password')}
          />
          <PasswordField
            label="Confirm password"
            name="confirm_password"
            autoComplete="new-password"
            value={values.confirmPassword}
            onChange={update('confirmPassword')}
            onBlur={blur('confirmPassword')}
            hasError={Boolean(shown('confirmPassword'))}
            errorMessage={shown('confirmPassword')}
          />
          <Button type="submit" variation="primary" isFullWidth isLoading={submitting} loadingText="Creating account...">
            Create account
          </Button>
        </Flex>
      </form>
      <Divider label="or" className="auth-card__divider" />
      <GoogleButton disabled={submitting} />
    </AuthCard>
  );
}
