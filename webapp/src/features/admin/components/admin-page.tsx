import { Text } from '@aws-amplify/ui-react';
import { Page } from '../../../components/page';

// SPEC §6: a placeholder without a role guard.
export default function AdminPage() {
  return (
    <Page title="Admin" className="page--centered">
      <Text>Admin dashboard coming soon...</Text>
    </Page>
  );
}
