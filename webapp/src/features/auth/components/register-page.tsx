import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, Divider, Flex, PasswordField, TextField } from '@aws-amplify/ui-react';
import { AuthCard } from './auth-card';
import { GoogleButton } from './google-button';
import { validateRegister, type RegisterValues } from '../validation';
import { useValidatedForm } from '../use-validated-form';
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
  const { values, formRef, field, checkOnSubmit } = useValidatedForm<RegisterValues>(EMPTY, validateRegister);
  const [submitting, setSubmitting] = useState(false);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (submitting) return;
    if (!checkOnSubmit()) return;
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
      // Read on the sign-in page it leads to: it survives this navigation.
      toast.error(errorMessage(err, REGISTER_MESSAGES.loginFailure), { keepOnNavigate: true });
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
            {...field('email')}
          />
          <TextField
            label="Username"
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            {...field('username')}
          />
          <TextField
            label="Full name"
            name="full_name"
            autoComplete="name"
            {...field('fullName')}
          />
          <PasswordField
            label="Password"
            name="password"
            autoComplete="new-password"
            {...field('password')}
          />
          <PasswordField
            label="Confirm password"
            name="confirm_password"
            autoComplete="new-password"
            {...field('confirmPassword')}
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
