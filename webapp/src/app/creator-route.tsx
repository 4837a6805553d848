// The creator studio with the chat's menu-template parser, for its prompt
// preview (as admin-route.tsx gives the admin page): features may not
// import one another, the app may.

import { MenuReaderProvider } from '../components/prompt-editor/menu-reader';
import CreatorPage from '../features/creators/components/creator-page';
import { parseMenu } from '../features/llm-chat/menu/parse-menu';

export default function CreatorRoute() {
  return (
    <MenuReaderProvider value={parseMenu}>
      <CreatorPage />
    </MenuReaderProvider>
  );
}
