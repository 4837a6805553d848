import { Link } from 'react-router';
import { Text } from '@aws-amplify/ui-react';
import { Page } from './page';

export default function NotFoundPage() {
  return (
    <Page title="Page not found" className="page--centered">
      <Text>The page you are looking for does not exist.</Text>
      <Link to="/" className="button-link button-link--primary">
        Go to the home page
      </Link>
    </Page>
  );
}
