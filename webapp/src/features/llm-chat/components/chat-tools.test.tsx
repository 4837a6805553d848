// MCP tools in the chat page: the Tools control (servers with their switch,
// the read-only setting, always-allowed tools and Revoke), what a message
// sends, tool call blocks in the reply, and the approval card (Approve,
// Deny, a refused token, expiry, a reload while it waits).

import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearNotificationsForTests } from '../../../components/notifications/notification-store';
import { SSE_DONE as DONE, fakeConversations, fakeDemoConnect, installFakeApi, sseData as frame, sseResponse as sse, type FakeApi } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { stubSystemTheme } from '../../../test/match-media';
import { renderApp } from '../../../test/render-app';
import { ADA, startSignedIn } from '../../../test/session';
import { resetChatStoreForTests } from '../store/chat-store';

const USAGE = frame({ usage: { input_tokens: 20, output_tokens: 10, cost_usd: 0, demo: true } });

const EVERYTHING = 'Everything (local reference server)';
const tool = (name: string, read_only = true) => ({ name, title: '', description: `${name} tool`, input_schema: { type: 'object' }, read_only, destructive: false });
const SERVER = {
  connection_id: 'mcp-conn-1',
  server_id: 'local-everything',
  server_name: EVERYTHING,
  endpoint_url: 'http://127.0.0.1:3001/mcp',
  connected_at: '2026-03-07T09:00:00Z',
  tools: [tool('echo'), tool('get-sum'), tool('toggle-simulated-logging', false)],
};
const ALLOWED = {
  server_id: 'local-everything',
  tool: 'toggle-simulated-logging',
  endpoint: 'http://127.0.0.1:3001/mcp',
  endpoint_label: '127.0.0.1:3001/mcp',
  destructive: false,
  changed: [],
  created_at: '2026-03-07T09:30:00Z',
};
const SUM_CALL = { id: 'call_1', server_id: 'local-everything', server_name: EVERYTHING, tool: 'get-sum', arguments: { a: 2, b: 3 } };
const SUM_RESULT = { id: 'call_1', is_error: false, content: [{ type: 'text', text: 'The sum of 2 and 3 is 5.' }], duration_ms: 12 };
const TOGGLE_CALL = { id: 'call_2', server_id: 'local-everything', server_name: EVERYTHING, tool: 'toggle-simulated-logging', arguments: {} };
const approvalEvent = (
  expiresAt = new Date(Date.now() + 10 * 60_000).toISOString(),
  annotations: Record<string, boolean> = { readOnlyHint: false },
  more: Record<string, unknown> = {},
) =>
  `event: tool_approval\ndata: ${JSON.stringify({
    token: 'tok_1',
    expires_at: expiresAt,
    call: { ...TOGGLE_CALL, description: 'Toggles simulated, random-leveled logging on or off.', annotations, ...more },
  })}\n\n`;

let api: FakeApi;
let tools: { servers: unknown[]; always_allowed: unknown[] };

beforeAll(async () => {
  await import('./llm-chat-page');
}, 30_000);

beforeEach(() => {
  stubSystemTheme(false);
  startSignedIn();
  api = installFakeApi();
  // Conversations kept with the account: every message stream is kept as the server does.
  const convs = fakeConversations(api);
  const route = api.route;
  api.route = (key, handler) =>
    route(key, key === 'POST /api/v1/mcp-connections/message' ? (req) => convs.keepStream(req.body, handler(req)) : handler);
  tools = { servers: [SERVER], always_allowed: [] };
  api.route('GET /api/v1/mcp-connections/tools', () => jsonResponse(200, tools));
  fakeDemoConnect(api);
  api.route('POST /api/v1/mcp-connections/message', () => sse([frame({ content: 'Hello' }), DONE]));
});

afterEach(() => {
  act(() => clearNotificationsForTests());
  vi.unstubAllGlobals();
});

const input = () => screen.findByRole('textbox', { name: 'Message' });
const messages = () => within(screen.getByTestId('messages')).queryAllByTestId('message');
const streamBodies = () => api.callsTo('POST', '/api/v1/mcp-connections/message').map((c) => c.body as Record<string, unknown>);
const toolsButton = () => screen.getByTestId('tools-button');

async function openTools(user: ReturnType<typeof userEvent.setup>) {
  await user.click(toolsButton());
  return screen.findByRole('dialog', { name: 'Tools' });
}

describe('the Tools control', () => {
  it('shows the count of enabled servers and lists them with their tool counts; a switch turns one off for the tab', async () => {
    const user = userEvent.setup();
    renderApp('/llm-chat');
    await input();
    await waitFor(() => expect(toolsButton()).toHaveAttribute('data-count', '1'));
    expect(toolsButton()).toHaveAccessibleName('Tools, 1 server on');
    expect(screen.getByTestId('chat-empty-tools')).toHaveTextContent(`Tools: echo, get-sum, toggle-simulated-logging from ${EVERYTHING}`);

    const dialog = await openTools(user);
    expect(toolsButton()).toHaveAttribute('aria-expanded', 'true');
    const item = within(dialog).getByTestId('tool-server');
    expect(item).toHaveTextContent(EVERYTHING);
    expect(within(item).getByTestId('tool-count')).toHaveTextContent('3 tools');
    const toggle = within(item).getByRole('switch', { name: EVERYTHING });
    expect(toggle).toBeChecked();

    await user.click(toggle);
    expect(toggle).not.toBeChecked();
    expect(toolsButton()).toHaveAttribute('data-count', '0');
    expect(screen.queryByTestId('chat-empty-tools')).toBeNull();
    // Remembered with the tab (made a server conversation by the change, so stored).
    await waitFor(() => {
      const tabs = JSON.parse(localStorage.getItem(`chat-tabs:${ADA.id}`) ?? '[]') as { toolsOff?: string[] }[];
      expect(tabs[0]?.toolsOff).toEqual(['mcp-conn-1']);
    });

    // Keyboard: Escape closes it and focus goes back to the button.
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Tools' })).toBeNull());
    expect(toolsButton()).toHaveFocus();
    expect(toolsButton()).toHaveAttribute('aria-expanded', 'false');
  });

  it('a server connected at another endpoint shows its host beside the name', async () => {
    const user = userEvent.setup();
    const local = { ...SERVER, connection_id: 'mcp-conn-2', endpoint_url: 'http://127.0.0.1:18101/mcp', endpoint_host: '127.0.0.1:18101', tools: [tool('echo')] };
    tools = { servers: [SERVER, local], always_allowed: [] };
    renderApp('/llm-chat');
    await input();
    await waitFor(() => expect(toolsButton()).toHaveAttribute('data-count', '2'));
    expect(screen.getByTestId('chat-empty-tools')).toHaveTextContent(`from ${EVERYTHING}; echo from ${EVERYTHING} · 127.0.0.1:18101`);

    const dialog = await openTools(user);
    expect(within(dialog).getByRole('switch', { name: EVERYTHING })).toBeChecked();
    expect(within(dialog).getByRole('switch', { name: `${EVERYTHING} · 127.0.0.1:18101` })).toBeChecked();
  });

  it('with no servers says so and links to the registry', async () => {
    const user = userEvent.setup();
    tools = { servers: [], always_allowed: [] };
    renderApp('/llm-chat');
    await input();
    await waitFor(() => expect(api.callsTo('GET', '/api/v1/mcp-connections/tools')).toHaveLength(1));
    const dialog = await openTools(user);
    const empty = await within(dialog).findByTestId('tools-empty');
    expect(empty).toHaveTextContent('No MCP servers connected. Connect one in the MCP Registry.');
    expect(within(empty).getByRole('link', { name: 'MCP Registry' })).toHaveAttribute('href', '/registry');
    expect(toolsButton()).toHaveAttribute('data-count', '0');
    expect(screen.queryByTestId('chat-empty-tools')).toBeNull();
  });

  it('lists always-allowed tools with their endpoint; Revoke deletes that endpoint\'s and reloads the list', async () => {
    const user = userEvent.setup();
    tools = { servers: [SERVER], always_allowed: [ALLOWED] };
    api.route('DELETE /api/v1/mcp-connections/tools/always/local-everything/toggle-simulated-logging', () => {
      tools = { servers: [SERVER], always_allowed: [] };
      return new Response(null, { status: 204 });
    });
    renderApp('/llm-chat');
    await input();
    const dialog = await openTools(user);
    const allowed = await within(dialog).findByTestId('always-allowed');
    expect(allowed).toHaveTextContent(`toggle-simulated-logging on ${EVERYTHING} at 127.0.0.1:3001/mcp`);
    expect(within(allowed).queryByTestId('always-changed')).toBeNull();
    expect(allowed).not.toHaveTextContent('destructive');
    await user.click(within(allowed).getByRole('button', { name: `Revoke toggle-simulated-logging on ${EVERYTHING} at 127.0.0.1:3001/mcp` }));
    await within(dialog).findByTestId('always-empty');
    const calls = api.callsTo('DELETE', '/api/v1/mcp-connections/tools/always/local-everything/toggle-simulated-logging');
    expect(calls.map((c) => c.search)).toEqual([`?endpoint=${encodeURIComponent('http://127.0.0.1:3001/mcp')}`]);
  });

  it('lists each endpoint\'s allowance of a tool, marked destructive or changed; an old one revokes by its empty endpoint', async () => {
    const user = userEvent.setup();
    const twin = { ...ALLOWED, endpoint: 'http://127.0.0.1:18778/mcp', endpoint_label: '127.0.0.1:18778/mcp', destructive: true, changed: ['description', 'annotations'] };
    const old = { server_id: 'local-everything', tool: 'toggle-simulated-logging', endpoint: '', endpoint_label: '', destructive: false, changed: ['unrecorded'], created_at: '2026-01-01T00:00:00Z' };
    tools = { servers: [SERVER], always_allowed: [ALLOWED, twin, old] };
    api.route('DELETE /api/v1/mcp-connections/tools/always/local-everything/toggle-simulated-logging', () => {
      tools = { servers: [SERVER], always_allowed: [ALLOWED, twin] };
      return new Response(null, { status: 204 });
    });
    renderApp('/llm-chat');
    await input();
    const dialog = await openTools(user);
    await within(dialog).findAllByTestId('always-allowed');
    const [first, second, third] = within(dialog).getAllByTestId('always-allowed');
    expect(within(first).getByTestId('always-endpoint')).toHaveTextContent('at 127.0.0.1:3001/mcp');
    expect(within(second).getByTestId('always-endpoint')).toHaveTextContent('at 127.0.0.1:18778/mcp');
    expect(second).toHaveTextContent('destructive');
    expect(within(second).getByTestId('always-changed')).toHaveTextContent('changed since allowed: asks again');
    expect(within(third).getByTestId('always-endpoint')).toHaveTextContent('any address (allowed before addresses were recorded)');
    expect(within(third).getByTestId('always-changed')).toHaveTextContent('allowed before changes were tracked: asks again');

    await user.click(within(third).getByRole('button', { name: /^Revoke toggle-simulated-logging on .* at any address/ }));
    await waitFor(() => expect(within(dialog).getAllByTestId('always-allowed')).toHaveLength(2));
    const calls = api.callsTo('DELETE', '/api/v1/mcp-connections/tools/always/local-everything/toggle-simulated-logging');
    expect(calls.map((c) => c.search)).toEqual(['?endpoint=']);
  });

  it('a message sends the enabled servers and the read-only setting; none when all are off', async () => {
    const user = userEvent.setup();
    renderApp('/llm-chat');
    const box = await input();
    await waitFor(() => expect(toolsButton()).toHaveAttribute('data-count', '1'));
    const dialog = await openTools(user);
    await user.click(within(dialog).getByRole('checkbox', { name: 'Ask before read-only tools too' }));
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));

    await user.type(box, 'first{Enter}');
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    expect(streamBodies()[0]).toEqual({
      connection_id: 'chat-conn',
      message: 'first',
      model: 'gpt-4o-mini',
      context: [],
      mcp_connection_ids: ['mcp-conn-1'],
      confirm_read_only: true,
      conversation_id: expect.any(String),
    });

    await user.click(toolsButton());
    await user.click(within(await screen.findByRole('dialog', { name: 'Tools' })).getByRole('switch', { name: EVERYTHING }));
    await user.keyboard('{Escape}');
    await user.type(box, 'second{Enter}');
    await waitFor(() => expect(messages()[3]).toHaveAttribute('data-complete', 'true'));
    expect(streamBodies()[1]).not.toHaveProperty('mcp_connection_ids');
    expect(streamBodies()[1]).not.toHaveProperty('confirm_read_only');
  });
});

describe('tool calls in the reply', () => {
  it('shows a block per call in stream order: server, tool, arguments, state and result, then the answer', async () => {
    const user = userEvent.setup();
    const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
    api.route('POST /api/v1/mcp-connections/message', () =>
      sse([
        frame({ content: 'Calling get-sum.\n\n' }),
        frame({ tool_call: SUM_CALL }),
        ': tool running\n\n',
        frame({ tool_result: { ...SUM_RESULT, content: [...SUM_RESULT.content, { type: 'image', data: PNG, mimeType: 'image/png' }, { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }] } }),
        frame({ content: 'The answer is **5**.' }),
        frame({ notice: 'The reply stopped after 8 tool rounds.' }),
        USAGE,
        DONE,
      ]),
    );
    renderApp('/llm-chat');
    await user.type(await input(), 'use get-sum with 2 and 3{Enter}');
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    const reply = messages()[1];
    const block = within(reply).getByTestId('tool-call');
    expect(within(block).getByTestId('tool-name')).toHaveTextContent('get-sum');
    expect(within(block).getByTestId('tool-server')).toHaveTextContent(`on ${EVERYTHING}`);
    expect(within(block).getByTestId('tool-state')).toHaveTextContent('Done in 12 ms');
    expect(within(block).getByTestId('tool-arguments').textContent).toBe('{\n  "a": 2,\n  "b": 3\n}');
    const result = within(block).getByTestId('tool-result');
    expect(result).toHaveTextContent('The sum of 2 and 3 is 5.');
    expect(within(result).getByTestId('tool-image')).toHaveAttribute('src', `data:image/png;base64,${PNG}`);
    expect(result).toHaveTextContent('audio/wav content (not shown)');
    expect(within(reply).getByTestId('reply-notice')).toHaveTextContent('The reply stopped after 8 tool rounds.');
    // Order: text, the tool block, then the answer.
    const text = reply.textContent ?? '';
    expect(text.indexOf('Calling get-sum.')).toBeLessThan(text.indexOf('get-sum', text.indexOf('Calling get-sum.') + 16));
    expect(text.indexOf('The sum of 2 and 3 is 5.')).toBeLessThan(text.indexOf('The answer is'));
    expect(reply.querySelector('strong')).toHaveTextContent('5');
    // Arguments and result fold away.
    const argDetails = within(block).getByTestId('tool-arguments').closest('details') as HTMLDetailsElement;
    expect(argDetails.open).toBe(true);
    await user.click(within(argDetails).getByText('Arguments'));
    expect(argDetails.open).toBe(false);
    expect(within(reply).getByTestId('message-usage')).toHaveTextContent('20 → 10 tokens · demo');
  });
});

describe('the approval card', () => {
  function pauseThenResume(resume: (body: Record<string, unknown>) => Response) {
    api.route('POST /api/v1/mcp-connections/message', (req) => {
      const body = req.body as Record<string, unknown>;
      if (body.approval) return resume(body);
      return sse([frame({ content: 'Let me toggle it.' }), frame({ tool_call: TOGGLE_CALL }), approvalEvent()]);
    });
  }

  async function pausedReply(user: ReturnType<typeof userEvent.setup>) {
    renderApp('/llm-chat');
    const box = await input();
    await waitFor(() => expect(toolsButton()).toHaveAttribute('data-count', '1'));
    await user.type(box, 'use toggle-simulated-logging{Enter}');
    return screen.findByTestId('tool-approval');
  }

  it('pauses the reply with the call, its description and a destructive mark; Approve resumes the same message', async () => {
    const user = userEvent.setup();
    pauseThenResume(() => sse([frame({ tool_result: { ...SUM_RESULT, id: 'call_2', content: [{ type: 'text', text: 'Started logging.' }], duration_ms: 3 } }), frame({ content: ' Logging is on.' }), USAGE, DONE]));
    const card = await pausedReply(user);
    const reply = messages()[1];
    expect(reply).toHaveAttribute('data-complete', 'false');
    expect(reply).toHaveAttribute('data-paused', 'true');
    expect(reply).not.toHaveAttribute('aria-busy');
    expect(within(card).getByTestId('tool-name')).toHaveTextContent('toggle-simulated-logging');
    expect(within(card).getByTestId('tool-server')).toHaveTextContent(EVERYTHING);
    expect(within(card).getByTestId('tool-state')).toHaveTextContent('Waiting for approval');
    expect(within(card).getByTestId('tool-description')).toHaveTextContent('Toggles simulated, random-leveled logging on or off.');
    expect(within(card).getByTestId('destructive-mark')).toHaveTextContent('destructive');
    expect(within(card).getByTestId('tool-arguments').textContent).toBe('{}');

    // A new message waits for the answer.
    expect(screen.getByTestId('input-blocked')).toHaveTextContent('Answer the tool approval first');
    await user.type(await input(), 'something else{Enter}');
    expect(streamBodies()).toHaveLength(1);

    await user.click(within(card).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(reply).toHaveAttribute('data-complete', 'true'));
    expect(streamBodies()[1]).toEqual({ connection_id: 'chat-conn', message: '', model: 'gpt-4o-mini', context: [], approval: { token: 'tok_1', decision: 'approve' } });
    expect(messages()).toHaveLength(2);
    expect(screen.queryByTestId('tool-approval')).toBeNull();
    const block = within(reply).getByTestId('tool-call');
    expect(within(block).getByTestId('tool-state')).toHaveTextContent('Done in 3 ms');
    expect(block).toHaveTextContent('Started logging.');
    expect(reply).toHaveTextContent('Let me toggle it.');
    expect(reply).toHaveTextContent('Logging is on.');
    expect(screen.queryByTestId('input-blocked')).toBeNull();
  });

  it('no destructive mark for a tool that says it is not destructive', async () => {
    const user = userEvent.setup();
    api.route('POST /api/v1/mcp-connections/message', () =>
      sse([frame({ tool_call: TOGGLE_CALL }), approvalEvent(undefined, { readOnlyHint: false, destructiveHint: false })]),
    );
    const card = await pausedReply(user);
    expect(within(card).queryByTestId('destructive-mark')).toBeNull();
    expect(within(card).queryByTestId('always-warning')).toBeNull();
    expect(within(card).queryByTestId('tool-changed')).toBeNull();
    expect(within(card).getByRole('button', { name: 'Always allow this tool' })).not.toHaveAccessibleDescription();
  });

  it('a destructive tool warns beside Always allow what always allowing it means', async () => {
    const user = userEvent.setup();
    api.route('POST /api/v1/mcp-connections/message', () => sse([frame({ tool_call: TOGGLE_CALL }), approvalEvent(undefined, { readOnlyHint: false, destructiveHint: true })]));
    const card = await pausedReply(user);
    const warning = 'This tool is marked destructive: always allowing it lets it change or delete data without asking you.';
    expect(within(card).getByTestId('always-warning')).toHaveTextContent(warning);
    expect(within(card).getByRole('button', { name: 'Always allow this tool' })).toHaveAccessibleDescription(warning);
  });

  it('a tool that changed since the user always allowed it says which parts, also after a reload', async () => {
    const user = userEvent.setup();
    api.route('POST /api/v1/mcp-connections/message', () =>
      sse([
        frame({ tool_call: TOGGLE_CALL }),
        approvalEvent(undefined, { readOnlyHint: false, destructiveHint: true }, { endpoint: '127.0.0.1:3001/mcp', changed: ['description', 'input_schema', 'annotations'] }),
      ]),
    );
    const { unmount } = renderApp('/llm-chat');
    await waitFor(() => expect(toolsButton()).toHaveAttribute('data-count', '1'));
    await user.type(await input(), 'use toggle-simulated-logging{Enter}');
    const text = 'This tool changed since you allowed it: its description, arguments and read-only or destructive marking changed.';
    expect(within(await screen.findByTestId('tool-approval')).getByTestId('tool-changed')).toHaveTextContent(text);

    unmount();
    act(() => resetChatStoreForTests());
    renderApp('/llm-chat');
    const card = await screen.findByTestId('tool-approval');
    expect(within(card).getByTestId('tool-changed')).toHaveTextContent(text);
    expect(within(card).getByRole('button', { name: 'Always allow this tool' })).toBeEnabled();
  });

  it('a tool always allowed at another address says where it is reached now', async () => {
    const user = userEvent.setup();
    api.route('POST /api/v1/mcp-connections/message', () =>
      sse([frame({ tool_call: TOGGLE_CALL }), approvalEvent(undefined, { readOnlyHint: false }, { endpoint: '127.0.0.1:18778/mcp', changed: ['endpoint'] })]),
    );
    const card = await pausedReply(user);
    expect(within(card).getByTestId('tool-changed')).toHaveTextContent('This tool changed since you allowed it: it is now reached at 127.0.0.1:18778/mcp.');
    expect(within(card).getByTestId('always-warning')).toBeInTheDocument(); // no destructiveHint on a tool that is not read-only
  });

  it('an allowance kept before addresses were recorded asks again and says why', async () => {
    const user = userEvent.setup();
    api.route('POST /api/v1/mcp-connections/message', () =>
      sse([frame({ tool_call: TOGGLE_CALL }), approvalEvent(undefined, { readOnlyHint: false, destructiveHint: false }, { changed: ['unrecorded'] })]),
    );
    const card = await pausedReply(user);
    expect(within(card).getByTestId('tool-changed')).toHaveTextContent(
      'You allowed this tool before the chat recorded where it runs and what it does, so it asks again.',
    );
  });

  it('Deny shows Denied and the model answers; after a reload the card still works', async () => {
    const user = userEvent.setup();
    pauseThenResume((body) => {
      expect(body.approval).toEqual({ token: 'tok_1', decision: 'deny' });
      return sse([
        frame({ tool_result: { id: 'call_2', is_error: true, denied: true, content: [{ type: 'text', text: 'The user denied this tool call.' }], duration_ms: 0 } }),
        frame({ content: 'OK, I will not toggle it.' }),
        USAGE,
        DONE,
      ]);
    });
    const { unmount } = renderApp('/llm-chat');
    await waitFor(() => expect(toolsButton()).toHaveAttribute('data-count', '1'));
    await user.type(await input(), 'use toggle-simulated-logging{Enter}');
    await screen.findByTestId('tool-approval');

    // A reload: the page and the store start again from storage.
    unmount();
    act(() => resetChatStoreForTests());
    renderApp('/llm-chat');
    const card = await screen.findByTestId('tool-approval');
    expect(screen.getByTestId('input-blocked')).toHaveTextContent('Answer the tool approval first');
    await user.click(within(card).getByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    const block = within(messages()[1]).getByTestId('tool-call');
    expect(within(block).getByTestId('tool-state')).toHaveTextContent('Denied');
    expect(messages()[1]).toHaveTextContent('OK, I will not toggle it.');
  });

  it('Always allow sends always and reloads the Tools list', async () => {
    const user = userEvent.setup();
    pauseThenResume(() => {
      tools = { servers: [SERVER], always_allowed: [{ server_id: 'local-everything', tool: 'toggle-simulated-logging', created_at: '2026-03-07T10:00:00Z' }] };
      return sse([frame({ tool_result: { ...SUM_RESULT, id: 'call_2' } }), DONE]);
    });
    const card = await pausedReply(user);
    const before = api.callsTo('GET', '/api/v1/mcp-connections/tools').length;
    await user.click(within(card).getByRole('button', { name: 'Always allow this tool' }));
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    expect(streamBodies()[1].approval).toEqual({ token: 'tok_1', decision: 'always' });
    await waitFor(() => expect(api.callsTo('GET', '/api/v1/mcp-connections/tools').length).toBeGreaterThan(before));
    const dialog = await openTools(user);
    expect(await within(dialog).findByTestId('always-allowed')).toHaveTextContent('toggle-simulated-logging');
  });

  it('a used or expired token (409) shows the detail and resolves the card', async () => {
    const user = userEvent.setup();
    pauseThenResume(() => jsonResponse(409, { detail: 'This approval was already answered.', code: 'conflict' }));
    const card = await pausedReply(user);
    await user.click(within(card).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(screen.queryByTestId('tool-approval')).toBeNull());
    const block = within(messages()[1]).getByTestId('tool-call');
    expect(within(block).getByTestId('tool-state')).toHaveTextContent('Failed');
    expect(block).toHaveTextContent('This approval was already answered.');
    expect(messages()[1]).toHaveAttribute('data-complete', 'true');
    expect(screen.queryByTestId('input-blocked')).toBeNull();
  });

  it('a refusal before the stream starts (429) leaves the card to try again', async () => {
    const user = userEvent.setup();
    let refuse = true;
    pauseThenResume(() =>
      refuse ? jsonResponse(429, { detail: 'Too many messages this minute; try again in 20 s.' }) : sse([frame({ tool_result: { ...SUM_RESULT, id: 'call_2' } }), DONE]),
    );
    const card = await pausedReply(user);
    await user.click(within(card).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(within(screen.getByTestId('toasts')).getByText('Too many messages this minute; try again in 20 s.')).toBeInTheDocument());
    const again = screen.getByTestId('tool-approval');
    refuse = false;
    await user.click(within(again).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
  });

  it('an expired approval says so instead of offering buttons, and holds nothing back', async () => {
    const user = userEvent.setup();
    api.route('POST /api/v1/mcp-connections/message', () => sse([frame({ tool_call: TOGGLE_CALL }), approvalEvent(new Date(Date.now() - 1000).toISOString())]));
    const card = await pausedReply(user);
    expect(card).toHaveTextContent('This approval expired. Send your message again.');
    expect(within(card).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.queryByTestId('input-blocked')).toBeNull();
    api.route('POST /api/v1/mcp-connections/message', () => sse([frame({ content: 'Fresh.' }), DONE]));
    await user.type(await input(), 'again{Enter}');
    await waitFor(() => expect(messages()).toHaveLength(4));
    expect(messages()[1]).toHaveAttribute('data-complete', 'true');
  });
});
