// /admin (docs/admin.md): a visitor never gets here (the route guard
// sends them to log in); a signed-in user who is not an admin, or whose
// admin rights the API no longer recognises (a 403), sees the 403 page.
// An admin gets one page with a section per area, each its own address:
// /admin/prompts, /admin/categories, /admin/reviews, … (/admin opens Prompts).

import { useCallback, useMemo, useState } from 'react';
import { Link, Navigate, Route, Routes, useLocation } from 'react-router';
import { SWRConfig, type SWRConfiguration } from 'swr';
import { Text } from '@aws-amplify/ui-react';
import { Page } from '../../../components/page';
import { useAuth } from '../../../lib/use-auth';
import { isAccessDenied, LoseAccessProvider } from './admin-access';
import { ForbiddenPage } from './forbidden-page';
import { ADMIN_SECTIONS, SectionNav } from './section-nav';
import { PromptsSection } from '../prompts/prompts-section';
import { CategoriesSection } from '../categories/categories-section';
import { McpServersSection } from '../mcp-servers/mcp-servers-section';
import { ReviewsSection } from '../reviews/reviews-section';
import { CreatorsSection } from '../creators/creators-section';
import { AgentsSection } from '../agents/agents-section';
import { OrdersSection } from '../orders/orders-section';
import { UsersSection } from '../users/users-section';
import { AuditSection } from '../audit/audit-section';
import './admin.css';

export default function AdminPage() {
  const { user } = useAuth();
  if (!user) return null; // the route guard is sending a visitor to /login
  if (!user.is_admin) return <ForbiddenPage />;
  // A new account starts with a fresh verdict.
  return <AdminArea key={user.id} />;
}

function AdminArea() {
  const [denied, setDenied] = useState(false);
  const loseAccess = useCallback(() => setDenied(true), []);
  // Every admin read that answers 403 turns the page into the 403 page.
  const swrConfig = useMemo<SWRConfiguration>(() => ({ onError: (err: unknown) => isAccessDenied(err) && setDenied(true) }), []);
  const { pathname } = useLocation();
  const section = ADMIN_SECTIONS.find((s) => pathname.startsWith(`/admin/${s.path}`));

  if (denied) return <ForbiddenPage />;
  return (
    <LoseAccessProvider value={loseAccess}>
      <SWRConfig value={swrConfig}>
        <Page title="Admin" documentTitle={section ? `${section.label} · Admin` : 'Admin'} className="admin">
          <SectionNav />
          <Routes>
            <Route index element={<Navigate to="/admin/prompts" replace />} />
            <Route path="prompts" element={<PromptsSection />} />
            <Route path="categories" element={<CategoriesSection />} />
            <Route path="mcp-servers" element={<McpServersSection />} />
            <Route path="reviews" element={<ReviewsSection />} />
            <Route path="creators" element={<CreatorsSection />} />
            <Route path="agents" element={<AgentsSection />} />
            <Route path="orders" element={<OrdersSection />} />
            <Route path="users" element={<UsersSection />} />
            <Route path="audit" element={<AuditSection />} />
            <Route path="*" element={<UnknownSection />} />
          </Routes>
        </Page>
      </SWRConfig>
    </LoseAccessProvider>
  );
}

function UnknownSection() {
  return (
    <div className="admin-section" data-testid="admin-unknown-section">
      <Text>There is no such admin section.</Text>
      <Link to="/admin/prompts">Go to Prompts</Link>
    </div>
  );
}
