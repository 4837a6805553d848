// A tool call whose server wants the user to sign in again (the
// tool_signin frame): the card in the tool block ("{server} needs you to
// sign in", the reason and scope, Sign in and Continue), Sign in starting
// the OAuth flow for that connection with the scope and a return to the
// chat, the paused reply going on by itself once the browser is back on
// /llm-chat?connected=…, Continue, and a refused resume.

import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearNotificationsForTests } from '../../../components/notifications/notification-store';
import { fakeConversations, fakeDemoConnect, installFakeApi, sseData, sseResponse, SSE_DONE, type FakeApi, type FakeConversations } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { stubSystemTheme } from '../../../test/match-media';
import { renderApp } from '../../../test/render-app';
import { startSignedIn } from '../../../test/session';
import { resetChatStoreForTests, SIGNIN_FIRST } from '../store/chat-store';
import { leavePage } from '../store/signin';

const SERVER = {
  connection_id: 'oauth-c1',
  server_id: 'stepup',
  server_name: 'Step Up',
  endpoint_url: 'https://mcp.example.com/mcp',
  connected_at: '2026-03-07T09:00:00Z',
  tools: [{ name: 'write', title: '', description: 'Writes', input_schema: { type: 'object' }, read_only: true, destructive: false }],
};
const CALL = { id: 'call_1', server_id: 'stepup', server_name: 'Step Up', tool: 'write', arguments: {} };
const SIGNIN = {
  id: 'call_1',
  server_id: 'stepup',
  server_name: 'Step Up',
  connection_id: 'oauth-c1',
  endpoint_url: 'https://mcp.example.com/mcp',
  scope: 'mcp:write',
  reason: 'Step Up needs you to sign in again to allow write (scope mcp:write) before write can run.',
  token: 'ts_1',
  signin_id: 'sid_1',
  expires_at: new Date(Date.now() + 15 * 60_000).toISOString(),
};
const RESULT = { id: 'call_1', is_error: false, content: [{ type: 'text', text: 'written' }], duration_ms: 30 };
const AUTH_URL = 'https://auth.example.com/authorize?state=s1';

let api: FakeApi;
let convs: FakeConversations;
let onMessage: (body: Record<string, unknown>) => Response | Promise<Response>;
let left: string[];

beforeAll(async () => {
  await import('./llm-chat-page');
}, 30_000);

beforeEach(() => {
  stubSystemTheme(false);
  startSignedIn();
  api = installFakeApi();
  convs = fakeConversations(api);
  left = [];
  vi.spyOn(leavePage, 'to').mockImplementation((url: string) => void left.push(url));
  api.route('GET /api/v1/mcp-connections/tools', () => jsonResponse(200, { servers: [SERVER], always_allowed: [] }));
  fakeDemoConnect(api);
  api.route('POST /api/v1/mcp-oauth/start', () => jsonResponse(200, { authorization_url: AUTH_URL, scopes: ['mcp:basic', 'mcp:write'] }));
  onMessage = () => sseResponse([sseData({ tool_call: CALL }), sseData({ tool_signin: SIGNIN })]);
  api.route('POST /api/v1/mcp-connections/message', (req) => {
    const body = req.body as Record<string, unknown>;
    return body.signin ? onMessage(body) : convs.keepStream(body, onMessage(body));
  });
});

afterEach(() => {
  act(() => clearNotificationsForTests());
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

const messages = () => within(screen.getByTestId('messages')).queryAllByTestId('message');
const resumes = () =>
  api
    .callsTo('POST', '/api/v1/mcp-connections/message')
    .map((c) => c.body as Record<string, unknown>)
    .filter((b) => b.signin);

async function paused(user: ReturnType<typeof userEvent.setup>) {
  const view = renderApp('/llm-chat');
  const box = await screen.findByRole('textbox', { name: 'Message' });
  await waitFor(() => expect(screen.getByTestId('tools-button')).toHaveAttribute('data-count', '1'));
  await user.type(box, 'write it{Enter}');
  return { card: await screen.findByTestId('tool-signin'), unmount: view.unmount };
}

describe('a tool call that asks for sign-in', () => {
  it('shows "{server} needs you to sign in" in the tool block with the reason and scope; the reply waits and holds new messages back', async () => {
    const user = userEvent.setup();
    const { card } = await paused(user);
    expect(card).toHaveAccessibleName('Step Up needs you to sign in');
    expect(card).toHaveTextContent('Step Up needs you to sign in');
    expect(within(card).getByTestId('signin-reason')).toHaveTextContent('sign in again to allow write');
    expect(within(card).getByTestId('signin-scope')).toHaveTextContent('mcp:write');
    expect(within(card).getByTestId('tool-state')).toHaveTextContent('Waiting for sign-in');
    expect(within(card).getByRole('button', { name: 'Sign in' })).toBeEnabled();
    expect(within(card).getByRole('button', { name: 'Continue' })).toBeEnabled();
    expect(messages()[1]).toHaveAttribute('data-paused', 'true');
    expect(screen.getByTestId('input-blocked')).toHaveTextContent(SIGNIN_FIRST);
  });

  it('Sign in starts the OAuth flow for that connection with the scope and a return to the chat, and leaves for the server page', async () => {
    const user = userEvent.setup();
    const { card } = await paused(user);
    await user.click(within(card).getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(left).toEqual([AUTH_URL]));
    expect(api.callsTo('POST', '/api/v1/mcp-oauth/start').map((c) => c.body)).toEqual([
      { server_id: 'stepup', endpoint_url: 'https://mcp.example.com/mcp', connection_id: 'oauth-c1', scope: 'mcp:write', return_to: 'chat' },
    ]);
    expect(screen.getByTestId('tool-signin')).toHaveAttribute('data-state', 'signing');
  });

  it('back on /llm-chat?connected=… after the round trip, the kept reply resumes by itself with its id and runs the call', async () => {
    const user = userEvent.setup();
    const { unmount } = await paused(user);
    // The full-page round trip: another page load, the chat read back from the server (no token there).
    unmount();
    act(() => resetChatStoreForTests());
    for (const key of Object.keys(localStorage)) if (key.startsWith('chat-')) localStorage.removeItem(key);
    onMessage = () => sseResponse([sseData({ tool_result: RESULT }), sseData({ content: 'Done.' }), SSE_DONE]);
    window.history.replaceState(null, '', '/llm-chat?connected=stepup');
    renderApp('/llm-chat?connected=stepup');
    await waitFor(() => expect(resumes()).toHaveLength(1));
    expect(resumes()[0]).toEqual({ connection_id: 'chat-conn', message: '', model: 'gpt-4o-mini', context: [], signin: { id: 'sid_1' } });
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    expect(messages()[1]).toHaveTextContent('written');
    expect(messages()[1]).toHaveTextContent('Done.');
    expect(screen.queryByTestId('tool-signin')).toBeNull();
    expect(window.location.search).toBe('');
  });

  it('Continue resumes with the token; a replayed or expired one (409) says so on the card and ends the reply', async () => {
    const user = userEvent.setup();
    const { card } = await paused(user);
    onMessage = () => jsonResponse(409, { detail: 'This reply already went on after the sign-in.' });
    await user.click(within(card).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.getByTestId('tool-signin')).toHaveAttribute('data-state', 'failed'));
    expect(resumes()[0].signin).toEqual({ token: 'ts_1' });
    expect(screen.getByTestId('tool-signin')).toHaveTextContent('This reply already went on after the sign-in.');
    expect(messages()[1]).toHaveAttribute('data-complete', 'true');
    expect(screen.queryByTestId('input-blocked')).toBeNull();
  });
});
