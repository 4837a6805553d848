import { StrictMode } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { SWRConfig, type SWRConfiguration } from 'swr';
import { AppThemeProvider } from '../lib/theme-context';
import { Layout } from './layout';
import { NOT_FOUND, ROUTES } from './routes';
import { ApiError, swrFetcher } from '../lib/api-client';
import { onTestReset } from '../lib/test-resets';

// Scheduled error retries, so tests can cancel them when the app goes away.
const retryTimers = new Set<ReturnType<typeof setTimeout>>();

/** Tests only: drop retries scheduled by a torn-down render. */
export function cancelErrorRetriesForTests(): void {
  for (const t of retryTimers) clearTimeout(t);
  retryTimers.clear();
}
onTestReset('error-retries', cancelErrorRetriesForTests);

export const swrConfig: SWRConfiguration = {
  fetcher: swrFetcher,
  revalidateOnFocus: false,
  // Client errors (4xx) will not fix themselves: no retries for them.
  onErrorRetry: (error, _key, _config, revalidate, { retryCount }) => {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) return;
    if (retryCount >= 3) return;
    const timer = setTimeout(() => {
      retryTimers.delete(timer);
      void revalidate({ retryCount });
    }, 2000 * 2 ** retryCount);
    retryTimers.add(timer);
  },
};

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        {ROUTES.map(({ path, Component }) =>
          path === '/' ? <Route key={path} index element={<Component />} /> : <Route key={path} path={path} element={<Component />} />,
        )}
        <Route path="*" element={<NOT_FOUND.Component />} />
      </Route>
    </Routes>
  );
}

export function App() {
  return (
    <StrictMode>
      <SWRConfig value={swrConfig}>
        <AppThemeProvider>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </AppThemeProvider>
      </SWRConfig>
    </StrictMode>
  );
}
