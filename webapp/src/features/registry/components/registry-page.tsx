import { Text } from '@aws-amplify/ui-react';
import { Page } from '../../../components/page';

// Placeholder: the registry listing and Connect dialog are later work.
export default function RegistryPage() {
  return (
    <Page title="MCP Server Registry" subtitle="Browse model servers and connect to them.">
      <Text>The server listing is on its way.</Text>
    </Page>
  );
}
