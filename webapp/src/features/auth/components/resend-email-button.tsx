import { useState } from 'react';
import { Button, type ButtonProps } from '@aws-amplify/ui-react';
import { RESEND_LABEL, resendVerificationEmail } from '../email-verification';

/** "Resend email": a new confirmation link; busy while it is asked for. */
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
