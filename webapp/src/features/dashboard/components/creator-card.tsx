// The dashboard's "Sell your prompts" section: one line and a link to the
// creator studio for a user who is not a creator (GET /creators/me is 404);
// for a creator, their payout status, sales and net, and the way back to
// the studio. Nothing shows while it loads or when it cannot be read.

import { useId } from 'react';
import { Link } from 'react-router';
import { Heading } from '@aws-amplify/ui-react';
import { payoutStatusText, useCreatorDashboard, useCreatorProfile } from '../../../lib/api/use-creator';
import { formatUsd } from '../../../lib/format';
import './creator-card.css';

export function CreatorCard() {
  const headingId = useId();
  const { profile } = useCreatorProfile();
  const { dashboard } = useCreatorDashboard(Boolean(profile));
  if (profile === undefined) return null;

  return (
    <section aria-labelledby={headingId} className="dashboard__section creator-card" data-testid="creator-card">
      <Heading level={2} id={headingId} className="section-title">
        Sell your prompts
      </Heading>
      {profile === null ? (
        <p className="creator-card__line">
          List your own prompts on the marketplace and get paid through Stripe.{' '}
          <Link to="/creator" className="creator-card__link">
            Sell your prompts
          </Link>
        </p>
      ) : (
        <>
          <p className="creator-card__line">
            Payouts: <strong data-testid="creator-card-payouts">{payoutStatusText(profile.payouts.status)}</strong>
            {dashboard ? (
              <>
                {' · '}Sales: <strong data-testid="creator-card-sales">{dashboard.sales.toLocaleString('en-US')}</strong>
                {' · '}Net: <strong data-testid="creator-card-net">{formatUsd(dashboard.net)}</strong>
              </>
            ) : null}
          </p>
          <Link to="/creator" className="creator-card__link">
            Open creator studio
          </Link>
        </>
      )}
    </section>
  );
}
