import { Link } from 'react-router';
import { Text } from '@aws-amplify/ui-react';
import { Page } from '../../../components/page';

export default function AgentsPage() {
  return (
    <Page title="Agent Marketplace" className="page--centered">
      <div className="coming-soon">
        <span className="coming-soon__icon" aria-hidden="true">
          🤖
        </span>
        <p className="coming-soon__title">Coming Soon</p>
        <Text>Ready-made AI agents you can run for your own work are on their way.</Text>
        <Link to="/marketplace" className="button-link button-link--primary">
          Explore the Prompt Marketplace
        </Link>
      </div>
    </Page>
  );
}
