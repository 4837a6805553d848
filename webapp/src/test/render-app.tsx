import { StrictMode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { SWRConfig } from 'swr';
import { AppRoutes, swrConfig } from '../app/app';
import { AppThemeProvider } from '../lib/theme-context';

function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

/**
 * The real routes, guard and shell in a memory router, with a fresh SWR
 * cache. `strict`: inside <StrictMode> as the app runs (effects run twice
 * in development).
 */
export function renderApp(path: string, { strict = false }: { strict?: boolean } = {}) {
  const tree = (
    <SWRConfig value={{ ...swrConfig, provider: () => new Map(), dedupingInterval: 0 }}>
      <AppThemeProvider>
        <MemoryRouter initialEntries={[path]}>
          <AppRoutes />
          <LocationProbe />
        </MemoryRouter>
      </AppThemeProvider>
    </SWRConfig>
  );
  return render(strict ? <StrictMode>{tree}</StrictMode> : tree);
}
