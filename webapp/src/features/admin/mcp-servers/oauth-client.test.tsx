import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { setUpPageTests } from '../../../test/page-tests';
import { renderApp } from '../../../test/render-app';
import { ADA, startSignedIn } from '../../../test/session';
import { fakeAdminApi, server, type AdminSeed } from '../test-fixtures';

const api = setUpPageTests();

beforeAll(async () => {
  await import('../components/admin-page');
}, 60_000);

const GATED = server({ id: 'gated', name: 'Gated', auth: 'oauth' });
const WITH_CLIENT = server({
  id: 'ops',
  name: 'Ops',
  auth: 'oauth',
  oauth_client: { client_id: 'ops-client', has_secret: true, issuer: 'https://auth.example.com' },
});
const PLAIN = server({ id: 'plain', name: 'Plain' });

async function edit(name: string, seed: AdminSeed = { servers: [GATED, WITH_CLIENT, PLAIN] }) {
  startSignedIn({ ...ADA, is_admin: true });
  const state = fakeAdminApi(api, seed);
  renderApp('/admin/mcp-servers');
  await userEvent.click(await screen.findByRole('button', { name: `Edit ${name}` }));
  return { state, dialog: screen.getByRole('dialog', { name: `Edit “${name}”` }) };
}

const patches = (id: string) => api.callsTo('PATCH', `/api/v1/admin/mcp-servers/${id}`).map((c) => c.body);
const save = async (dialog: HTMLElement) => {
  await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
};

describe('MCP servers: the operator OAuth client', () => {
  it('sets a client id, a secret and its authorization server; the secret is never shown again', async () => {
    const { dialog } = await edit('Gated');
    const client = within(dialog).getByTestId('oauth-client');
    expect(within(client).getByTestId('oauth-secret-state')).toHaveTextContent('Client secret: none.');
    await userEvent.type(within(client).getByLabelText('OAuth client id'), 'my-client');
    await userEvent.click(within(client).getByRole('button', { name: 'Set' }));
    await userEvent.type(within(client).getByLabelText('Client secret'), 's3cret-value');
    expect(within(client).getByLabelText('Client secret')).toHaveAttribute('type', 'password');
    await userEvent.type(within(client).getByLabelText('Authorization server (issuer)'), 'https://auth.gated.example');
    await save(dialog);
    expect(patches('gated')).toEqual([
      { version: 1, oauth_client: { client_id: 'my-client', issuer: 'https://auth.gated.example', client_secret: 's3cret-value' } },
    ]);

    await userEvent.click(screen.getByRole('button', { name: 'Edit Gated' }));
    const again = screen.getByRole('dialog', { name: 'Edit “Gated”' });
    expect(within(again).getByLabelText('OAuth client id')).toHaveValue('my-client');
    expect(within(again).getByTestId('oauth-secret-state')).toHaveTextContent('Client secret: set (never shown).');
    expect(within(again).getByRole('button', { name: 'Replace' })).toBeInTheDocument();
    expect(again).not.toHaveTextContent('s3cret-value');
    expect(within(again).queryByDisplayValue('s3cret-value')).toBeNull();
  });

  it('an edit that leaves the client alone does not send it', async () => {
    const { dialog } = await edit('Ops');
    await userEvent.clear(within(dialog).getByLabelText('Model type'));
    await userEvent.type(within(dialog).getByLabelText('Model type'), 'demo');
    await save(dialog);
    expect(patches('ops')).toEqual([{ version: 1, model_type: 'demo' }]);
  });

  it('replaces the secret, clears it, and clears the whole client', async () => {
    const { dialog } = await edit('Ops');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Replace' }));
    await userEvent.type(within(dialog).getByLabelText('Client secret'), 'new-secret');
    await save(dialog);

    await userEvent.click(screen.getByRole('button', { name: 'Edit Ops' }));
    let d = screen.getByRole('dialog', { name: 'Edit “Ops”' });
    await userEvent.click(within(d).getByRole('button', { name: 'Clear' }));
    expect(within(d).getByTestId('oauth-secret-state')).toHaveTextContent('Client secret: will be cleared when you save.');
    await save(d);

    await userEvent.click(screen.getByRole('button', { name: 'Edit Ops' }));
    d = screen.getByRole('dialog', { name: 'Edit “Ops”' });
    expect(within(d).getByTestId('oauth-secret-state')).toHaveTextContent('Client secret: none.');
    await userEvent.clear(within(d).getByLabelText('OAuth client id'));
    await userEvent.clear(within(d).getByLabelText('Authorization server (issuer)'));
    await save(d);

    expect(patches('ops')).toEqual([
      { version: 1, oauth_client: { client_id: 'ops-client', issuer: 'https://auth.example.com', client_secret: 'new-secret' } },
      { version: 2, oauth_client: { client_id: 'ops-client', issuer: 'https://auth.example.com', client_secret: null } },
      { version: 3, oauth_client: null },
    ]);
  });

  it('checks the client as the API does', async () => {
    const { dialog } = await edit('Gated');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Set' }));
    await userEvent.type(within(dialog).getByLabelText('Authorization server (issuer)'), 'https://auth.example.com/?tenant=1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(within(dialog).getByText('Enter the OAuth client id the secret and the authorization server go with.')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter the client secret, or cancel.')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter the issuer URL from the authorization server’s metadata (https://…, without ? or #).')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('OAuth client id'), 'two words');
    expect(within(dialog).getByText('The client id must not contain spaces.')).toBeInTheDocument();
    expect(patches('gated')).toEqual([]);
  });

  it('is offered for OAuth servers only, unless a server already has a client', async () => {
    const { dialog } = await edit('Plain');
    expect(within(dialog).queryByTestId('oauth-client')).toBeNull();
    await userEvent.selectOptions(within(dialog).getByLabelText('Authentication'), 'OAuth');
    expect(within(dialog).getByTestId('oauth-client')).toBeInTheDocument();
  });
});
