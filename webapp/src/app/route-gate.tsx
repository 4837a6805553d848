import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { decideRoute } from './route-guard';
import { useAuth } from '../lib/use-auth';
import { consumePendingRedirect } from '../lib/auth-session';
import { trackPageView } from '../lib/analytics';
import { LoadingScreen } from '../components/loading-screen';

/** Applies decideRoute(): loading screen, redirect, or the page; tracks page views. */
export function RouteGate({ children }: { children: ReactNode }) {
  const { status, pendingRedirect } = useAuth();
  const location = useLocation();
  const decision = decideRoute({ pathname: location.pathname, search: location.search, status, pendingRedirect });
  const allowed = decision.kind === 'allow';

  useEffect(() => {
    if (!allowed) return;
    trackPageView(location.pathname);
  }, [allowed, location.pathname]);

  useEffect(() => {
    if (allowed && pendingRedirect !== null) consumePendingRedirect();
  }, [allowed, pendingRedirect]);

  if (decision.kind === 'loading') return <LoadingScreen />;
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  return <>{children}</>;
}
