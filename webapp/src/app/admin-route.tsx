// The admin page with the chat's menu-template parser, for its prompt
// preview: features may not import one another (src/test/import-boundaries.test.ts),
// the app may. Only parse-menu (no chat UI) joins the admin chunk.

import AdminPage from '../features/admin/components/admin-page';
import { MenuReaderProvider } from '../components/prompt-editor/menu-reader';
import { parseMenu } from '../features/llm-chat/menu/parse-menu';

export default function AdminRoute() {
  return (
    <MenuReaderProvider value={parseMenu}>
      <AdminPage />
    </MenuReaderProvider>
  );
}
