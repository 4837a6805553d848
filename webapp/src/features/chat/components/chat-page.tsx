import { Text } from '@aws-amplify/ui-react';
import { Page } from '../../../components/page';

export default function ChatPage() {
  return (
    <Page title="Chat" className="page--centered">
      <Text>Chat interface coming soon...</Text>
    </Page>
  );
}
