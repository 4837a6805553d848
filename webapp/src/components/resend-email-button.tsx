// "Resend email": a new confirmation link by mail, wherever it is offered
// (the dashboard's notice, /verify-email, the toast of a refused free use).

import { useState } from 'react';
import { Button, type ButtonProps } from '@aws-amplify/ui-react';
import { errorMessage } from '../lib/api-client';
import { postResendVerification, refreshSignedInUser } from '../lib/account-api';
import { toast } from './notifications/notification-store';

/** The action that mails a new confirmation link, wherever it is offered. */
export const RESEND_LABEL = 'Resend email';

export const RESEND_FAILED = 'We could not send the email. Please try again in a few minutes.';

/**
 * POST /auth/resend-verification and show its detail.
 * Returns true when a mail went out (or the address proved confirmed).
 */
export async function resendVerificationEmail(): Promise<boolean> {
  try {
    const res = await postResendVerification();
    const detail = res?.detail || 'We sent you a new confirmation link.';
    if (res?.status === 'already_verified') {
      toast.info(detail);
      await refreshSignedInUser();
    } else {
      toast.success(detail);
    }
    return true;
  } catch (err) {
    toast.error(errorMessage(err, RESEND_FAILED));
    return false;
  }
}

/** "Resend email": busy while it is asked for. */
export function ResendEmailButton({ size, variation }: Pick<ButtonProps, 'size' | 'variation'>) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      type="button"
      size={size}
      variation={variation}
      isLoading={busy}
      loadingText="Sending..."
      onClick={async () => {
        if (busy) return;
        setBusy(true);
        try {
          await resendVerificationEmail();
        } finally {
          setBusy(false);
        }
      }}
    >
      {RESEND_LABEL}
    </Button>
  );
}
