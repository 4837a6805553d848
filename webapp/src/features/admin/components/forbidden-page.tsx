import { Link } from 'react-router';
import { Text } from '@aws-amplify/ui-react';
import { Page } from '../../../components/page';

/** A signed-in user who is not an admin (or no longer one) on /admin. */
export function ForbiddenPage() {
  return (
    <Page title="403" documentTitle="Access denied" className="page--centered" subtitle="Access denied">
      <Text data-testid="admin-forbidden">Only admins can open the admin area, and your account is not an admin.</Text>
      <Link to="/dashboard" className="button-link button-link--primary">
        Back to the dashboard
      </Link>
    </Page>
  );
}
