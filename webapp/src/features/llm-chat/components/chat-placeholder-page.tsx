// /chat: SPEC §2 lists it beside /llm-chat as a placeholder; the chat
// itself is /llm-chat (llm-chat-page.tsx). Its own route chunk.

import { Text } from '@aws-amplify/ui-react';
import { Page } from '../../../components/page';

export default function ChatPage() {
  return (
    <Page title="Chat" className="page--centered">
      <Text>Chat interface coming soon...</Text>
    </Page>
  );
}
