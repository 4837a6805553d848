import { Link } from 'react-router';
import { Text } from '@aws-amplify/ui-react';
import { Page } from '../../../components/page';

export default function PaymentCancelPage() {
  return (
    <Page title="Payment cancelled" className="page--centered">
      <Text>Your payment was cancelled. Nothing was charged.</Text>
      <div className="button-row">
        <Link to="/marketplace" className="button-link button-link--primary">
          Browse prompts
        </Link>
        <Link to="/dashboard" className="button-link">
          Go to Dashboard
        </Link>
      </div>
    </Page>
  );
}
