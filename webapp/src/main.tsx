import { createRoot } from 'react-dom/client';
import '@aws-amplify/ui-react/styles.css';
import './index.css';
import { App } from './app/app';
import { preloadRoute } from './app/routes';
import { initAuth, watchOtherTabs } from './lib/auth-session';
import { applyThemeToDocument, initialTheme } from './lib/theme';
import { restoreStoredRedirectPath } from './lib/redirect-path';
import { configureGoogleAnalytics } from './lib/analytics';

// Order matters: the URL is final before the router reads it, the theme is
// on <html> before the first paint, and the session is read before the
// route guard decides anything.
restoreStoredRedirectPath();
applyThemeToDocument(initialTheme());
initAuth();
watchOtherTabs();
configureGoogleAnalytics(import.meta.env.VITE_ANALYTICS_ID);
preloadRoute(window.location.pathname);

createRoot(document.getElementById('root')!).render(<App />);
