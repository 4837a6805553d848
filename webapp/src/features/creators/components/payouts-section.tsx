// Payouts: the status Stripe reports, in words, and the way to Stripe's
// hosted onboarding. Stripe sends the creator back with ?payouts=done (or
// ?payouts=refresh when the link expired); the page then reads the status
// again (creator-page.tsx).

import { useId, useState } from 'react';
import { Alert, Button, Heading } from '@aws-amplify/ui-react';
import { errorMessage } from '../../../lib/api-client';
import { payoutStatusText, type CreatorPayouts } from '../../../lib/api/use-creator';
import { browserLocation } from '../../../lib/browser-location';
import { safeHref } from '../../../lib/safe-href';
import { startOnboarding } from '../api/requests';

export type PayoutsReturn = 'done' | 'refresh' | null;

interface PayoutsSectionProps {
  payouts: CreatorPayouts;
  /** Where the creator comes back from Stripe, if they just did. */
  returned: PayoutsReturn;
  /** Stripe's Express dashboard, from the sales answer. */
  loginUrl?: string;
}

const EXPLAIN: Record<string, string> = {
  none: 'Stripe pays your earnings to your bank. Set up payouts to sell: it takes a few minutes on Stripe’s site.',
  details_needed: 'Stripe needs more details before it can pay you. Continue on Stripe’s site.',
  pending: 'Stripe is checking your details. This usually takes a few minutes; come back later.',
  enabled: 'Stripe pays your earnings to your bank.',
};

export function PayoutsSection({ payouts, returned, loginUrl }: PayoutsSectionProps) {
  const headingId = useId();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const enabled = payouts.status === 'enabled';
  const dashboardHref = loginUrl ? safeHref(loginUrl) : null;

  const setUp = async () => {
    setBusy(true);
    setFailure(null);
    try {
      browserLocation.assign(await startOnboarding());
    } catch (err) {
      setFailure(errorMessage(err, 'Payouts could not be set up right now. Please try again.'));
      setBusy(false);
    }
  };

  return (
    <section className="creator-section" aria-labelledby={headingId}>
      <Heading level={2} id={headingId} className="section-title">
        Payouts
      </Heading>
      {returned === 'done' ? (
        <Alert variation={enabled ? 'success' : 'info'} data-testid="payouts-returned">
          {enabled ? 'You are back from Stripe and payouts are enabled.' : 'You are back from Stripe. Its answer about your details shows below; it can take a few minutes.'}
        </Alert>
      ) : null}
      {returned === 'refresh' && !enabled ? (
        <Alert variation="warning" data-testid="payouts-expired">
          The set-up link expired. Set up payouts again to continue where you left off.
        </Alert>
      ) : null}
      <p className="creator-payouts">
        Status: <strong data-testid="payout-status">{payoutStatusText(payouts.status)}</strong>
      </p>
      <p className="creator-muted">{EXPLAIN[payouts.status] ?? EXPLAIN.none}</p>
      {failure ? (
        <Alert variation="error" heading="Payouts" data-testid="payouts-error">
          {failure}
        </Alert>
      ) : null}
      <div className="creator-actions">
        {enabled ? null : (
          <Button variation="primary" onClick={() => void setUp()} isDisabled={busy}>
            Set up payouts
          </Button>
        )}
        {enabled && dashboardHref ? (
          <a className="creator-link" href={dashboardHref} target="_blank" rel="noopener noreferrer">
            Open Stripe dashboard
          </a>
        ) : null}
      </div>
    </section>
  );
}
