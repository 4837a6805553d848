import { Alert, Flex, Text } from '@aws-amplify/ui-react';
import { ResendEmailButton } from '../../../components/resend-email-button';

export const CONFIRM_EMAIL_HEADING = 'Confirm your email address';

/** First-run state of an account whose email is not confirmed yet (free uses need it). */
export function ConfirmEmailNotice({ email }: { email: string }) {
  return (
    <Alert variation="warning" heading={CONFIRM_EMAIL_HEADING} className="dashboard__notice" data-testid="confirm-email-notice">
      <Flex direction="column" gap="small" alignItems="flex-start">
        <Text as="span">
          We sent a confirmation link to <strong>{email}</strong>. Open it to confirm your address and unlock your free prompts.
          No email? Check your spam folder or send a new link.
        </Text>
        <ResendEmailButton size="small" />
      </Flex>
    </Alert>
  );
}
