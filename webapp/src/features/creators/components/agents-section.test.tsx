import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fileSaver } from '../../../lib/save-file';
import { creatorAgent, creatorProfile, fakeCreatorsApi, registryServer, type CreatorsState } from '../../../test/fake-creators-api';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { setUpPageTests } from '../../../test/page-tests';
import { renderApp } from '../../../test/render-app';
import { startSignedIn } from '../../../test/session';
import { IMPORT_MAX_BYTES } from './agent-import';

const api = setUpPageTests();

const ENABLED = creatorProfile({ payouts: { status: 'enabled', charges_enabled: true, payouts_enabled: true } });
const EVERYTHING = registryServer();
const NOTES = registryServer({ id: 'notes', name: 'Notes', description: 'Your notes.', oauth_required: true, tools: [{ name: 'search_notes', description: 'Finds notes.' }] });
const UNPROBED = registryServer({ id: 'fresh', name: 'Fresh server', description: 'New in the registry.', api_key_required: true, tools: [] });

const studio = (extra: Partial<CreatorsState> = {}) => {
  startSignedIn();
  const state = fakeCreatorsApi(api, { profile: creatorProfile(), registry: [EVERYTHING, NOTES, UNPROBED], ...extra });
  renderApp('/creator');
  return state;
};
const section = async () => (await screen.findByRole('heading', { level: 2, name: 'Your agents' })).closest('section') as HTMLElement;
const row = async (name: string) => screen.findByRole('listitem', { name });
const form = () => screen.getByTestId('creator-agent-form');
const type = async (label: string, text: string) => {
  const field = within(form()).getByLabelText(label, { exact: false });
  await userEvent.clear(field);
  if (text) {
    await userEvent.click(field);
    await userEvent.paste(text);
  }
};
const openNew = async () => {
  await userEvent.click(within(await section()).getByRole('button', { name: 'New agent' }));
  return form();
};
const fillRequired = async () => {
  await type('Name', 'Sales coach');
  await type('Instructions', 'You coach [ROLE] on sales calls.');
  await userEvent.selectOptions(within(form()).getByLabelText('Category', { exact: false }), 'Sales');
};

describe('the creator studio: your agents', () => {
  it('lists each agent with its state, the admin’s reason, a next version, model, price and counts', async () => {
    studio({
      agents: [
        creatorAgent({ id: 'a-1', name: 'Draft one' }),
        creatorAgent({ id: 'a-2', name: 'Waiting', state: 'in_review' }),
        creatorAgent({ id: 'a-3', name: 'Refused', state: 'rejected', review_reason: 'Say what it is for.' }),
        creatorAgent({
          id: 'a-4',
          name: 'Live',
          state: 'published',
          price: 4.5,
          is_free: false,
          provider: 'anthropic',
          model: 'claude-3-opus',
          servers: [{ server_id: 'local-everything', tools: ['echo', 'add'] }],
          purchases: 3,
          rating_avg: 4.5,
          rating_count: 2,
          pending: { ...creatorAgent(), change_note: 'Shorter.', state: 'rejected', review_reason: 'Too short.' },
        }),
        creatorAgent({ id: 'a-5', name: 'Gone', state: 'published', withdrawn: true, purchases: 1 }),
        creatorAgent({ id: 'a-6', name: 'Stopped', state: 'published', suspended: true }),
      ],
    });
    const state = async (name: string) => within(await row(name)).getByTestId('agent-state');
    expect(await state('Draft one')).toHaveTextContent('Draft');
    expect(await state('Waiting')).toHaveTextContent('In review');
    expect(await state('Refused')).toHaveTextContent('Rejected: Say what it is for.');
    expect(await state('Live')).toHaveTextContent('Published');
    expect(await state('Gone')).toHaveTextContent('Withdrawn: off the marketplace, its buyers keep it');
    expect(await state('Stopped')).toHaveTextContent('Suspended by an admin: off the marketplace (Published)');

    const live = await row('Live');
    expect(within(live).getByTestId('agent-next-version')).toHaveTextContent('Next version: Rejected: Too short.');
    expect(live).toHaveTextContent('$4.50 · Sales · Anthropic Claude claude-3-opus');
    expect(live).toHaveTextContent('1 server, 2 tools · 3 purchases · rated 4.5 (2)');
    expect(await row('Draft one')).toHaveTextContent('Free · Sales · OpenAI GPT gpt-4o-mini');

    // What each may do now: in review and withdrawn are not edited; a published one without a next version is not submitted.
    const buttons = async (name: string) => within(await row(name)).getAllByRole('button').map((b) => b.textContent);
    expect(await buttons('Draft one')).toEqual(['Edit', 'Submit for review', 'Export', 'Delete']);
    expect(await buttons('Waiting')).toEqual(['Export', 'Delete']);
    expect(await buttons('Live')).toEqual(['Edit', 'Submit for review', 'Export', 'Delete']);
    expect(await buttons('Gone')).toEqual(['Export', 'Delete']);
    expect(await buttons('Stopped')).toEqual(['Edit', 'Export', 'Delete']);
  });

  it('says when there are none, and a suspended creator cannot add any', async () => {
    studio({ profile: creatorProfile({ suspended: true }) });
    const s = await section();
    expect(await within(s).findByText(/No agents yet/)).toBeInTheDocument();
    expect(within(s).getByRole('button', { name: 'New agent' })).toBeDisabled();
    expect(within(s).getByRole('button', { name: 'Import agent' })).toBeDisabled();
  });

  it('New agent: checks the fields, previews the instructions, picks provider, model, servers and tools, and saves a draft', async () => {
    const state = studio();
    await openNew();
    await userEvent.click(within(form()).getByRole('button', { name: 'Save draft' }));
    expect(within(form()).getByText('Name is required.')).toBeInTheDocument();
    expect(within(form()).getByText('Instructions are required.')).toBeInTheDocument();
    expect(within(form()).getByLabelText('Name', { exact: false })).toHaveFocus();
    expect(api.callsTo('POST', '/api/v1/creators/me/agents')).toHaveLength(0);

    await fillRequired();
    await type('Description', 'Coaches your calls.');
    // The prompt editor's preview shows the instructions' menu fields too.
    await type('Instructions', 'Coach [start menu] [ROLE:dropdown:AE,SDR] [end menu]');
    expect(within(form()).getByTestId('prompt-preview')).toBeInTheDocument();

    // Provider and model: the chat's catalogue; another provider starts on its first model.
    const provider = within(form()).getByLabelText('Provider', { exact: false });
    expect([...provider.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['OpenAI GPT', 'Meta Llama', 'Anthropic Claude', 'Google Gemini']);
    await userEvent.selectOptions(provider, 'Anthropic Claude');
    const model = within(form()).getByLabelText('Model', { exact: false }) as HTMLSelectElement;
    expect(model.value).toBe('claude-3-5-sonnet');
    expect([...model.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['claude-3-5-sonnet', 'claude-3-opus']);
    await userEvent.selectOptions(model, 'claude-3-opus');

    // Servers: searched in the registry; each chosen one is a fieldset named by it, a checkbox per tool.
    const results = await within(form()).findByRole('list', { name: 'Registry servers' });
    expect(await within(results).findByText('Everything')).toBeInTheDocument();
    await userEvent.type(within(form()).getByLabelText('Search MCP servers'), 'notes');
    await waitFor(() => expect(api.calls.some((c) => c.path === '/api/v1/mcp-servers/' && c.search === '?search=notes')).toBe(true));
    await waitFor(() => expect(within(results).queryByText('Everything')).toBeNull());
    await userEvent.click(within(results).getByRole('button', { name: 'Add Notes' }));
    const notes = await within(form()).findByRole('group', { name: 'Notes' });
    await userEvent.click(await within(notes).findByRole('checkbox', { name: 'search_notes' }));
    await userEvent.clear(within(form()).getByLabelText('Search MCP servers'));
    await userEvent.click(await within(results).findByRole('button', { name: 'Add Everything' }));
    const everything = await within(form()).findByRole('group', { name: 'Everything' });
    expect(within(everything).getAllByRole('checkbox').map((c) => c.getAttribute('value'))).toEqual(['echo', 'add']);
    await userEvent.click(within(everything).getByRole('checkbox', { name: 'echo (Echo)' }));
    expect(within(form()).getByTestId('agent-tool-count')).toHaveTextContent('2 of 10 servers, 2 of 100 tools.');

    await type('Starter prompts', 'Review my call\nPlan my week');
    await userEvent.click(within(form()).getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(screen.queryByTestId('creator-agent-form')).toBeNull());
    expect(api.callsTo('POST', '/api/v1/creators/me/agents')[0].body).toEqual({
      name: 'Sales coach',
      description: 'Coaches your calls.',
      instructions: 'Coach [start menu] [ROLE:dropdown:AE,SDR] [end menu]',
      provider: 'anthropic',
      model: 'claude-3-opus',
      servers: [
        { server_id: 'notes', tools: ['search_notes'] },
        { server_id: 'local-everything', tools: ['echo'] },
      ],
      starters: ['Review my call', 'Plan my week'],
      category_id: 'sales',
      price: 0,
    });
    expect(state.agents).toHaveLength(1);
    expect(within(await row('Sales coach')).getByTestId('agent-state')).toHaveTextContent('Draft');
    expect(screen.getByTestId('toasts')).toHaveTextContent('Draft saved.');
  });

  it('a server whose tools the registry has not listed takes typed tool names', async () => {
    studio();
    await openNew();
    await fillRequired();
    const results = await within(form()).findByRole('list', { name: 'Registry servers' });
    await userEvent.click(await within(results).findByRole('button', { name: 'Add Fresh server' }));
    const fresh = await within(form()).findByRole('group', { name: 'Fresh server' });
    expect(await within(fresh).findByText(/has not listed this server’s tools yet/)).toBeInTheDocument();
    await userEvent.type(within(fresh).getByLabelText('Tool name for Fresh server'), 'lookup{Enter}');
    expect(within(fresh).getByRole('checkbox', { name: 'lookup' })).toBeChecked();
    await userEvent.click(within(form()).getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/v1/creators/me/agents')).toHaveLength(1));
    expect((api.callsTo('POST', '/api/v1/creators/me/agents')[0].body as { servers: unknown }).servers).toEqual([{ server_id: 'fresh', tools: ['lookup'] }]);
  });

  it('says beside Price that a paid agent needs payouts, until they are enabled', async () => {
    studio();
    await openNew();
    const price = within(form()).getByLabelText('Price', { exact: false });
    expect(price).toHaveAccessibleDescription(/leave empty \(or 0\) for a free agent.*A paid agent needs payouts: set up payouts above before an admin can approve it\./);
    await userEvent.type(price, '9.99');
    expect(within(form()).getByTestId('agent-payouts-note')).toHaveClass('agent-payouts-note--paid');
  });

  it('with payouts enabled says nothing of them, and saves a paid agent', async () => {
    studio({ profile: ENABLED });
    await openNew();
    expect(within(form()).queryByTestId('agent-payouts-note')).toBeNull();
    await fillRequired();
    await type('Price', '9.99');
    await userEvent.click(within(form()).getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/v1/creators/me/agents')).toHaveLength(1));
    expect((api.callsTo('POST', '/api/v1/creators/me/agents')[0].body as { price: number }).price).toBe(9.99);
    expect(await row('Sales coach')).toHaveTextContent('$9.99');
  });

  it.each([
    ['instructions must be at most 50,000 characters (they have 50001)', 'Instructions'],
    ['model: gpt-x is not a model of openai', 'Model'],
    ['starters: each must be 1 to 300 characters', 'Starter prompts'],
    ['category "gone" does not exist', 'Category'],
    ['price must be 0 (free) or more than 0 and at most 999.99', 'Price'],
  ])('shows the API’s refusal “%s” beside %s', async (detail, label) => {
    studio();
    await openNew();
    await fillRequired();
    api.route('POST /api/v1/creators/me/agents', () => jsonResponse(400, { detail, code: 'invalid' }));
    await userEvent.click(within(form()).getByRole('button', { name: 'Save draft' }));
    const field = within(form()).getByLabelText(label, { exact: false });
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(within(form()).getByText(detail)).toBeInTheDocument();
    expect(field).toHaveFocus();
    expect(screen.queryByTestId('agent-save-error')).toBeNull();
  });

  it('shows a refusal about servers on the servers, and one naming no field above the buttons', async () => {
    studio();
    await openNew();
    await fillRequired();
    api.route('POST /api/v1/creators/me/agents', () => jsonResponse(400, { detail: 'servers: xyz is disabled', code: 'invalid' }));
    await userEvent.click(within(form()).getByRole('button', { name: 'Save draft' }));
    expect(await within(form()).findByTestId('agent-servers-error')).toHaveTextContent('servers: xyz is disabled');
    expect(within(form()).getByRole('group', { name: 'MCP servers' })).toHaveAttribute('aria-invalid', 'true');

    api.route('POST /api/v1/creators/me/agents', () => jsonResponse(403, { detail: 'Your creator account is suspended.', code: 'forbidden' }));
    await userEvent.click(within(form()).getByRole('button', { name: 'Save draft' }));
    expect(await within(form()).findByTestId('agent-save-error')).toHaveTextContent('Your creator account is suspended.');
    expect(within(form()).getByLabelText('Name', { exact: false })).toHaveValue('Sales coach');
  });

  it('Submit for review in the form saves, then submits', async () => {
    const state = studio();
    await openNew();
    await fillRequired();
    await userEvent.click(within(form()).getByRole('button', { name: 'Submit for review' }));
    await waitFor(() => expect(screen.queryByTestId('creator-agent-form')).toBeNull());
    const id = state.agents[0].id;
    expect(api.callsTo('POST', `/api/v1/creators/me/agents/${id}/submit`)).toHaveLength(1);
    expect(within(await row('Sales coach')).getByTestId('agent-state')).toHaveTextContent('In review');
    expect(screen.getByTestId('toasts')).toHaveTextContent('Sent for review.');
  });

  it('a stale edit (409) shows the agent as it now is and keeps what was typed; the next save goes over it', async () => {
    const state = studio({ agents: [creatorAgent({ id: 'a-1', name: 'Coach', version: 3 })] });
    await userEvent.click(within(await row('Coach')).getByRole('button', { name: 'Edit' }));
    // Meanwhile, in another tab:
    state.agents[0] = { ...state.agents[0], name: 'Coach (renamed)', version: 4 };
    await type('Instructions', 'Mine, typed here.');
    await userEvent.click(within(form()).getByRole('button', { name: 'Save draft' }));
    const conflict = await within(form()).findByTestId('agent-conflict');
    expect(conflict).toHaveTextContent('Coach (renamed)');
    expect(within(form()).getByLabelText('Instructions', { exact: false })).toHaveValue('Mine, typed here.');
    await userEvent.click(within(form()).getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(screen.queryByTestId('creator-agent-form')).toBeNull());
    const patches = api.callsTo('PATCH', '/api/v1/creators/me/agents/a-1');
    expect(patches.map((c) => (c.body as { version: number }).version)).toEqual([3, 4]);
    expect(state.agents[0].instructions).toBe('Mine, typed here.');
  });

  it('an edit of a published agent needs What changed, and leaves the live version as it is', async () => {
    const state = studio({ agents: [creatorAgent({ id: 'a-1', name: 'Coach', state: 'published', published_versions: 1 })] });
    await userEvent.click(within(await row('Coach')).getByRole('button', { name: 'Edit' }));
    expect(within(form()).getByTestId('next-version-note')).toBeInTheDocument();
    await type('Instructions', 'Better.');
    await userEvent.click(within(form()).getByRole('button', { name: 'Save draft' }));
    expect(within(form()).getByText('Say what changed, for your buyers.')).toBeInTheDocument();
    expect(api.callsTo('PATCH', '/api/v1/creators/me/agents/a-1')).toHaveLength(0);
    await type('What changed', 'Clearer advice.');
    await userEvent.click(within(form()).getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(screen.queryByTestId('creator-agent-form')).toBeNull());
    expect(api.callsTo('PATCH', '/api/v1/creators/me/agents/a-1')[0].body).toMatchObject({ instructions: 'Better.', change_note: 'Clearer advice.', version: 1 });
    expect(state.agents[0].instructions).toBe('You are a sales coach.');
    expect(within(await row('Coach')).getByTestId('agent-next-version')).toHaveTextContent('Next version: Draft');
    expect(screen.getByTestId('toasts')).toHaveTextContent('Next version saved as a draft.');
  });

  it('Delete asks first, then deletes; a sold agent is taken off the marketplace instead', async () => {
    const state = studio({ agents: [creatorAgent({ id: 'a-1', name: 'Coach' }), creatorAgent({ id: 'a-2', name: 'Sold', state: 'published', purchases: 2 })] });
    await userEvent.click(within(await row('Coach')).getByRole('button', { name: 'Delete' }));
    const ask = screen.getByRole('group', { name: 'Delete Coach?' });
    expect(ask).toHaveTextContent('Delete this agent?');
    await userEvent.click(within(ask).getByRole('button', { name: 'Keep it' }));
    expect(api.callsTo('DELETE', '/api/v1/creators/me/agents/a-1')).toHaveLength(0);
    expect(within(await row('Coach')).getByRole('button', { name: 'Delete' })).toHaveFocus();
    await userEvent.click(within(await row('Coach')).getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(screen.getByRole('group', { name: 'Delete Coach?' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Coach' })).toBeNull());
    expect(api.callsTo('DELETE', '/api/v1/creators/me/agents/a-1')[0].search).toBe('?version=1');

    await userEvent.click(within(await row('Sold')).getByRole('button', { name: 'Delete' }));
    const sold = screen.getByRole('group', { name: 'Delete Sold?' });
    expect(sold).toHaveTextContent('Take it off the marketplace? Its buyers keep it.');
    await userEvent.click(within(sold).getByRole('button', { name: 'Delete' }));
    await waitFor(async () => expect(within(await row('Sold')).getByTestId('agent-state')).toHaveTextContent('Withdrawn'));
    expect(state.agents.map((a) => a.id)).toEqual(['a-2']);
  });
});

describe('the creator studio: import and export', () => {
  const upload = async (file: File) => {
    await userEvent.click(within(await section()).getByRole('button', { name: 'Import agent' }));
    await userEvent.upload(screen.getByLabelText('Agent file'), file);
  };
  const json = (v: unknown, name = 'agent.json') => new File([JSON.stringify(v)], name, { type: 'application/json' });

  it('imports a LobeChat agent file as a draft and lists what was not imported', async () => {
    const state = studio();
    await upload(
      json({
        identifier: 'sales-coach',
        author: 'someone',
        meta: { title: 'Lobe coach', description: 'From LobeChat.', avatar: '🤖' },
        config: { systemRole: 'You coach.', plugins: ['web'] },
      }),
    );
    const result = await screen.findByTestId('agent-import-result');
    expect(result).toHaveTextContent('Imported “Lobe coach” as a draft');
    expect(within(result).getByTestId('agent-import-ignored')).toHaveTextContent('Not imported: meta.avatar, config.plugins');
    expect(api.callsTo('POST', '/api/v1/creators/me/agents/import')[0].headers['Content-Type']).toBe('application/json');
    expect(within(await row('Lobe coach')).getByTestId('agent-state')).toHaveTextContent('Draft');
    expect(state.agents[0].instructions).toBe('You coach.');

    await userEvent.click(within(result).getByRole('button', { name: 'Edit the draft' }));
    expect(within(form()).getByLabelText('Name', { exact: false })).toHaveValue('Lobe coach');
  });

  it('refuses a file over 1 MB and one that is not JSON before sending it', async () => {
    studio();
    await upload(new File(['x'.repeat(IMPORT_MAX_BYTES + 1)], 'big.json', { type: 'application/json' }));
    expect(await screen.findByTestId('agent-import-error')).toHaveTextContent('The file is larger than 1 MB');
    await userEvent.upload(screen.getByLabelText('Agent file'), new File(['{ not json'], 'broken.json', { type: 'application/json' }));
    await waitFor(() => expect(screen.getByTestId('agent-import-error')).toHaveTextContent('The file is not JSON.'));
    expect(api.callsTo('POST', '/api/v1/creators/me/agents/import')).toHaveLength(0);
  });

  it('shows the API’s word on a file of neither format, and on a file too large for it', async () => {
    studio();
    await upload(json({ hello: 'world' }));
    expect(await screen.findByTestId('agent-import-error')).toHaveTextContent(
      'The file is not an agent file: it needs "format": "aiwork.agent", or config.systemRole as a LobeChat agent file has.',
    );
    api.route('POST /api/v1/creators/me/agents/import', () => jsonResponse(413, { detail: 'The file is larger than 1 MB.', code: 'too_large' }));
    await userEvent.upload(screen.getByLabelText('Agent file'), json({ format: 'aiwork.agent' }));
    await waitFor(() => expect(screen.getByTestId('agent-import-error')).toHaveTextContent('The file is larger than 1 MB.'));
    expect(screen.queryByTestId('agent-import-result')).toBeNull();
  });

  it('Export saves the agent file under the name the API gives', async () => {
    const save = vi.spyOn(fileSaver, 'save').mockImplementation(() => undefined);
    studio({ agents: [creatorAgent({ id: 'a-1', name: 'Coach', price: 5, is_free: false, state: 'published' })] });
    await userEvent.click(within(await row('Coach')).getByRole('button', { name: 'Export Coach' }));
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    const [blob, name] = save.mock.calls[0];
    expect(name).toBe('a-1.agent.json');
    expect(JSON.parse(await (blob as Blob).text())).toMatchObject({ format: 'aiwork.agent', format_version: 1, name: 'Coach', price: 5 });
    const call = api.callsTo('GET', '/api/v1/agents/a-1/export')[0];
    expect(call.auth).toMatch(/^Bearer /);
  });

  it('says why an export was refused', async () => {
    const save = vi.spyOn(fileSaver, 'save').mockImplementation(() => undefined);
    studio({ agents: [creatorAgent({ id: 'a-1', name: 'Coach' })] });
    api.route('GET /api/v1/agents/a-1/export', () => jsonResponse(403, { detail: 'A paid agent’s instructions are not exported.', code: 'forbidden' }));
    await userEvent.click(within(await row('Coach')).getByRole('button', { name: 'Export Coach' }));
    expect(await screen.findByTestId('agents-error')).toHaveTextContent('A paid agent’s instructions are not exported.');
    expect(save).not.toHaveBeenCalled();
  });
});
