import { Alert, Text } from '@aws-amplify/ui-react';
import { Link } from 'react-router';
import { Page } from '../../../components/page';
import { useAuth } from '../../auth/use-auth';

// Placeholder: the marketplace (cards, filters, free prompts, purchase) is later work.
export default function MarketplacePage() {
  const { status } = useAuth();
  return (
    <Page title="Prompt Marketplace" subtitle="Discover and buy prompts crafted for real work.">
      {status !== 'authenticated' ? (
        <Alert variation="info" className="page__notice">
          You are browsing in demo mode. <Link to="/login?redirect=%2Fmarketplace">Sign in</Link> to buy prompts and use your free prompts.
        </Alert>
      ) : null}
      <Text>The prompt catalogue is on its way.</Text>
    </Page>
  );
}
