// The creator studio (/creator, signed in): the profile (whose first save
// makes the user a creator), payouts, the creator's prompts, their agents
// and their sales (docs/creators.md). The content preview's menu reader comes from
// the app (src/app/creator-route.tsx).

import { useEffect, useRef } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { Alert, Heading, Loader } from '@aws-amplify/ui-react';
import { LoadingScreen } from '../../../components/loading-screen';
import { useDocumentTitle } from '../../../components/page';
import { useCreatorDashboard, useCreatorProfile, type CreatorProfile } from '../../../lib/api/use-creator';
import { useAuth } from '../../../lib/use-auth';
import { PayoutsSection, type PayoutsReturn } from './payouts-section';
import { AgentsSection } from './agents-section';
import { ProfileSection } from './profile-section';
import { PromptsSection } from './prompts-section';
import { SalesSection } from './sales-section';
import './creators.css';

function payoutsReturn(value: string | null): PayoutsReturn {
  return value === 'done' || value === 'refresh' ? value : null;
}

export default function CreatorPage() {
  useDocumentTitle('Creator studio');
  const { status, user } = useAuth();
  const [params] = useSearchParams();
  const returned = payoutsReturn(params.get('payouts'));
  const creator = useCreatorProfile();
  const profile = creator.profile;
  const sales = useCreatorDashboard(Boolean(profile));
  const { mutate: reloadProfile } = creator;
  const { mutate: reloadSales } = sales;

  // Back from Stripe: read the payout status (and balance) again, once.
  const reread = useRef(false);
  useEffect(() => {
    if (!returned || reread.current || status !== 'authenticated') return;
    reread.current = true;
    void reloadProfile();
    void reloadSales();
  }, [returned, status, reloadProfile, reloadSales]);

  if (status === 'loading') return <LoadingScreen />;
  if (status !== 'authenticated' || !user) return <Navigate to="/" replace />;

  const saved = (p: CreatorProfile) => {
    void reloadProfile(p, { revalidate: false });
    void reloadSales();
  };

  return (
    <div className="page creator-studio">
      <Heading level={1} className="creator-studio__title">
        Creator studio
      </Heading>
      {profile === undefined ? (
        creator.error ? (
          <Alert variation="error" data-testid="creator-load-error">
            Your creator profile could not be loaded. Please reload the page.
          </Alert>
        ) : (
          <Loader ariaLabel="Loading your creator profile" />
        )
      ) : (
        <>
          {profile?.suspended ? (
            <Alert variation="warning" data-testid="creator-suspended">
              Your creator account is suspended: your prompts are off the marketplace.
            </Alert>
          ) : null}
          <ProfileSection key={profile ? 'creator' : 'new'} profile={profile} feePercent={sales.dashboard?.fee_percent} onSaved={saved} />
          {profile ? (
            <>
              <PayoutsSection payouts={profile.payouts} returned={returned} loginUrl={sales.dashboard?.login_url} />
              <PromptsSection suspended={profile.suspended} onListChanged={() => void reloadSales()} />
              <AgentsSection suspended={profile.suspended} payoutsEnabled={profile.payouts.status === 'enabled'} />
              <SalesSection dashboard={sales.dashboard} loading={sales.isLoading} failed={Boolean(sales.error)} />
            </>
          ) : null}
        </>
      )}
    </div>
  );
}
