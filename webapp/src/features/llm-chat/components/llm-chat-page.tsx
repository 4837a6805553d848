import { Text } from '@aws-amplify/ui-react';
import { Page } from '../../../components/page';

// Placeholder: the tabbed multi-model chat is later work. Requires login (route guard).
export default function LlmChatPage() {
  return (
    <Page title="LLM Chat" subtitle="Chat with OpenAI, Anthropic, Google and Meta models in tabs.">
      <Text>The chat workspace is on its way.</Text>
    </Page>
  );
}
