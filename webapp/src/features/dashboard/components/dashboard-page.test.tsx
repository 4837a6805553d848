import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/render-app';
import { getAuthState, initAuth, resetAuthForTests } from '../../../lib/auth-session';
import type { FakeHandler } from '../../../test/fake-api';
import { jsonResponse, tokenExpiringIn } from '../../../test/jwt-fixtures';
import { ADA, startSignedIn, UNVERIFIED_ADA } from '../../../test/session';
import { setUpPageTests } from '../../../test/page-tests';
import { greetingName } from './dashboard-page';

const api = setUpPageTests();
/** Answers these routes ("METHOD /api/v1/path"); any other call gets a 404. */
function serve(routes: Record<string, FakeHandler>) {
  for (const [key, handler] of Object.entries(routes)) api.route(key, handler);
}
/** The calls to exactly this URL (no query string), whatever their method. */
const callsTo = (url: string) => api.calls.filter((c) => c.path + c.search === url);

describe('greetingName', () => {
  it('uses full name, else username, else User', () => {
    expect(greetingName({ full_name: 'Ada Lovelace', username: 'ada' })).toBe('Ada Lovelace');
    expect(greetingName({ full_name: '', username: 'ada' })).toBe('ada');
    expect(greetingName({ full_name: '', username: '' })).toBe('User');
    expect(greetingName(null)).toBe('User');
  });
});

describe('DashboardPage', () => {
  it('greets, counts owned prompts and lists activities with relative times', async () => {
    startSignedIn();
    const recent = new Date(Date.now() - 5 * 60_000).toISOString();
    serve({
      'GET /api/v1/payments/owned-prompts': () => jsonResponse(200, { owned_prompt_ids: ['p1', 'p2', 'p3'] }),
      'GET /api/v1/users/activities': () =>
        jsonResponse(200, [
          { id: 'a1', type: 'purchase', title: 'Prompt purchased', description: 'Cold email', created_at: recent, amount: 9.5, prompt_title: 'Cold email' },
        ]),
    });
    renderApp('/dashboard');
    expect(await screen.findByTestId('dashboard-greeting')).toHaveTextContent('Welcome back, Ada Lovelace!');
    const purchased = await screen.findByRole('link', { name: 'Purchased Prompts: 3' });
    expect(purchased).toHaveAttribute('href', '/marketplace?filter=purchased');
    expect(screen.getByText('Active Connections').parentElement).toHaveTextContent('0');
    expect(screen.getByText('Chat Sessions').parentElement).toHaveTextContent('0');
    expect(await screen.findByText('Prompt purchased')).toBeInTheDocument();
    expect(screen.getByText('5 minutes ago')).toBeInTheDocument();
    expect(screen.getByText('$9.50')).toBeInTheDocument();
    for (const href of ['/marketplace', '/registry', '/llm-chat']) {
      expect(screen.getAllByRole('link').some((a) => a.getAttribute('href') === href)).toBe(true);
    }
  });

  // Chat Sessions is the real number of the user's conversations.
  it('counts the conversations kept with the account in Chat Sessions, linking to the chat', async () => {
    startSignedIn();
    serve({
      'GET /api/v1/payments/owned-prompts': () => jsonResponse(200, { owned_prompt_ids: [] }),
      'GET /api/v1/users/activities': () => jsonResponse(200, []),
      'GET /api/v1/chat/conversations': () => jsonResponse(200, { conversations: [{ id: 'c1' }], next_cursor: 'x', total: 7 }),
    });
    renderApp('/dashboard');
    const sessions = await screen.findByRole('link', { name: 'Chat Sessions: 7' });
    expect(sessions).toHaveAttribute('href', '/llm-chat');
    expect(api.callsTo('GET', '/api/v1/chat/conversations')[0].search).toBe('?limit=1');
  });

  // The count and the list behind its link agree: free claims are in neither.
  it('the Purchased Prompts count and the list it links to agree: purchases, not free claims', async () => {
    startSignedIn();
    const p = (id: string, extra: object = {}) => ({ id, title: `Prompt ${id}`, description: '', preview: 'Preview', price: 5, ...extra });
    serve({
      'GET /api/v1/payments/owned-prompts': () => jsonResponse(200, { owned_prompt_ids: ['bought'] }),
      'GET /api/v1/users/activities': () => jsonResponse(200, []),
      'GET /api/v1/prompts/free-usage-status': () => jsonResponse(200, { remaining: 0, total_allowed: 5, used: 5, prompt_ids: ['f1', 'f2', 'f3', 'f4', 'f5'] }),
      'GET /api/v1/prompts/categories': () => jsonResponse(200, []),
      // The server lists the caller's own under ?filter=.
      'GET /api/v1/prompts/': ({ url }) => {
        const all = [p('bought', { is_purchased: true, content: 'c' }), ...['f1', 'f2', 'f3', 'f4', 'f5'].map((id) => p(id, { content: 'c' })), p('other')];
        const filter = url.searchParams.get('filter');
        return jsonResponse(200, filter === 'purchased' ? all.slice(0, 1) : filter === 'mine' ? all.slice(0, 6) : all);
      },
    });
    renderApp('/dashboard');
    const card = await screen.findByRole('link', { name: 'Purchased Prompts: 1' });
    await userEvent.click(card);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/marketplace?filter=purchased'));
    expect(await screen.findByTestId('prompt-count')).toHaveTextContent('1 prompts found');
    expect(screen.getAllByTestId('prompt-card').map((c) => c.getAttribute('data-prompt-id'))).toEqual(['bought']);
  });

  it('shows the empty text when there is no activity, and 0 purchased on failure', async () => {
    startSignedIn();
    serve({
      'GET /api/v1/payments/owned-prompts': () => jsonResponse(500, { detail: 'Internal error.' }),
      'GET /api/v1/users/activities': () => jsonResponse(200, []),
    });
    renderApp('/dashboard');
    expect(await screen.findByText('Your recent activity will appear here as you use the platform')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Purchased Prompts: 0' })).toBeInTheDocument();
  });

  it('builds fallback activities when the activities call fails', async () => {
    startSignedIn();
    serve({
      'GET /api/v1/payments/owned-prompts': () => jsonResponse(200, { owned_prompt_ids: ['p1'] }),
      'GET /api/v1/users/activities': () => jsonResponse(404, { detail: 'Not found' }),
      'GET /api/v1/prompts/': () => jsonResponse(200, [{ id: 'p1', title: 'Launch plan', description: '', price: 7 }]),
    });
    renderApp('/dashboard');
    expect(await screen.findByText('You purchased "Launch plan"')).toBeInTheDocument();
    expect(screen.getByText('Account created')).toBeInTheDocument();
    expect(screen.getByText('Signed in')).toBeInTheDocument();
    expect(screen.getByText('$7.00')).toBeInTheDocument();
  });

  it('uses the fallback price 12.99 when the prompt list fails too', async () => {
    startSignedIn();
    serve({
      'GET /api/v1/payments/owned-prompts': () => jsonResponse(200, { owned_prompt_ids: ['p9'] }),
      'GET /api/v1/users/activities': () => jsonResponse(500, {}),
    });
    renderApp('/dashboard');
    expect(await screen.findByText('$12.99')).toBeInTheDocument();
  });

  it('counts the real MCP connections in Active Connections, linking to the registry', async () => {
    startSignedIn();
    const conn = (id: string) => ({
      connection_id: id,
      server_id: 'local-everything',
      server_name: 'Everything (local reference server)',
      endpoint_url: 'http://127.0.0.1:3001/mcp',
      model_type: 'reference',
      transport: 'streamable-http',
      protocol_version: '2025-06-18',
      tools_count: 13,
      has_api_key: false,
      api_key_last4: '',
      connected_at: new Date().toISOString(),
    });
    serve({
      'GET /api/v1/payments/owned-prompts': () => jsonResponse(200, { owned_prompt_ids: [] }),
      'GET /api/v1/users/activities': () => jsonResponse(200, []),
      'GET /api/v1/mcp-connections/': () => jsonResponse(200, [conn('c1'), conn('c2')]),
    });
    renderApp('/dashboard');
    const stat = await screen.findByRole('link', { name: 'Active Connections: 2' });
    expect(stat).toHaveAttribute('href', '/registry');
    const [call] = callsTo('/api/v1/mcp-connections/');
    expect(call?.headers).toMatchObject({ Authorization: expect.stringMatching(/^Bearer /) });
  });

  it('shows 0 Active Connections while the list loads and when it fails', async () => {
    startSignedIn();
    let release!: (r: Response) => void;
    serve({
      'GET /api/v1/users/activities': () => jsonResponse(200, []),
      'GET /api/v1/mcp-connections/': () => new Promise<Response>((r) => (release = r)),
    });
    renderApp('/dashboard');
    expect(await screen.findByRole('link', { name: 'Active Connections: 0' })).toBeInTheDocument();
    await waitFor(() => expect(release).toBeTypeOf('function'));
    await act(async () => release(jsonResponse(500, { detail: 'Internal error.' })));
    expect(await screen.findByRole('link', { name: 'Active Connections: 0' })).toBeInTheDocument();
  });

  it('greets by username, else User', async () => {
    startSignedIn({ ...ADA, full_name: '' });
    serve({});
    renderApp('/dashboard');
    expect(await screen.findByTestId('dashboard-greeting')).toHaveTextContent('Welcome back, ada!');
  });

  it('logs out to /', async () => {
    startSignedIn();
    serve({});
    renderApp('/dashboard');
    const greeting = await screen.findByTestId('dashboard-greeting');
    await userEvent.click(within(greeting.parentElement!).getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(getAuthState().status).toBe('unauthenticated');
    expect(localStorage.getItem('auth-storage')).toBeNull();
    expect(await screen.findByRole('link', { name: 'Login' })).toBeInTheDocument();
  });
});

describe('DashboardPage: email confirmation', () => {
  const apiAda = (verified: boolean) => ({
    id: 'u1',
    email: 'ada@example.com',
    username: 'ada',
    full_name: 'Ada Lovelace',
    is_superuser: false,
    is_verified: verified,
  });
  const meCalls = () => callsTo('/api/v1/auth/me');

  it('tells an unverified user to confirm the address, with Resend email', async () => {
    startSignedIn(UNVERIFIED_ADA);
    serve({
      'GET /api/v1/auth/me': () => jsonResponse(200, apiAda(false)),
      'POST /api/v1/auth/resend-verification': () =>
        jsonResponse(200, { status: 'sent', detail: 'We sent a new confirmation link to ada@example.com. It works once, for 24 hours.' }),
    });
    renderApp('/dashboard');
    const notice = await screen.findByTestId('confirm-email-notice');
    expect(notice).toHaveTextContent('Confirm your email address');
    expect(notice).toHaveTextContent('We sent a confirmation link to ada@example.com');
    await waitFor(() => expect(meCalls()).toHaveLength(1));
    await userEvent.click(within(notice).getByRole('button', { name: 'Resend email' }));
    expect(await within(screen.getByTestId('toasts')).findByText(/We sent a new confirmation link to ada@example.com/)).toBeInTheDocument();
    const resend = callsTo('/api/v1/auth/resend-verification');
    expect(resend).toHaveLength(1);
    expect(resend[0].method).toBe('POST');
    // Still unverified: the notice stays.
    expect(screen.getByTestId('confirm-email-notice')).toBeInTheDocument();
  });

  it('asks /auth/me on mount and drops the notice once the address is confirmed', async () => {
    startSignedIn(UNVERIFIED_ADA);
    serve({ 'GET /api/v1/auth/me': () => jsonResponse(200, apiAda(true)) });
    renderApp('/dashboard');
    await waitFor(() => expect(meCalls()).toHaveLength(1));
    await waitFor(() => expect(screen.queryByTestId('confirm-email-notice')).not.toBeInTheDocument());
    expect(getAuthState().user).toMatchObject({ id: 'u1', is_verified: true });
    expect(JSON.parse(localStorage.getItem('auth-storage')!).user.is_verified).toBe(true);
  });

  it('Resend answering already_verified refreshes the user and drops the notice', async () => {
    startSignedIn(UNVERIFIED_ADA);
    let verified = false;
    serve({
      'GET /api/v1/auth/me': () => jsonResponse(200, apiAda(verified)),
      'POST /api/v1/auth/resend-verification': () => {
        verified = true;
        return jsonResponse(200, { status: 'already_verified', detail: 'Your email address is already confirmed.' });
      },
    });
    renderApp('/dashboard');
    const notice = await screen.findByTestId('confirm-email-notice');
    await waitFor(() => expect(meCalls()).toHaveLength(1));
    await userEvent.click(within(notice).getByRole('button', { name: 'Resend email' }));
    expect(await within(screen.getByTestId('toasts')).findByText('Your email address is already confirmed.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('confirm-email-notice')).not.toBeInTheDocument());
  });

  it('a verified user sees no notice and the dashboard does not ask /auth/me', async () => {
    startSignedIn(ADA);
    serve({ 'GET /api/v1/users/activities': () => jsonResponse(200, []) });
    renderApp('/dashboard');
    expect(await screen.findByText('Your recent activity will appear here as you use the platform')).toBeInTheDocument();
    expect(screen.queryByTestId('confirm-email-notice')).not.toBeInTheDocument();
    expect(meCalls()).toHaveLength(0);
  });

  it('a session stored before is_verified existed asks the server rather than assuming', async () => {
    const { is_verified: _omit, ...old } = ADA;
    resetAuthForTests();
    localStorage.setItem('auth-storage', JSON.stringify({ user: old, token: tokenExpiringIn(3600), isAuthenticated: true }));
    initAuth();
    serve({ 'GET /api/v1/auth/me': () => jsonResponse(200, apiAda(true)) });
    renderApp('/dashboard');
    await waitFor(() => expect(meCalls()).toHaveLength(1));
    await waitFor(() => expect(getAuthState().user?.is_verified).toBe(true));
    expect(screen.queryByTestId('confirm-email-notice')).not.toBeInTheDocument();
  });
});

