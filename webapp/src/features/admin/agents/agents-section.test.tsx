import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { setUpPageTests } from '../../../test/page-tests';
import { renderApp } from '../../../test/render-app';
import { ADA, startSignedIn } from '../../../test/session';
import { agent, fakeAdminApi, json } from '../test-fixtures';

const api = setUpPageTests();

beforeAll(async () => {
  await import('../components/admin-page');
}, 60_000);

const COACH = agent({ id: 'a-1', name: 'Sales coach', price: 4.5, is_free: false, provider: 'anthropic', model: 'claude-3-opus' });
const HELPER = agent({ id: 'a-2', name: 'Helper', state: 'published', suspended: true, on_sale: false, creator: { user_id: 'c2', username: 'linus', display_name: 'Linus' } });
const DRAFT = agent({ id: 'a-3', name: 'Sketch', description: 'Rough idea.', state: 'draft', on_sale: false });

function open() {
  startSignedIn({ ...ADA, is_admin: true });
  const state = fakeAdminApi(api, { agents: [COACH, HELPER, DRAFT] });
  renderApp('/admin/agents');
  return state;
}

const row = (id: string) => {
  const el = document.querySelector<HTMLElement>(`[data-testid="agent-row"][data-agent-id="${id}"]`);
  if (!el) throw new Error(`no row ${id}`);
  return el;
};
const findRow = async (id: string) => {
  await waitFor(() => row(id));
  return row(id);
};
const cells = (id: string) => within(row(id)).getAllByRole('cell').map((c) => c.textContent);

describe('admin: agents', () => {
  it('is in the section nav and lists each agent with its creator, model, price, state and whether it is on sale', async () => {
    open();
    expect(within(await screen.findByRole('navigation', { name: 'Admin sections' })).getByRole('link', { name: 'Agents' })).toHaveAttribute('aria-current', 'page');
    await findRow('a-1');
    expect(cells('a-1').slice(0, 7)).toEqual(['Sales coacha-1', 'Grace Hopper@grace', 'Anthropic Claude claude-3-opus', '$4.50', 'Published', 'Yes', 'Mar 7, 2026, 10:00 AM UTC']);
    expect(cells('a-2').slice(3, 6)).toEqual(['Free', 'Published', 'No: suspended']);
    expect(cells('a-3').slice(4, 6)).toEqual(['Draft', 'No: not published']);
    expect(screen.getByTestId('agents-table-count')).toHaveTextContent('Showing 3 of 3 agents');
  });

  it('finds agents by words and by state', async () => {
    open();
    await findRow('a-1');
    await userEvent.type(screen.getByLabelText('Search agents'), 'rough');
    // The search is sent once typing pauses (a slow machine may send a part of it first).
    await waitFor(() => expect(api.callsTo('GET', '/api/v1/admin/agents').at(-1)?.search).toContain('q=rough'));
    await waitFor(() => expect(document.querySelectorAll('[data-testid="agent-row"]')).toHaveLength(1));
    expect(row('a-3')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Search agents'));
    await userEvent.selectOptions(screen.getByLabelText('State'), 'Suspended');
    await waitFor(() => expect(api.callsTo('GET', '/api/v1/admin/agents').at(-1)?.search).toBe('?state=suspended&limit=25'));
    await waitFor(() => expect(document.querySelectorAll('[data-testid="agent-row"]')).toHaveLength(1));
    expect(row('a-2')).toBeInTheDocument();
  });

  it('asks before suspending, saying what happens; Cancel sends nothing; confirming suspends and is in the audit log', async () => {
    const state = open();
    await userEvent.click(within(await findRow('a-1')).getByRole('button', { name: 'Suspend: Sales coach' }));
    let dialog = screen.getByRole('dialog', { name: 'Suspend “Sales coach”?' });
    expect(dialog).toHaveAccessibleDescription('It leaves the marketplace at once; its buyers keep using it.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('POST', '/api/v1/admin/agents/a-1/suspend')).toHaveLength(0);

    await userEvent.click(within(row('a-1')).getByRole('button', { name: 'Suspend: Sales coach' }));
    dialog = screen.getByRole('dialog', { name: 'Suspend “Sales coach”?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(state.agents[0].suspended).toBe(true);
    await waitFor(() => expect(cells('a-1')[5]).toBe('No: suspended'));
    expect(within(row('a-1')).getByRole('button', { name: 'Unsuspend: Sales coach' })).toBeInTheDocument();
    expect(screen.getByTestId('toasts')).toHaveTextContent('Suspended “Sales coach”: it is off the marketplace.');

    await userEvent.click(within(screen.getByRole('navigation', { name: 'Admin sections' })).getByRole('link', { name: 'Audit log' }));
    const audit = await screen.findByTestId('audit-row');
    expect(audit).toHaveTextContent('agent.suspend');
    expect(audit).toHaveTextContent('agent a-1');
  });

  it('unsuspends after asking, and shows a refusal in the dialog', async () => {
    const state = open();
    await userEvent.click(within(await findRow('a-2')).getByRole('button', { name: 'Unsuspend: Helper' }));
    let dialog = screen.getByRole('dialog', { name: 'Unsuspend “Helper”?' });
    expect(dialog).toHaveAccessibleDescription('It returns to the marketplace if it is published.');
    api.route('POST /api/v1/admin/agents/a-2/unsuspend', () => json(404, { detail: 'Agent not found.', code: 'not_found' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unsuspend' }));
    expect(await within(dialog).findByTestId('confirm-error')).toHaveTextContent('Agent not found.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    fakeAdminApi(api, { agents: state.agents });
    await userEvent.click(within(row('a-2')).getByRole('button', { name: 'Unsuspend: Helper' }));
    dialog = screen.getByRole('dialog', { name: 'Unsuspend “Helper”?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unsuspend' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(cells('a-2')[5]).toBe('Yes'));
  });
});
