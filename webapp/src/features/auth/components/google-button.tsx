import { useState } from 'react';
import { Button } from '@aws-amplify/ui-react';
import { getGoogleLogin } from '../api/auth-api';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { toast } from '../../../components/notifications/notification-store';

export const GOOGLE_MESSAGES = {
  failed: 'Failed to initiate Google login',
  network: 'Network error during Google login',
} as const;

/** Starts Google sign-in: asks the API for auth_url, then leaves for it. */
export async function startGoogleLogin(go: (url: string) => void = (u) => window.location.assign(u)): Promise<boolean> {
  try {
    const res = await getGoogleLogin();
    const url = res?.auth_url;
    if (typeof url === 'string' && /^https?:\/\//i.test(url)) {
      go(url);
      return true;
    }
    toast.error(GOOGLE_MESSAGES.failed);
  } catch (err) {
    if (err instanceof ApiError && err.isNetworkError) toast.error(GOOGLE_MESSAGES.network);
    else toast.error(errorMessage(err, GOOGLE_MESSAGES.failed));
  }
  return false;
}

export function GoogleButton({ disabled }: { disabled?: boolean }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      type="button"
      className="google-button"
      isFullWidth
      isDisabled={disabled || busy}
      isLoading={busy}
      loadingText="Redirecting to Google..."
      onClick={async () => {
        setBusy(true);
        const leaving = await startGoogleLogin();
        if (!leaving) setBusy(false);
      }}
    >
      <svg className="google-button__logo" viewBox="0 0 48 48" width="18" height="18" aria-hidden="true">
        <path fill="#EA4335" d="M24 9.5c3.5 0 6.6 1.2 9 3.6l6.7-6.7C35.6 2.5 30.2 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.8 6C12.4 13.6 17.7 9.5 24 9.5z" />
        <path fill="#4285F4" d="M46.5 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.7c-.6 3-2.3 5.5-4.8 7.2l7.5 5.8c4.4-4 7.1-10 7.1-17.5z" />
        <path fill="#FBBC05" d="M10.5 28.7A14.5 14.5 0 0 1 9.5 24c0-1.6.3-3.2.9-4.7l-7.8-6A24 24 0 0 0 0 24c0 3.9.9 7.5 2.7 10.7l7.8-6z" />
        <path fill="#34A853" d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.5-5.8c-2.1 1.4-4.8 2.3-8.4 2.3-6.3 0-11.6-4.2-13.5-9.9l-7.8 6C6.6 42.6 14.6 48 24 48z" />
      </svg>
      Continue with Google
    </Button>
  );
}
