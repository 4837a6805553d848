import { describe, expect, it } from 'vitest';
import { decideRoute, isPublicPath, loginRedirectFor, PUBLIC_PATHS } from './route-guard';

describe('decideRoute', () => {
  it('shows the loading screen until auth is initialised, whatever the path', () => {
    for (const pathname of ['/', '/dashboard', '/login', '/nope']) {
      expect(decideRoute({ pathname, status: 'loading' })).toEqual({ kind: 'loading' });
    }
  });

  it.each(['/', '/login', '/register', '/auth/callback', '/verify-email', '/forgot-password', '/reset-password', '/payment/cancel', '/user-guide', '/privacy-policy', '/marketplace', '/prompts', '/agents', '/registry', '/chat'])(
    'lets a visitor open the public path %s',
    (pathname) => {
      expect(decideRoute({ pathname, status: 'unauthenticated' })).toEqual({ kind: 'allow' });
    },
  );

  it.each(['/llm-chat', '/dashboard', '/payment/success', '/admin', '/admin/prompts'])('sends a visitor on %s to /login with a redirect', (pathname) => {
    expect(decideRoute({ pathname, status: 'unauthenticated' })).toEqual({
      kind: 'redirect',
      to: `/login?redirect=${encodeURIComponent(pathname)}`,
    });
  });

  it('keeps the search string in the redirect (SPEC: /login?redirect=/llm-chat)', () => {
    expect(decideRoute({ pathname: '/llm-chat', search: '', status: 'unauthenticated' })).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Fllm-chat',
    });
    expect(decideRoute({ pathname: '/payment/success', search: '?session_id=cs_1', status: 'unauthenticated' })).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Fpayment%2Fsuccess%3Fsession_id%3Dcs_1',
    });
  });

  it('treats any path outside the public list as protected', () => {
    expect(decideRoute({ pathname: '/nope', status: 'unauthenticated' })).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Fnope',
    });
    expect(decideRoute({ pathname: '/marketplace/extra', status: 'unauthenticated' }).kind).toBe('redirect');
  });

  it('ignores a trailing slash', () => {
    expect(decideRoute({ pathname: '/marketplace/', status: 'unauthenticated' })).toEqual({ kind: 'allow' });
    expect(decideRoute({ pathname: '/dashboard/', status: 'unauthenticated' }).kind).toBe('redirect');
  });

  it('lets a signed-in user open protected and public paths', () => {
    for (const pathname of ['/', '/dashboard', '/llm-chat', '/payment/success', '/marketplace', '/admin', '/admin/users', '/unknown', '/verify-email', '/reset-password', '/forgot-password', '/privacy-policy', '/prompts']) {
      expect(decideRoute({ pathname, status: 'authenticated' })).toEqual({ kind: 'allow' });
    }
  });

  it.each(['/login', '/register', '/login/'])('sends a signed-in user on %s to /', (pathname) => {
    expect(decideRoute({ pathname, status: 'authenticated' })).toEqual({ kind: 'redirect', to: '/' });
  });

  it('after a deliberate sign-in on /login, goes to the requested target instead of /', () => {
    expect(decideRoute({ pathname: '/login', status: 'authenticated', pendingRedirect: '/llm-chat' })).toEqual({
      kind: 'redirect',
      to: '/llm-chat',
    });
  });

  it('never follows an unsafe pending target', () => {
    expect(decideRoute({ pathname: '/login', status: 'authenticated', pendingRedirect: '//evil.example' })).toEqual({
      kind: 'redirect',
      to: '/',
    });
  });

  it('after logout on a protected page, goes to the logout target, not /login', () => {
    expect(decideRoute({ pathname: '/dashboard', status: 'unauthenticated', pendingRedirect: '/' })).toEqual({
      kind: 'redirect',
      to: '/',
    });
    // A public page stays put.
    expect(decideRoute({ pathname: '/marketplace', status: 'unauthenticated', pendingRedirect: '/' })).toEqual({ kind: 'allow' });
  });
});

describe('helpers', () => {
  it('lists exactly the documented public paths', () => {
    expect([...PUBLIC_PATHS].sort()).toEqual(
      [
        '/',
        '/agents',
        '/auth/callback',
        '/chat',
        '/forgot-password',
        '/login',
        '/marketplace',
        '/payment/cancel',
        '/privacy-policy',
        '/prompts',
        '/register',
        '/registry',
        '/reset-password',
        '/user-guide',
        '/verify-email',
      ].sort(),
    );
    expect(isPublicPath('/llm-chat')).toBe(false);
  });

  it("a creator's public page is public, whatever the username; /creators alone is not", () => {
    expect(decideRoute({ pathname: '/creators/ada', status: 'unauthenticated' })).toEqual({ kind: 'allow' });
    expect(decideRoute({ pathname: '/creators/ada.lovelace/', status: 'unauthenticated' })).toEqual({ kind: 'allow' });
    expect(decideRoute({ pathname: '/creators', status: 'unauthenticated' }).kind).toBe('redirect');
    expect(decideRoute({ pathname: '/creators/', status: 'unauthenticated' }).kind).toBe('redirect');
  });

  it("an agent's page is public; /agents/ alone is not a page of its own", () => {
    expect(decideRoute({ pathname: '/agents/a-0123456789ab', status: 'unauthenticated' })).toEqual({ kind: 'allow' });
    expect(decideRoute({ pathname: '/agents/', status: 'unauthenticated' })).toEqual({ kind: 'allow' }); // '/agents', the marketplace
    expect(isPublicPath('/agents/a-0123456789ab/')).toBe(true);
  });

  it('builds login redirects with an encoded path and search', () => {
    expect(loginRedirectFor('/llm-chat', '?a=1&b=2')).toBe('/login?redirect=%2Fllm-chat%3Fa%3D1%26b%3D2');
  });
});
