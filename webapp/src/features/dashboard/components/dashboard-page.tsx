import { useMemo } from 'react';
import { Link, Navigate } from 'react-router';
import { Button, Card, Heading, Loader, Placeholder, Text } from '@aws-amplify/ui-react';
import { useAuth, useLogout } from '../../../lib/use-auth';
import { useUnverifiedRefresh } from '../use-unverified-refresh';
import { useOwnedPrompts } from '../../../lib/api/use-owned-prompts';
import { useActivities } from '../../../lib/api/use-activities';
import { usePrompts } from '../../../lib/api/use-prompts';
import { useMcpConnections } from '../../../lib/api/use-mcp-connections';
import { buildFallbackActivities } from '../fallback-activities';
import { ActivityList } from './activity-list';
import { UsageCard } from './usage-card';
import { CreatorCard } from './creator-card';
import { ConfirmEmailNotice } from './confirm-email-notice';
import { LoadingScreen } from '../../../components/loading-screen';
import { useDocumentTitle } from '../../../components/page';
import { readJwtIssuedAt } from '../../../lib/jwt';
import { useChatSessions } from '../api/use-chat-sessions';
import type { User } from '../../../lib/auth-session';

export function greetingName(user: Pick<User, 'full_name' | 'username'> | null): string {
  return user?.full_name?.trim() || user?.username?.trim() || 'User';
}

function StatCard({ label, value, to, loading }: { label: string; value: number; to?: string; loading?: boolean }) {
  const body = (
    <>
      <Text className="stat-card__label">{label}</Text>
      <span className="stat-card__value" aria-live="polite">
        {loading ? <Loader size="small" ariaLabel={`Loading ${label}`} /> : value}
      </span>
    </>
  );
  return to ? (
    <Link to={to} className="stat-card stat-card--link" aria-label={`${label}: ${loading ? 'loading' : value}`}>
      {body}
    </Link>
  ) : (
    <div className="stat-card">{body}</div>
  );
}

const LINK_CARDS = [
  { to: '/marketplace', icon: '🛒', title: 'Prompt Marketplace', text: 'Browse, buy and use prompts crafted for real work.' },
  { to: '/registry', icon: '🔌', title: 'MCP Registry', text: 'Find model servers and connect to them.' },
  { to: '/llm-chat', icon: '💬', title: 'LLM Chat', text: 'Chat with OpenAI, Anthropic, Google and Meta models in tabs.' },
];

export default function DashboardPage() {
  useDocumentTitle('Dashboard');
  const { status, user, token } = useAuth();
  const logout = useLogout();
  useUnverifiedRefresh();
  const owned = useOwnedPrompts();
  const activities = useActivities();
  const mcpConnections = useMcpConnections();
  // The real count of the user's conversations (kept with the account).
  const chatSessions = useChatSessions();
  const activitiesFailed = Boolean(activities.error);
  // The prompt list only serves the fallback (titles and prices of the
  // purchases): the caller's purchased prompts, one page of the most.
  const promptList = usePrompts(activitiesFailed ? { filter: 'purchased', limit: 60 } : null);

  const list = useMemo(() => {
    if (!activitiesFailed) return Array.isArray(activities.data) ? activities.data : [];
    return buildFallbackActivities({
      ownedPromptIds: owned.ownedPromptIds,
      prompts: promptList.prompts,
      signedInAt: (token && readJwtIssuedAt(token)) || Date.now(),
    });
  }, [activitiesFailed, activities.data, owned.ownedPromptIds, promptList.prompts, token]);

  if (status === 'loading') return <LoadingScreen />;
  if (status !== 'authenticated' || !user) return <Navigate to="/" replace />;

  // Purchases only (SPEC §2 "Purchased Prompts"; the FAQ: a purchase "counts
  // towards Purchased Prompts"), never free claims. The card links to
  // ?filter=purchased, which lists exactly these (marketplace/ownership-filter.ts).
  const purchasedCount = owned.error ? 0 : owned.ownedPromptIds.length;
  // The real count from GET /mcp-connections/; 0 while it loads or when it fails.
  const connectionCount = mcpConnections.error ? 0 : mcpConnections.connections.length;

  return (
    <div className="page dashboard">
      <header className="dashboard__header">
        <Heading level={1} data-testid="dashboard-greeting" className="dashboard__greeting">
          Welcome back, {greetingName(user)}!
        </Heading>
        <Button onClick={logout} variation="link" className="dashboard__logout">
          Logout
        </Button>
      </header>

      {user.is_verified ? null : <ConfirmEmailNotice email={user.email} />}

      <section aria-label="Your statistics" className="stat-grid">
        <StatCard label="Purchased Prompts" value={purchasedCount} to="/marketplace?filter=purchased" loading={owned.isLoading} />
        <StatCard label="Active Connections" value={connectionCount} to="/registry" />
        <StatCard label="Chat Sessions" value={chatSessions.error ? 0 : (chatSessions.data ?? 0)} to="/llm-chat" loading={chatSessions.isLoading} />
      </section>

      <UsageCard />

      <CreatorCard />

      <section aria-labelledby="quick-links-heading" className="dashboard__section">
        <Heading level={2} id="quick-links-heading" className="section-title">
          Jump back in
        </Heading>
        <div className="link-card-grid">
          {LINK_CARDS.map((c) => (
            <Link key={c.to} to={c.to} className="link-card">
              <span className="link-card__icon" aria-hidden="true">
                {c.icon}
              </span>
              <span className="link-card__title">{c.title}</span>
              <span className="link-card__text">{c.text}</span>
            </Link>
          ))}
        </div>
      </section>

      <section aria-labelledby="activity-heading" className="dashboard__section">
        <Heading level={2} id="activity-heading" className="section-title">
          Recent Activity
        </Heading>
        <Card variation="outlined" className="activity-card">
          {activities.isLoading ? (
            <div role="status" aria-label="Loading recent activity" className="activity-skeleton">
              <Placeholder size="large" />
              <Placeholder size="large" />
              <Placeholder size="large" />
            </div>
          ) : (
            <ActivityList activities={list} />
          )}
        </Card>
      </section>
    </div>
  );
}
