import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../test/render-app';
import { resetAuthForTests } from '../lib/auth-session';
import { startSignedIn, startSignedOut } from '../test/session';
import { stubSystemTheme } from '../test/match-media';
import { installFakeApi } from '../test/fake-api';
import { jsonResponse } from '../test/jwt-fixtures';
import { server } from '../features/registry/test-fixtures';
import { preloadRoute, ROUTES } from './routes';

afterEach(() => {
  resetAuthForTests();
  vi.unstubAllGlobals();
});

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

// A first visit to a listing asks for its list at start, beside the page's
// chunk, instead of once the page has rendered; the page takes that request over.
describe('first-visit data', () => {
  it('/registry asks for the server list at start, and the page reuses that request', async () => {
    stubSystemTheme(false);
    startSignedOut();
    const api = installFakeApi();
    api.route('GET /api/v1/mcp-servers/', () => jsonResponse(200, [server({ id: 'early', name: 'Early Server' })]));
    const loaded = preloadRoute('/registry');
    expect(api.callsTo('GET', '/api/v1/mcp-servers/')).toHaveLength(1);
    await loaded;
    act(() => {
      renderApp('/registry');
    });
    expect(await screen.findByRole('heading', { name: 'Early Server' })).toBeInTheDocument();
    expect(api.callsTo('GET', '/api/v1/mcp-servers/')).toHaveLength(1);
  });

  it("/marketplace asks for the visitor's prompt list at start, and the page reuses that request", async () => {
    stubSystemTheme(false);
    startSignedOut();
    const api = installFakeApi();
    api.route('GET /api/v1/prompts/', () =>
      jsonResponse(200, [
        { id: 'p1', title: 'Early Prompt', description: 'd', preview: 'p', price: 1, rating_avg: 0, rating_count: 0, category: { id: 'c', name: 'writing' }, created_at: '2026-01-01T00:00:00Z' },
      ]),
    );
    api.route('GET /api/v1/prompts/categories', () => jsonResponse(200, []));
    const loaded = preloadRoute('/marketplace');
    expect(api.callsTo('GET', '/api/v1/prompts/')).toHaveLength(1);
    await loaded;
    act(() => {
      renderApp('/marketplace');
    });
    expect(await screen.findByRole('heading', { name: 'Early Prompt' })).toBeInTheDocument();
    expect(api.callsTo('GET', '/api/v1/prompts/')).toHaveLength(1);
  });
});
