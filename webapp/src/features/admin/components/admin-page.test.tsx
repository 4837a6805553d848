import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { setUpPageTests } from '../../../test/page-tests';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { renderApp } from '../../../test/render-app';
import { ADA, startSignedIn, startSignedOut } from '../../../test/session';
import { ADMIN_FORBIDDEN, fakeAdminApi, prompt } from '../test-fixtures';

const api = setUpPageTests();
const ADMIN = { ...ADA, is_admin: true };
const location = () => screen.getByTestId('location');
const adminCalls = () => api.calls.filter((c) => c.path.startsWith('/api/v1/admin'));

// The route is lazy: transform its module once, so the first test does not pay for it.
beforeAll(async () => {
  await import('./admin-page');
}, 60_000);

describe('admin guard', () => {
  it('sends a visitor to log in, coming back to the section asked for', async () => {
    startSignedOut();
    renderApp('/admin/users');
    await waitFor(() => expect(location()).toHaveTextContent('/login?redirect=%2Fadmin%2Fusers'));
    expect(await screen.findByRole('form', { name: 'Sign in' })).toBeInTheDocument();
    expect(adminCalls()).toHaveLength(0);
  });

  it('shows a signed-in user who is not an admin the 403 page, and asks the admin API nothing', async () => {
    startSignedIn(ADA);
    renderApp('/admin/prompts');
    expect(await screen.findByRole('heading', { level: 1, name: '403' })).toBeInTheDocument();
    expect(screen.getByTestId('admin-forbidden')).toHaveTextContent('Only admins can open the admin area');
    expect(screen.getByRole('link', { name: 'Back to the dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.queryByRole('navigation', { name: 'Admin sections' })).toBeNull();
    expect(adminCalls()).toHaveLength(0);
  });

  it('shows the 403 page when the API answers 403 to a read (admin revoked mid-session)', async () => {
    startSignedIn(ADMIN);
    fakeAdminApi(api);
    api.route('GET /api/v1/admin/prompts', () => jsonResponse(403, ADMIN_FORBIDDEN));
    renderApp('/admin/prompts');
    expect(await screen.findByRole('heading', { level: 1, name: '403' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 1, name: 'Admin' })).toBeNull();
  });

  it('shows the 403 page when the API answers 403 to a write', async () => {
    startSignedIn(ADMIN);
    fakeAdminApi(api, { prompts: [prompt({ id: 'p1', title: 'Cold email' })] });
    api.route('PATCH /api/v1/admin/prompts/p1', () => jsonResponse(403, ADMIN_FORBIDDEN));
    renderApp('/admin/prompts');
    await userEvent.click(await screen.findByRole('button', { name: 'Unpublish Cold email' }));
    expect(await screen.findByRole('heading', { level: 1, name: '403' })).toBeInTheDocument();
    expect(api.callsTo('PATCH', '/api/v1/admin/prompts/p1')).toHaveLength(1);
  });
});

describe('admin page', () => {
  it('/admin opens Prompts; each section is its own address, reached from the section links', async () => {
    startSignedIn(ADMIN);
    fakeAdminApi(api);
    renderApp('/admin');
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin' })).toBeInTheDocument();
    await waitFor(() => expect(location()).toHaveTextContent(/^\/admin\/prompts$/));
    const nav = screen.getByRole('navigation', { name: 'Admin sections' });
    expect(within(nav).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Prompts', '/admin/prompts'],
      ['Categories', '/admin/categories'],
      ['MCP servers', '/admin/mcp-servers'],
      ['Reviews', '/admin/reviews'],
      ['Creators', '/admin/creators'],
      ['Agents', '/admin/agents'],
      ['Orders', '/admin/orders'],
      ['Users', '/admin/users'],
      ['Audit log', '/admin/audit'],
    ]);
    expect(within(nav).getByRole('link', { name: 'Prompts' })).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByRole('heading', { level: 2, name: 'Prompts' })).toBeInTheDocument();

    await userEvent.click(within(nav).getByRole('link', { name: 'Orders' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Orders' })).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/admin\/orders$/);
    expect(within(nav).getByRole('link', { name: 'Orders' })).toHaveAttribute('aria-current', 'page');
    expect(document.title).toBe('Orders · Admin · AIWork');
  });

  it('says so on an address under /admin that is no section', async () => {
    startSignedIn(ADMIN);
    fakeAdminApi(api);
    renderApp('/admin/nope');
    expect(await screen.findByTestId('admin-unknown-section')).toHaveTextContent('There is no such admin section.');
    expect(screen.getByRole('link', { name: 'Go to Prompts' })).toHaveAttribute('href', '/admin/prompts');
  });
});
