// The composer's "/" prompts menu (listbox, filter, keys, the fill-in
// dialog with completions, a prompt's resources as chips) and the paperclip (resources and templates as
// chips that go with the next message and show on it).

import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearNotificationsForTests } from '../../../components/notifications/notification-store';
import { fakeConversations, fakeDemoConnect, installFakeApi, sseData, sseResponse, SSE_DONE, type FakeApi } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { stubSystemTheme } from '../../../test/match-media';
import { renderApp } from '../../../test/render-app';
import { startSignedIn } from '../../../test/session';

const EVERYTHING = 'Everything (local reference server)';
const SERVER = {
  connection_id: 'mcp-conn-1',
  server_id: 'local-everything',
  server_name: EVERYTHING,
  endpoint_url: 'http://127.0.0.1:3001/mcp',
  connected_at: '2026-03-07T09:00:00Z',
  tools: [],
};
const PROMPTS = [
  {
    connection_id: 'mcp-conn-1',
    server_id: 'local-everything',
    server_name: EVERYTHING,
    prompts: [
      { name: 'simple-prompt', title: 'Simple Prompt', description: 'A prompt with no arguments', arguments: [] },
      {
        name: 'completable-prompt',
        title: 'Team Management',
        description: 'First argument choice narrows values for second argument.',
        arguments: [
          { name: 'department', description: 'Choose the department.', required: true },
          { name: 'name', description: 'Choose a team member.', required: false },
        ],
      },
    ],
  },
];
const RESOURCES = [
  {
    connection_id: 'mcp-conn-1',
    server_id: 'local-everything',
    server_name: EVERYTHING,
    resources: [
      { uri: 'demo://resource/static/document/architecture.md', name: 'architecture.md', mime_type: 'text/markdown', size: 2048 },
      { uri: 'demo://huge.bin', name: 'huge.bin', mime_type: 'application/octet-stream', size: 5 * 1024 * 1024 },
    ],
    templates: [{ uri_template: 'demo://resource/dynamic/text/{resourceId}', name: 'Dynamic Text Resource', mime_type: 'text/plain' }],
  },
];

const ARCHITECTURE = {
  connection_id: 'mcp-conn-1',
  uri: 'demo://resource/static/document/architecture.md',
  name: 'architecture.md',
  mime_type: 'text/markdown',
  size: 2048,
};

let api: FakeApi;
let prompts: unknown[];

beforeAll(async () => {
  await import('../components/llm-chat-page');
}, 30_000);

beforeEach(() => {
  stubSystemTheme(false);
  startSignedIn();
  api = installFakeApi();
  const convs = fakeConversations(api);
  const route = api.route;
  api.route = (key, handler) =>
    route(key, key === 'POST /api/v1/mcp-connections/message' ? (req) => convs.keepStream(req.body, handler(req)) : handler);
  prompts = PROMPTS;
  api.route('GET /api/v1/mcp-connections/tools', () => jsonResponse(200, { servers: [SERVER], always_allowed: [] }));
  fakeDemoConnect(api);
  api.route('POST /api/v1/mcp-connections/message', () => sseResponse([sseData({ content: 'I received the resource' }), SSE_DONE]));
  api.route('GET /api/v1/mcp-connections/prompts', () => jsonResponse(200, prompts));
  api.route('GET /api/v1/mcp-connections/resources', () => jsonResponse(200, RESOURCES));
  api.route('POST /api/v1/mcp-connections/mcp-conn-1/prompts/get', (req) => {
    const { name, arguments: args } = req.body as { name: string; arguments: Record<string, string> };
    const text = name === 'simple-prompt' ? 'This is a simple prompt without arguments.' : `Please promote ${args.name} to the head of the ${args.department} team.`;
    return jsonResponse(200, { messages: [{ role: 'user', content: { type: 'text', text } }] });
  });
  api.route('POST /api/v1/mcp-connections/mcp-conn-1/complete', (req) => {
    const { argument } = req.body as { argument: { name: string; value: string } };
    const all = argument.name === 'department' ? ['Engineering', 'Sales'] : argument.name === 'resourceId' ? ['1', '2', '3'] : [];
    return jsonResponse(200, { values: all.filter((v) => v.startsWith(argument.value)) });
  });
});

afterEach(() => {
  act(() => clearNotificationsForTests());
  vi.unstubAllGlobals();
});

const input = () => screen.findByRole('textbox', { name: 'Message' });

describe('the / prompts menu', () => {
  it('lists the enabled servers’ prompts as a listbox, filters as the user types, and inserts one without arguments on Enter', async () => {
    const user = userEvent.setup();
    renderApp('/llm-chat');
    const box = await input();
    await waitFor(() => expect(screen.getByTestId('attach-button')).toBeEnabled());
    await user.type(box, '/');
    const listbox = await screen.findByRole('listbox', { name: 'Prompts' });
    expect(within(listbox).getAllByRole('option')).toHaveLength(2);
    expect(api.callsTo('GET', '/api/v1/mcp-connections/prompts')[0].search).toBe('?connection_ids=mcp-conn-1');
    expect(box).toHaveAttribute('aria-controls', listbox.id);
    expect(box).toHaveAttribute('aria-activedescendant', within(listbox).getAllByRole('option')[0].id);

    await user.type(box, 'team');
    expect(within(listbox).getAllByRole('option')).toHaveLength(1);
    await user.clear(box);
    await user.type(box, '/simple');
    const option = within(screen.getByRole('listbox', { name: 'Prompts' })).getByRole('option');
    expect(option).toHaveAttribute('aria-selected', 'true');
    expect(option).toHaveTextContent('A prompt with no arguments');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(box).toHaveValue('This is a simple prompt without arguments.'));
    expect(screen.queryByRole('listbox', { name: 'Prompts' })).toBeNull();
    // Enter chose the prompt: nothing was sent.
    expect(api.callsTo('POST', '/api/v1/mcp-connections/message')).toHaveLength(0);
  });

  it('Escape closes the menu; arrows move; a prompt with arguments opens the fill-in dialog with completions', async () => {
    const user = userEvent.setup();
    renderApp('/llm-chat');
    const box = await input();
    await user.type(box, '/');
    await screen.findByRole('listbox', { name: 'Prompts' });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox', { name: 'Prompts' })).toBeNull();
    await user.clear(box);
    await user.type(box, '/');
    const listbox = await screen.findByRole('listbox', { name: 'Prompts' });
    await user.keyboard('{ArrowDown}');
    expect(within(listbox).getAllByRole('option')[1]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Enter}');

    const dialog = await screen.findByRole('dialog', { name: 'Team Management' });
    const department = within(dialog).getByRole('combobox', { name: /department/ });
    expect(department).toBeRequired();
    expect(within(dialog).getByText('Choose the department.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Insert' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Fill in department.');

    await user.type(department, 'E');
    await waitFor(() => expect(within(dialog).getByTestId('suggestions-department').querySelector('option')).toHaveAttribute('value', 'Engineering'));
    await user.type(department, 'ngineering');
    await user.type(within(dialog).getByRole('combobox', { name: 'name' }), 'Bob');
    await user.click(within(dialog).getByRole('button', { name: 'Insert' }));
    await waitFor(() => expect(box).toHaveValue('Please promote Bob to the head of the Engineering team.'));
    expect(api.callsTo('POST', '/api/v1/mcp-connections/mcp-conn-1/prompts/get').at(-1)?.body).toEqual({
      name: 'completable-prompt',
      arguments: { department: 'Engineering', name: 'Bob' },
    });
    expect(screen.queryByRole('dialog', { name: 'Team Management' })).toBeNull();
  });

  it('attaches the resources a prompt refers to as chips (each once) instead of naming them in its text', async () => {
    prompts = [{ ...PROMPTS[0], prompts: [{ name: 'notes-prompt', title: 'Notes', description: 'Summarise the notes', arguments: [] }] }];
    api.route('POST /api/v1/mcp-connections/mcp-conn-1/prompts/get', () =>
      jsonResponse(200, {
        messages: [
          { role: 'user', content: { type: 'text', text: 'Summarise the notes.' } },
          { role: 'user', content: { type: 'resource_link', uri: 'demo://notes.txt', name: 'notes.txt', title: 'Team notes' } },
          { role: 'user', content: { type: 'resource_link', uri: ARCHITECTURE.uri, name: 'architecture.md' } },
        ],
        attachments: [{ connection_id: 'mcp-conn-1', uri: 'demo://notes.txt', name: 'Team notes', mime_type: 'text/plain', size: 15 }, ARCHITECTURE],
      }),
    );
    const user = userEvent.setup();
    renderApp('/llm-chat');
    const box = await input();
    await user.click(screen.getByTestId('attach-button'));
    const dialog = await screen.findByRole('dialog', { name: 'Attach a resource' });
    await user.click((await within(dialog).findAllByTestId('resource-option'))[0]);
    const chips = screen.getByRole('list', { name: 'Attached to the next message' });

    await user.type(box, '/notes');
    await screen.findByRole('listbox', { name: 'Prompts' });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(box).toHaveValue('Summarise the notes.'));
    expect(within(chips).getAllByTestId('attachment-chip').map((c) => c.textContent)).toEqual(['📎architecture.md2.0 KB×', '📎Team notes15 bytes×']);

    await user.type(box, ' What do they say?{Enter}');
    await waitFor(() => expect(api.callsTo('POST', '/api/v1/mcp-connections/message')).toHaveLength(1));
    expect((api.callsTo('POST', '/api/v1/mcp-connections/message')[0].body as Record<string, unknown>).attachments).toEqual([
      { connection_id: 'mcp-conn-1', uri: ARCHITECTURE.uri, name: 'architecture.md' },
      { connection_id: 'mcp-conn-1', uri: 'demo://notes.txt', name: 'Team notes' },
    ]);
  });

  it('a prompt referring to a resource its server will not read says so, and the box and chips stay as they were', async () => {
    const refused = 'The prompt "secret-prompt" refers to demo://secret.txt, which Everything would not read: access denied.';
    api.route('POST /api/v1/mcp-connections/mcp-conn-1/prompts/get', () => jsonResponse(400, { code: 'invalid', detail: refused }));
    const user = userEvent.setup();
    renderApp('/llm-chat');
    const box = await input();
    await user.type(box, '/simple');
    await screen.findByRole('listbox', { name: 'Prompts' });
    await user.keyboard('{Enter}');
    expect(await within(screen.getByTestId('prompt-menu')).findByRole('alert')).toHaveTextContent(refused);
    expect(box).toHaveValue('/simple');
    expect(screen.queryByRole('list', { name: 'Attached to the next message' })).toBeNull();

    // Through the fill-in dialog: the error shows there.
    await user.clear(box);
    await user.type(box, '/team');
    await screen.findByRole('listbox', { name: 'Prompts' });
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Team Management' });
    await user.type(within(dialog).getByRole('combobox', { name: /department/ }), 'Sales');
    await user.click(within(dialog).getByRole('button', { name: 'Insert' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(refused);
    expect(box).toHaveValue('/team');
  });

  it('refuses a prompt whose resources would take the message past 10 attachments, leaving the box as it was', async () => {
    const many = Array.from({ length: 10 }, (_, i) => ({ connection_id: 'mcp-conn-1', uri: `demo://r${i}`, name: `r${i}` }));
    api.route('POST /api/v1/mcp-connections/mcp-conn-1/prompts/get', () =>
      jsonResponse(200, { messages: [{ role: 'user', content: { type: 'text', text: 'Read all of these.' } }], attachments: many }),
    );
    const user = userEvent.setup();
    renderApp('/llm-chat');
    const box = await input();
    await user.click(screen.getByTestId('attach-button'));
    const dialog = await screen.findByRole('dialog', { name: 'Attach a resource' });
    await user.click((await within(dialog).findAllByTestId('resource-option'))[0]);

    await user.type(box, '/simple');
    await screen.findByRole('listbox', { name: 'Prompts' });
    await user.keyboard('{Enter}');
    expect(await within(screen.getByTestId('prompt-menu')).findByRole('alert')).toHaveTextContent(
      'A message may attach at most 10 resources: this prompt adds 10 to the 1 attached already.',
    );
    expect(box).toHaveValue('/simple');
    expect(within(screen.getByRole('list', { name: 'Attached to the next message' })).getAllByTestId('attachment-chip')).toHaveLength(1);
  });

  it('says when the enabled servers have no prompts', async () => {
    prompts = [];
    const user = userEvent.setup();
    renderApp('/llm-chat');
    const box = await input();
    await waitFor(() => expect(screen.getByTestId('attach-button')).toBeEnabled());
    await user.type(box, '/');
    expect(await screen.findByText('No prompts on the enabled servers.')).toBeInTheDocument();
  });
});

describe('the paperclip', () => {
  it('attaches a resource and a template’s resource as chips that go with the next message and show on it', async () => {
    const user = userEvent.setup();
    renderApp('/llm-chat');
    const box = await input();
    await user.click(screen.getByTestId('attach-button'));
    let dialog = await screen.findByRole('dialog', { name: 'Attach a resource' });
    const options = await within(dialog).findAllByTestId('resource-option');
    expect(options[1]).toBeDisabled();
    expect(options[1]).toHaveTextContent('too large to attach (over 4 MB)');
    await user.click(options[0]);
    const chips = screen.getByRole('list', { name: 'Attached to the next message' });
    expect(within(chips).getByTestId('attachment-chip')).toHaveTextContent('architecture.md');

    await user.click(screen.getByTestId('attach-button'));
    dialog = await screen.findByRole('dialog', { name: 'Attach a resource' });
    await user.click(await within(dialog).findByTestId('template-option'));
    const field = within(dialog).getByRole('combobox', { name: /resourceId/ });
    await user.type(field, '2');
    await user.click(within(dialog).getByRole('button', { name: 'Attach' }));
    expect(within(chips).getAllByTestId('attachment-chip')).toHaveLength(2);
    await user.click(within(chips).getByRole('button', { name: 'Remove 2' }));
    expect(within(chips).getAllByTestId('attachment-chip')).toHaveLength(1);

    await user.type(box, 'What does it say?{Enter}');
    await waitFor(() => expect(api.callsTo('POST', '/api/v1/mcp-connections/message')).toHaveLength(1));
    expect((api.callsTo('POST', '/api/v1/mcp-connections/message')[0].body as Record<string, unknown>).attachments).toEqual([
      { connection_id: 'mcp-conn-1', uri: 'demo://resource/static/document/architecture.md', name: 'architecture.md' },
    ]);
    expect(screen.queryByRole('list', { name: 'Attached to the next message' })).toBeNull();
    const sent = within(screen.getByTestId('messages')).getAllByTestId('message')[0];
    expect(within(sent).getByRole('list', { name: 'Attached resources' })).toHaveTextContent('architecture.md');
  });

  it('says when the enabled servers have no resources', async () => {
    api.route('GET /api/v1/mcp-connections/resources', () => jsonResponse(200, []));
    const user = userEvent.setup();
    renderApp('/llm-chat');
    await input();
    await user.click(screen.getByTestId('attach-button'));
    const dialog = await screen.findByRole('dialog', { name: 'Attach a resource' });
    expect(await within(dialog).findByText('No resources on the enabled servers.')).toBeInTheDocument();
  });
});
