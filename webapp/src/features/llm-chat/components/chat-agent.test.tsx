// A chat tab bound to a marketplace agent: /llm-chat?agent={id} opens a new
// tab named by the agent, on its provider and model (not changeable there),
// its conversation made with agent_id; the tab's panel lists the agent's
// servers (Connected, Connect with or without a key, Sign in), its starter
// prompts send; every message carries agent_id and the connections to the
// agent's servers only; History marks agent conversations.

import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearNotificationsForTests } from '../../../components/notifications/notification-store';
import { browserLocation } from '../../../lib/browser-location';
import { fakeAgent, fakeAgentsApi } from '../../../test/fake-agents-api';
import { SSE_DONE as DONE, fakeConversations, fakeDemoConnect, installFakeApi, sseData as frame, sseResponse as sse, type FakeApi, type FakeConversations } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { stubSystemTheme } from '../../../test/match-media';
import { renderApp } from '../../../test/render-app';
import { startSignedIn } from '../../../test/session';
import { resetChatStoreForTests } from '../store/chat-store';

const AGENT = fakeAgent({
  servers: [
    { server_id: 'local-everything', name: 'Everything', auth: 'none', tools: ['echo'], connection_id: null },
    { server_id: 'keyed', name: 'Keyed', auth: 'key', tools: ['lookup'], connection_id: null },
    { server_id: 'com.notion--mcp', name: 'Notion', auth: 'oauth', tools: ['search'], connection_id: null },
  ],
});
const PAID = fakeAgent({ id: 'a-00000000000b', name: 'Sales closer', price: 12.5, is_free: false, instructions: undefined });

const toolServer = (connection_id: string, server_id: string, server_name: string) => ({
  connection_id,
  server_id,
  server_name,
  endpoint_url: `https://${server_id}.test/mcp`,
  connected_at: '2026-03-07T09:00:00Z',
  tools: [{ name: 'echo', title: '', description: '', input_schema: {}, read_only: true, destructive: false }],
});
const registryEntry = (id: string, name: string, key = false) => ({
  id,
  name,
  description: `${name} server`,
  endpoint_url: `https://${id}.test/mcp`,
  model_type: 'general',
  api_key_required: key,
  oauth_required: false,
  is_active: true,
  supported_features: [],
  transport: 'streamable-http',
  health: { status: 'up' },
});

let api: FakeApi;
let convs: FakeConversations;
let tools: { servers: unknown[]; always_allowed: unknown[] };

beforeAll(async () => {
  await import('./llm-chat-page');
}, 30_000);

beforeEach(() => {
  stubSystemTheme(false);
  startSignedIn();
  api = installFakeApi();
  convs = fakeConversations(api);
  convs.agents[AGENT.id] = { name: AGENT.name, provider: AGENT.provider, model: AGENT.model };
  const route = api.route;
  api.route = (key, handler) => route(key, key === 'POST /api/v1/mcp-connections/message' ? (req) => convs.keepStream(req.body, handler(req)) : handler);
  // Connected to another server the agent does not use: its connection must not go with the agent's messages.
  tools = { servers: [toolServer('conn-other', 'other-server', 'Other')], always_allowed: [] };
  api.route('GET /api/v1/mcp-connections/tools', () => jsonResponse(200, tools));
  api.route('GET /api/v1/mcp-connections/', () => jsonResponse(200, []));
  fakeAgentsApi(api, { agents: [{ ...AGENT }, { ...PAID }] });
  fakeDemoConnect(api);
  api.route('POST /api/v1/mcp-connections/message', () => sse([frame({ content: 'On it.' }), DONE]));
});

afterEach(() => {
  act(() => clearNotificationsForTests());
  resetChatStoreForTests();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const panel = () => screen.findByTestId('agent-servers');
const row = (serverId: string) => {
  const el = document.querySelector<HTMLElement>(`[data-testid="agent-servers"] [data-server-id="${serverId}"]`);
  if (!el) throw new Error(`no row ${serverId}`);
  return el;
};
const streamCalls = () => api.callsTo('POST', '/api/v1/mcp-connections/message');

describe('a chat tab bound to an agent', () => {
  it("opens a new tab named by the agent, on its model, made with agent_id; the picker cannot change it", async () => {
    renderApp(`/llm-chat?agent=${AGENT.id}`);
    const tab = await screen.findByRole('tab', { name: 'Inbox helper' });
    expect(tab).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(api.callsTo('POST', '/api/v1/chat/conversations').map((c) => c.body)).toContainEqual(expect.objectContaining({ agent_id: AGENT.id, provider: 'openai', model: 'gpt-4o' })));
    expect(screen.getByLabelText('Provider')).toBeDisabled();
    expect(screen.getByLabelText('Model')).toBeDisabled();
    expect(screen.getByLabelText('Model')).toHaveValue('gpt-4o');
    expect(screen.getByTestId('agent-model-note')).toHaveTextContent('Inbox helper runs on this model.');
    // The parameter is dropped: a reload opens no second tab.
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/llm-chat$/));
    // The Tools control of an ordinary tab gives way to the agent's servers.
    expect(screen.queryByRole('button', { name: /^Tools/ })).toBeNull();
    expect(await panel()).toBeInTheDocument();
  });

  it('lists each server: Connected, or Connect / Sign in; the starters are buttons', async () => {
    tools.servers.push(toolServer('conn-notion', 'com.notion--mcp', 'Notion'));
    renderApp(`/llm-chat?agent=${AGENT.id}`);
    await panel();
    await waitFor(() => expect(within(row('com.notion--mcp')).getByText('Connected')).toBeInTheDocument());
    expect(within(row('local-everything')).getByRole('button', { name: 'Connect' })).toBeInTheDocument();
    expect(within(row('keyed')).getByRole('button', { name: 'Connect' })).toBeInTheDocument();
    expect(row('local-everything')).toHaveTextContent('Tools: echo');
    const starters = within(screen.getByTestId('agent-starters')).getAllByRole('button');
    expect(starters.map((b) => b.textContent)).toEqual(['Summarise my unread mail', 'Draft a polite no']);
  });

  it('Connect (no key) connects the server as the registry does, then shows Connected', async () => {
    const user = userEvent.setup();
    api.route('GET /api/v1/mcp-servers/local-everything', () => jsonResponse(200, registryEntry('local-everything', 'Everything')));
    api.route('POST /api/v1/mcp-connections/', () => {
      tools.servers.push(toolServer('conn-every', 'local-everything', 'Everything'));
      return jsonResponse(200, { connection_id: 'conn-every', server_id: 'local-everything', server_name: 'Everything', endpoint_url: 'https://local-everything.test/mcp', tools: [] });
    });
    renderApp(`/llm-chat?agent=${AGENT.id}`);
    await panel();
    await user.click(within(row('local-everything')).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(within(row('local-everything')).getByText('Connected')).toBeInTheDocument());
    expect(api.callsTo('POST', '/api/v1/mcp-connections/')[0].body).toEqual({
      server_id: 'local-everything',
      server_name: 'Everything',
      endpoint_url: 'https://local-everything.test/mcp',
      model_type: 'general',
    });
  });

  it('Connect of a server that needs a key asks for it, and says why a connection failed', async () => {
    const user = userEvent.setup();
    api.route('GET /api/v1/mcp-servers/keyed', () => jsonResponse(200, registryEntry('keyed', 'Keyed', true)));
    api.route('POST /api/v1/mcp-connections/', () => jsonResponse(400, { detail: 'The server refused the key.' }));
    renderApp(`/llm-chat?agent=${AGENT.id}`);
    await panel();
    await user.click(within(row('keyed')).getByRole('button', { name: 'Connect' }));
    const key = within(row('keyed')).getByLabelText('API key for Keyed');
    expect(within(row('keyed')).getByRole('button', { name: 'Connect' })).toBeDisabled();
    await user.type(key, 'sk-123');
    await user.click(within(row('keyed')).getByRole('button', { name: 'Connect' }));
    expect(await within(row('keyed')).findByRole('alert')).toHaveTextContent('Could not connect Keyed: The server refused the key.');
    expect(api.callsTo('POST', '/api/v1/mcp-connections/')[0].body).toMatchObject({ server_id: 'keyed', api_key: 'sk-123' });
  });

  it("Sign in leaves for the server's sign-in page, coming back to the chat", async () => {
    const user = userEvent.setup();
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    api.route('POST /api/v1/mcp-oauth/start', () => jsonResponse(200, { authorization_url: 'https://notion.test/authorize?x=1', scopes: [] }));
    renderApp(`/llm-chat?agent=${AGENT.id}`);
    await panel();
    await user.click(within(row('com.notion--mcp')).getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://notion.test/authorize?x=1'));
    expect(api.callsTo('POST', '/api/v1/mcp-oauth/start')[0].body).toEqual({ server_id: 'com.notion--mcp', return_to: 'chat' });
  });

  it("a starter sends itself, with agent_id and the connections to the agent's servers only", async () => {
    const user = userEvent.setup();
    tools.servers.push(toolServer('conn-notion', 'com.notion--mcp', 'Notion'));
    renderApp(`/llm-chat?agent=${AGENT.id}`);
    await panel();
    await waitFor(() => expect(within(row('com.notion--mcp')).getByText('Connected')).toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Summarise my unread mail' }));
    await waitFor(() => expect(streamCalls()).toHaveLength(1));
    const body = streamCalls()[0].body as Record<string, unknown>;
    expect(body).toMatchObject({ message: 'Summarise my unread mail', agent_id: AGENT.id, model: 'gpt-4o', mcp_connection_ids: ['conn-notion'] });
    expect(body.conversation_id).toBe(convs.all.find((c) => c.agent?.id === AGENT.id)?.id);
    // The tab keeps the agent's name, and the starters give way to the conversation.
    expect(await screen.findByText('On it.')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Inbox helper' })).toBeInTheDocument();
    expect(screen.queryByTestId('agent-starters')).toBeNull();
    // A typed message carries the agent too.
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'And the rest{Enter}');
    await waitFor(() => expect(streamCalls()).toHaveLength(2));
    expect(streamCalls()[1].body).toMatchObject({ message: 'And the rest', agent_id: AGENT.id, mcp_connection_ids: ['conn-notion'] });
  });

  it('a paid agent not bought opens no tab and says why', async () => {
    renderApp(`/llm-chat?agent=${PAID.id}`);
    await waitFor(() => expect(within(screen.getByTestId('toasts')).getByText('Buy this agent to chat with it.')).toBeInTheDocument());
    expect(screen.queryByRole('tab', { name: 'Sales closer' })).toBeNull();
    expect(api.callsTo('POST', '/api/v1/chat/conversations').some((c) => (c.body as Record<string, unknown>).agent_id)).toBe(false);
  });

  it('a reload shows an open agent conversation as its tab, bound to the agent', async () => {
    convs.seed({ title: 'Inbox helper', provider: 'openai', model: 'gpt-4o', agent: { id: AGENT.id, name: AGENT.name } });
    renderApp('/llm-chat');
    const tab = await screen.findByRole('tab', { name: 'Inbox helper' });
    await userEvent.click(tab);
    expect(await panel()).toBeInTheDocument();
    expect(screen.getByLabelText('Model')).toBeDisabled();
  });

  it("History marks an agent's conversations with the agent's name", async () => {
    const user = userEvent.setup();
    convs.seed({ title: 'Inbox helper', archived: true, agent: { id: AGENT.id, name: AGENT.name } });
    convs.seed({ title: 'Plain chat', archived: true });
    renderApp('/llm-chat');
    await screen.findByRole('textbox', { name: 'Message' });
    await user.click(screen.getByRole('button', { name: 'History' }));
    const dialog = await screen.findByRole('dialog', { name: 'History' });
    await waitFor(() => expect(within(dialog).getAllByTestId('history-item')).toHaveLength(2));
    const marks = within(dialog).getAllByTestId('history-agent');
    expect(marks.map((m) => m.textContent)).toEqual(['Agent: Inbox helper']);
  });
});
