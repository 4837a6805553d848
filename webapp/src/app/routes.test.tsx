import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp } from '../test/render-app';
import { resetAuthForTests } from '../lib/auth-session';
import { startSignedIn, startSignedOut } from '../test/session';
import { stubSystemTheme } from '../test/match-media';
import { preloadRoute, ROUTES } from './routes';

afterEach(() => resetAuthForTests());

// A first visit's page chunk is downloaded beside the main one (startApp
// waits for it): it then renders in the first commit, with no loading
// fallback (after which React would hold the page back for 300 ms: the
// home page's largest paint waited on that, DESIGN §10).
describe('route chunks', () => {
  it('a page whose chunk is downloaded renders in the first commit, without the fallback', async () => {
    stubSystemTheme(false);
    startSignedOut();
    await preloadRoute('/agents');
    act(() => {
      renderApp('/agents');
    });
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Agent Marketplace' })).toBeInTheDocument();
  });

  it("an admin section's address (/admin/*) downloads the admin chunk at start too", async () => {
    stubSystemTheme(false);
    startSignedIn(); // not an admin: the page's own 403, with no request to wait for
    await preloadRoute('/admin/orders/');
    act(() => {
      renderApp('/admin/orders');
    });
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: '403' })).toBeInTheDocument();
  });

  it('the home page is in the main chunk', async () => {
    const home = ROUTES.find((r) => r.path === '/');
    expect((await home!.load()).default).toBe(home!.Component);
  });
});
