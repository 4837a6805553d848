import { Link } from 'react-router';
import { Text } from '@aws-amplify/ui-react';
import { Page } from '../../../components/page';

// Placeholder: session verification (session_id, verified/failed states) is later work.
export default function PaymentSuccessPage() {
  return (
    <Page title="Payment" subtitle="Checking your payment...">
      <Text>Payment verification is on its way.</Text>
      <div className="button-row">
        <Link to="/dashboard" className="button-link button-link--primary">
          Go to Dashboard
        </Link>
        <Link to="/marketplace" className="button-link">
          Browse prompts
        </Link>
      </div>
    </Page>
  );
}
