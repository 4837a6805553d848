import { createRoot } from 'react-dom/client';
import { App } from './app';
import { preloadRoute } from './routes';
import { initAuth, watchOtherTabs } from '../lib/auth-session';
import { applyThemeToDocument, initialTheme } from '../lib/theme';
import { restoreStoredRedirectPath } from '../lib/redirect-path';
import { configureGoogleAnalytics } from '../lib/analytics';
import { stripUrlSecrets } from '../lib/url-secrets';

/**
 * The address as the app may see it: a stored deep link restored, then any
 * secret token (/auth/callback?token=…, the mailed links) taken out of it
 * with history.replaceState and kept in memory for its page. Nothing may
 * read the address, request anything or send analytics before this.
 */
export function prepareAddress(): void {
  restoreStoredRedirectPath();
  stripUrlSecrets();
}

/**
 * Starts the app in `container`. Order matters: the URL is final (and free
 * of secrets) before analytics, chunk requests or the router read it, the
 * theme is on <html> before the first paint, and the session is read
 * before the route guard decides anything. Returns a stop function (tests).
 */
export function startApp(container: HTMLElement, analyticsId: string | undefined = import.meta.env.VITE_ANALYTICS_ID): () => void {
  prepareAddress();
  applyThemeToDocument(initialTheme());
  initAuth();
  const stopWatching = watchOtherTabs();
  configureGoogleAnalytics(analyticsId);
  const root = createRoot(container);
  let stopped = false;
  // The first render waits for the page's chunk (downloaded beside the main
  // one), so the page paints at once instead of after a loading fallback.
  void preloadRoute(window.location.pathname).then(() => {
    if (!stopped) root.render(<App />);
  });
  return () => {
    stopped = true;
    root.unmount();
    stopWatching();
  };
}
