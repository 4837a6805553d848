import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { TopBar } from '../components/top-bar';
import { SideMenu } from '../components/side-menu';
import { ToastRegion } from '../components/notifications/toast-region';
import { useClearErrorsOnNavigate } from '../components/notifications/use-clear-errors-on-navigate';
import { LoadingScreen } from '../components/loading-screen';
import { ErrorBoundary } from '../components/error-boundary';
import { RouteGate } from './route-gate';
import { useAuth } from '../lib/use-auth';

export function Layout() {
  const { user, status } = useAuth();
  const location = useLocation();
  const [sideMenuOpen, setSideMenuOpen] = useState(false);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const closeSideMenu = useCallback(() => setSideMenuOpen(false), []);
  const signedIn = status === 'authenticated' && user !== null;

  // A new page starts at the top (the router does not restore scroll).
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location.pathname]);
  // ...and without the error toasts of the page left behind.
  useClearErrorsOnNavigate(location.pathname);

  return (
    <div className="app-shell">
      <a href="#main-content" className="skip-link">
        Skip to content
      </a>
      <TopBar
        user={signedIn ? user : null}
        sideMenuOpen={sideMenuOpen}
        onOpenSideMenu={() => setSideMenuOpen(true)}
        menuButtonRef={menuButtonRef}
      />
      <SideMenu
        open={sideMenuOpen}
        onClose={closeSideMenu}
        signedIn={signedIn}
        isAdmin={signedIn && user.is_admin}
        returnFocusTo={menuButtonRef}
      />
      <main id="main-content" className="app-main" tabIndex={-1}>
        <ErrorBoundary resetKey={location.pathname}>
          <RouteGate>
            <Suspense fallback={<LoadingScreen />}>
              <Outlet />
            </Suspense>
          </RouteGate>
        </ErrorBoundary>
      </main>
      <ToastRegion />
    </div>
  );
}
