// A server's question in the chat page (MCP elicitation): the form card
// built from its schema with defaults, required checks and Submit /
// Decline / Cancel; the URL card with Open / Done / Cancel; the time left
// and expiry; a refused answer; the two ways a question comes (the reply
// paused, or its stream still open); the card back after a reload and on
// another device; and a running call's progress bar and log lines.

import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearNotificationsForTests } from '../../../components/notifications/notification-store';
import { fakeConversations, fakeDemoConnect, installFakeApi, sseData, sseResponse, sseStream, SSE_DONE, type FakeApi, type FakeConversations } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { stubSystemTheme } from '../../../test/match-media';
import { renderApp } from '../../../test/render-app';
import { startSignedIn } from '../../../test/session';
import { resetChatStoreForTests } from '../store/chat-store';
import { QUESTION_ANSWERED_OR_EXPIRED } from '../store/elicitations';

const EVERYTHING = 'Everything (local reference server)';
const SERVER = {
  connection_id: 'mcp-conn-1',
  server_id: 'local-everything',
  server_name: EVERYTHING,
  endpoint_url: 'http://127.0.0.1:3001/mcp',
  connected_at: '2026-03-07T09:00:00Z',
  tools: [{ name: 'trigger-elicitation-request', title: '', description: 'Asks', input_schema: { type: 'object' }, read_only: false, destructive: false }],
};
const CALL = { id: 'call_1', server_id: 'local-everything', server_name: EVERYTHING, tool: 'trigger-elicitation-request', arguments: {} };
const RESULT = { id: 'call_1', is_error: false, content: [{ type: 'text', text: 'You are Lin.' }], duration_ms: 40 };
const USAGE = sseData({ usage: { input_tokens: 20, output_tokens: 10, cost_usd: 0, demo: true } });
const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', description: 'Your full name' },
    agree: { type: 'boolean', title: 'Agree to the terms', default: true },
    color: { type: 'string', title: 'Color', oneOf: [{ const: 'r', title: 'Red' }, { const: 'g', title: 'Green' }], default: 'g' },
    count: { type: 'integer', title: 'Count', minimum: 1, default: 3 },
    fish: { type: 'array', title: 'Fish', items: { anyOf: [{ const: 'f1', title: 'Tuna' }, { const: 'f2', title: 'Salmon' }] }, default: ['f1'] },
  },
  required: ['name'],
};
const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();
const question = (more: Record<string, unknown> = {}) => ({
  token: 'el_1',
  id: 'elid_1',
  mode: 'form',
  message: 'Who are you?',
  requested_schema: SCHEMA,
  expires_at: inMinutes(9),
  call: CALL,
  ...more,
});
const asked = (more: Record<string, unknown> = {}) => `event: elicitation\ndata: ${JSON.stringify(question(more))}\n\n`;

let api: FakeApi;
let convs: FakeConversations;
/** What the message route answers: a new message, or an answer (body.elicitation). */
let onMessage: (body: Record<string, unknown>) => Response | Promise<Response>;

beforeAll(async () => {
  await import('./llm-chat-page');
}, 30_000);

beforeEach(() => {
  stubSystemTheme(false);
  startSignedIn();
  api = installFakeApi();
  convs = fakeConversations(api);
  api.route('GET /api/v1/mcp-connections/tools', () => jsonResponse(200, { servers: [SERVER], always_allowed: [] }));
  fakeDemoConnect(api);
  onMessage = () => sseResponse([sseData({ tool_call: CALL }), asked()]);
  // A new message is kept with its conversation, as the server does; an answer is not a new message.
  api.route('POST /api/v1/mcp-connections/message', (req) => {
    const body = req.body as Record<string, unknown>;
    return body.elicitation ? onMessage(body) : convs.keepStream(body, onMessage(body));
  });
});

afterEach(() => {
  act(() => clearNotificationsForTests());
  vi.unstubAllGlobals();
});

const input = () => screen.findByRole('textbox', { name: 'Message' });
const messages = () => within(screen.getByTestId('messages')).queryAllByTestId('message');
const bodies = () => api.callsTo('POST', '/api/v1/mcp-connections/message').map((c) => c.body as Record<string, unknown>);
const answers = () => bodies().filter((b) => b.elicitation);

async function ask(user: ReturnType<typeof userEvent.setup>) {
  const view = renderApp('/llm-chat');
  const box = await input();
  await waitFor(() => expect(screen.getByTestId('tools-button')).toHaveAttribute('data-count', '1'));
  await user.type(box, 'use trigger-elicitation-request{Enter}');
  await screen.findByTestId('tool-elicitation');
  return { card: screen.getByTestId('tool-elicitation'), unmount: view.unmount };
}

describe('the form card', () => {
  it('shows the message and a form with its defaults; a required field is checked before anything goes; Submit resumes the same reply', async () => {
    const user = userEvent.setup();
    const { card } = await ask(user);
    const reply = messages()[1];
    expect(reply).toHaveAttribute('data-complete', 'false');
    expect(reply).toHaveAttribute('data-paused', 'true');
    expect(card).toHaveAttribute('data-mode', 'form');
    expect(within(card).getByTestId('tool-state')).toHaveTextContent('Waiting for your answer');
    expect(within(card).getByTestId('elicitation-message')).toHaveTextContent('Who are you?');
    expect(within(card).getByTestId('elicitation-time')).toHaveTextContent('Answer within 9 min');
    // Titles as labels, descriptions as help, defaults filled in.
    const name = within(card).getByRole('textbox', { name: /Name/ });
    expect(name).toHaveValue('');
    expect(name).toHaveAccessibleDescription('Your full name');
    expect(name).toHaveAttribute('aria-required', 'true');
    expect(within(card).getByRole('checkbox', { name: 'Agree to the terms' })).toBeChecked();
    expect(within(card).getByRole('radio', { name: 'Green' })).toBeChecked();
    expect(within(card).getByRole('spinbutton', { name: 'Count' })).toHaveValue(3);
    expect(within(card).getByRole('checkbox', { name: 'Tuna' })).toBeChecked();
    expect(within(card).getByRole('checkbox', { name: 'Salmon' })).not.toBeChecked();
    // A new message waits for the answer.
    expect(screen.getByTestId('input-blocked')).toHaveTextContent("Answer the server's question first");

    // Submit with the required field empty: it says why, sends nothing, and keeps what was chosen.
    await user.click(within(card).getByRole('checkbox', { name: 'Salmon' }));
    await user.click(within(card).getByRole('button', { name: 'Submit' }));
    expect(within(card).getByTestId('field-error')).toHaveTextContent('Name is required.');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveFocus();
    expect(answers()).toHaveLength(0);
    expect(within(card).getByRole('checkbox', { name: 'Salmon' })).toBeChecked();

    onMessage = () => sseResponse([sseData({ tool_result: RESULT }), sseData({ content: 'Hello, Lin.' }), USAGE, SSE_DONE]);
    await user.type(name, 'Lin');
    expect(within(card).queryByTestId('field-error')).toBeNull();
    await user.click(within(card).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(reply).toHaveAttribute('data-complete', 'true'));
    expect(answers()).toEqual([
      {
        connection_id: 'chat-conn',
        message: '',
        model: 'gpt-4o-mini',
        context: [],
        elicitation: { token: 'el_1', action: 'accept', content: { name: 'Lin', agree: true, color: 'g', count: 3, fish: ['f1', 'f2'] } },
      },
    ]);
    expect(screen.queryByTestId('tool-elicitation')).toBeNull();
    const block = within(reply).getByTestId('tool-call');
    expect(within(block).getByTestId('tool-state')).toHaveTextContent('Done in 40 ms');
    expect(block).toHaveTextContent('You are Lin.');
    expect(reply).toHaveTextContent('Hello, Lin.');
    expect(messages()).toHaveLength(2);
    expect(screen.queryByTestId('input-blocked')).toBeNull();
  });

  it.each([
    ['Decline', 'decline'],
    ['Cancel', 'cancel'],
  ])('%s sends %s without content and the reply goes on', async (button, action) => {
    const user = userEvent.setup();
    const { card } = await ask(user);
    onMessage = () => sseResponse([sseData({ tool_result: { ...RESULT, content: [{ type: 'text', text: `The user chose ${action}.` }] } }), SSE_DONE]);
    await user.click(within(card).getByRole('button', { name: button }));
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    expect(answers()[0].elicitation).toEqual({ token: 'el_1', action });
    expect(messages()[1]).toHaveTextContent(`The user chose ${action}.`);
  });

  it('a replayed or expired answer (409) says so plainly on the card, and the reply is over', async () => {
    const user = userEvent.setup();
    const { card } = await ask(user);
    onMessage = () => jsonResponse(409, { detail: 'elicitation token already used' });
    await user.type(within(card).getByRole('textbox', { name: /Name/ }), 'Lin');
    await user.click(within(card).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.getByTestId('tool-elicitation')).toHaveAttribute('data-state', 'failed'));
    expect(screen.getByTestId('elicitation-detail')).toHaveTextContent(QUESTION_ANSWERED_OR_EXPIRED);
    expect(within(screen.getByTestId('tool-elicitation')).getByRole('button', { name: 'Submit' })).toBeDisabled();
    expect(messages()[1]).toHaveAttribute('data-complete', 'true');
    expect(screen.queryByTestId('input-blocked')).toBeNull();
  });

  it('an expired question says so instead of taking an answer, and holds nothing back', async () => {
    const user = userEvent.setup();
    onMessage = () => sseResponse([sseData({ tool_call: CALL }), asked({ expires_at: new Date(Date.now() - 1000).toISOString() })]);
    const { card } = await ask(user);
    expect(card).toHaveAttribute('data-state', 'expired');
    expect(card).toHaveTextContent('This question expired.');
    expect(within(card).getByRole('button', { name: 'Submit' })).toBeDisabled();
    expect(screen.queryByTestId('elicitation-time')).toBeNull();
    expect(screen.queryByTestId('input-blocked')).toBeNull();
  });

  it('a schema the spec does not allow is not shown half: the card says so and offers Decline and Cancel', async () => {
    const user = userEvent.setup();
    onMessage = () => sseResponse([sseData({ tool_call: CALL }), asked({ requested_schema: { type: 'object', properties: { a: { type: 'object' } } } })]);
    const { card } = await ask(user);
    expect(card).toHaveTextContent('This form cannot be shown here');
    expect(within(card).queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(within(card).getByRole('button', { name: 'Decline' })).toBeEnabled();
  });

  it('comes back after a reload, and answers with its token', async () => {
    const user = userEvent.setup();
    const { unmount } = await ask(user);
    // A reload: the page and the store start again from storage.
    unmount();
    act(() => resetChatStoreForTests());
    renderApp('/llm-chat');
    const card = await screen.findByTestId('tool-elicitation');
    expect(within(card).getByRole('radio', { name: 'Green' })).toBeChecked();
    expect(screen.getByTestId('input-blocked')).toHaveTextContent("Answer the server's question first");
    onMessage = () => sseResponse([sseData({ tool_result: RESULT }), SSE_DONE]);
    await user.type(within(card).getByRole('textbox', { name: /Name/ }), 'Lin');
    await user.click(within(card).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    expect(answers()[0].elicitation).toMatchObject({ token: 'el_1', action: 'accept', content: { name: 'Lin' } });
  });

  it('shows on another device from the kept conversation (no token there): answered by its id', async () => {
    const user = userEvent.setup();
    const { unmount } = await ask(user);
    // Another browser: no chat in its storage, the conversation comes from the server.
    unmount();
    act(() => resetChatStoreForTests());
    for (const key of Object.keys(localStorage)) if (key.startsWith('chat-')) localStorage.removeItem(key);
    renderApp('/llm-chat');
    const card = await screen.findByTestId('tool-elicitation');
    expect(within(card).getByTestId('elicitation-message')).toHaveTextContent('Who are you?');
    onMessage = () => sseResponse([sseData({ tool_result: RESULT }), SSE_DONE]);
    await user.click(within(card).getByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(answers()).toHaveLength(1));
    expect(answers()[0].elicitation).toEqual({ id: 'elid_1', action: 'decline' });
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
  });
});

describe('the URL card', () => {
  it('shows the host plainly, opens the page in a new tab only on click, and Done answers accept without content', async () => {
    const user = userEvent.setup();
    onMessage = () =>
      sseResponse([
        sseData({ tool_call: CALL }),
        `event: elicitation\ndata: ${JSON.stringify({ token: 'el_2', mode: 'url', message: 'Pay for the report.', url: 'https://pay.example.com/checkout?s=1', elicitation_id: 'e-1', expires_at: inMinutes(5), call: CALL })}\n\n`,
      ]);
    const { card } = await ask(user);
    expect(card).toHaveAttribute('data-mode', 'url');
    expect(within(card).getByTestId('elicitation-message')).toHaveTextContent('Pay for the report.');
    expect(within(card).getByTestId('elicitation-host')).toHaveTextContent('Opens pay.example.com');
    const open = within(card).getByRole('link', { name: /Open/ });
    expect(open).toHaveAttribute('href', 'https://pay.example.com/checkout?s=1');
    expect(open).toHaveAttribute('target', '_blank');
    expect(open.getAttribute('rel')).toContain('noopener');
    expect(within(card).queryByRole('textbox')).toBeNull();
    // jsdom does not navigate: the click only marks the card as waiting.
    open.addEventListener('click', (e) => e.preventDefault());
    await user.click(open);
    expect(within(card).getByRole('status')).toHaveTextContent('Finish on pay.example.com');

    onMessage = () => sseResponse([sseData({ tool_result: RESULT }), SSE_DONE]);
    await user.click(within(card).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    expect(answers()[0].elicitation).toEqual({ token: 'el_2', action: 'accept' });
  });

  it('Cancel answers cancel', async () => {
    const user = userEvent.setup();
    onMessage = () =>
      sseResponse([sseData({ tool_call: CALL }), `event: elicitation\ndata: ${JSON.stringify({ token: 'el_2', mode: 'url', message: 'Sign in.', url: 'https://id.example.org/a', expires_at: inMinutes(5), call: CALL })}\n\n`]);
    const { card } = await ask(user);
    onMessage = () => sseResponse([sseData({ tool_result: { ...RESULT, is_error: true } }), SSE_DONE]);
    await user.click(within(card).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    expect(answers()[0].elicitation).toEqual({ token: 'el_2', action: 'cancel' });
  });
});

describe('a question asked while the stream stays open', () => {
  it('the answer is acknowledged (202) and the same stream carries the call on, with its progress bar and logs', async () => {
    const user = userEvent.setup();
    const stream = sseStream();
    onMessage = () => stream.response;
    renderApp('/llm-chat');
    await waitFor(() => expect(screen.getByTestId('tools-button')).toHaveAttribute('data-count', '1'));
    await user.type(await input(), 'use trigger-elicitation-request{Enter}');
    stream.push(sseData({ tool_call: CALL }));
    stream.push(sseData({ tool_progress: { id: 'call_1', progress: 1, total: 4, message: 'Preparing' } }));
    const running = await screen.findByTestId('tool-progress');
    const bar = within(running).getByRole('progressbar', { name: 'Progress of trigger-elicitation-request' });
    expect(bar).toHaveAttribute('aria-valuenow', '1');
    expect(bar).toHaveAttribute('aria-valuemax', '4');
    expect(within(running).getByTestId('tool-progress-text')).toHaveTextContent('1 of 4 · Preparing');

    stream.push(asked());
    const card = await screen.findByTestId('tool-elicitation');
    const reply = messages()[1];
    // The reply is still streaming (Stop stays); nothing is paused.
    expect(reply).not.toHaveAttribute('data-paused', 'true');
    onMessage = () => jsonResponse(202, { accepted: true });
    await user.type(within(card).getByRole('textbox', { name: /Name/ }), 'Lin');
    await user.click(within(card).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.queryByTestId('tool-elicitation')).toBeNull());
    expect(answers()[0].elicitation).toMatchObject({ token: 'el_1', action: 'accept', content: { name: 'Lin' } });
    const block = within(reply).getByTestId('tool-call');
    expect(within(block).getByTestId('tool-state')).toHaveTextContent('Running…');

    stream.push(sseData({ tool_log: { id: 'call_1', level: 'info', data: 'Got the name' } }));
    stream.push(sseData({ tool_log: { id: 'call_1', level: 'error', data: { code: 7 } } }));
    stream.push(sseData({ tool_progress: { id: 'call_1', progress: 3, total: 4 } }));
    await waitFor(() => expect(within(block).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '3'));
    const logs = within(block).getByTestId('tool-logs');
    expect(logs).not.toHaveAttribute('open');
    expect(within(logs).getByText('Logs (2)')).toBeInTheDocument();
    await user.click(within(logs).getByText('Logs (2)'));
    expect(logs).toHaveAttribute('open');
    const lines = within(logs).getAllByTestId('tool-log');
    expect(lines.map((l) => l.textContent)).toEqual(['infoGot the name', 'error{"code":7}']);

    stream.push(sseData({ tool_result: RESULT }));
    stream.push(sseData({ content: 'Hello, Lin.' }));
    stream.push(SSE_DONE);
    stream.end();
    await waitFor(() => expect(reply).toHaveAttribute('data-complete', 'true'));
    // Done: the bar goes, the logs stay.
    expect(within(block).queryByRole('progressbar')).toBeNull();
    expect(within(block).getByTestId('tool-logs')).toBeInTheDocument();
    expect(reply).toHaveTextContent('Hello, Lin.');
    expect(bodies()).toHaveLength(2);
  });

  it('a progress without a total is an indeterminate bar with its count', async () => {
    const user = userEvent.setup();
    const stream = sseStream();
    onMessage = () => stream.response;
    renderApp('/llm-chat');
    await user.type(await input(), 'go{Enter}');
    stream.push(sseData({ tool_call: CALL }));
    stream.push(sseData({ tool_progress: { id: 'call_1', progress: 12 } }));
    const bar = await screen.findByRole('progressbar');
    expect(bar).not.toHaveAttribute('aria-valuenow');
    expect(bar).not.toHaveAttribute('aria-valuemax');
    expect(screen.getByTestId('tool-progress-text')).toHaveTextContent('12 so far');
    stream.push(SSE_DONE);
    stream.end();
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
  });
});
