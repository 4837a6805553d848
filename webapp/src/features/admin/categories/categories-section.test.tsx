import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { setUpPageTests } from '../../../test/page-tests';
import { renderApp } from '../../../test/render-app';
import { ADA, startSignedIn } from '../../../test/session';
import { fakeAdminApi, prompt } from '../test-fixtures';

const api = setUpPageTests();

beforeAll(async () => {
  await import('../components/admin-page');
}, 60_000);

function open() {
  startSignedIn({ ...ADA, is_admin: true });
  // Marketing holds two prompts, Sales one, Empty shelf none.
  const state = fakeAdminApi(api, { prompts: [prompt({ id: 'p1' }), prompt({ id: 'p2' }), prompt({ id: 'p3', category_id: 'sales' })] });
  renderApp('/admin/categories');
  return state;
}

const row = (name: string) => {
  const el = screen.getAllByTestId('category-row').find((r) => r.getAttribute('data-category-id') === name);
  if (!el) throw new Error(`no row ${name}`);
  return el;
};
const names = () => screen.queryAllByTestId('category-row').map((r) => within(r).getAllByRole('cell')[0].textContent);

describe('categories', () => {
  it('lists each category with its prompt count; Delete only for an empty one, with the reason', async () => {
    open();
    await waitFor(() => expect(names()).toEqual(['Marketing', 'Sales', 'Empty shelf']));
    expect(within(row('marketing')).getAllByRole('cell')[1]).toHaveTextContent('2');
    expect(within(row('empty')).getAllByRole('cell')[1]).toHaveTextContent('0');
    const del = within(row('marketing')).getByRole('button', { name: 'Delete Marketing' });
    expect(del).toBeDisabled();
    expect(del).toHaveAccessibleDescription('Holds 2 prompts: move or delete them first.');
    expect(within(row('empty')).getByRole('button', { name: 'Delete Empty shelf' })).toBeEnabled();
  });

  it('creates one, checking the name as the API does first', async () => {
    const state = open();
    await waitFor(() => expect(names()).toHaveLength(3));
    const form = screen.getByRole('form', { name: 'New category' });
    const field = within(form).getByLabelText('New category name');
    await userEvent.click(within(form).getByRole('button', { name: 'Add category' }));
    expect(within(form).getByText('Name is required.')).toBeInTheDocument();
    await userEvent.type(field, ' sALES ');
    await userEvent.click(within(form).getByRole('button', { name: 'Add category' }));
    expect(within(form).getByText('A category named “Sales” already exists.')).toBeInTheDocument();
    await userEvent.clear(field);
    await userEvent.type(field, 'x'.repeat(61));
    await userEvent.click(within(form).getByRole('button', { name: 'Add category' }));
    expect(within(form).getByText('Name must be at most 60 characters (now 61).')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/v1/admin/categories')).toHaveLength(0);

    await userEvent.clear(field);
    await userEvent.type(field, '  Customer   support ');
    await userEvent.click(within(form).getByRole('button', { name: 'Add category' }));
    await waitFor(() => expect(names()).toContain('Customer support'));
    expect(api.callsTo('POST', '/api/v1/admin/categories')[0].body).toEqual({ name: 'Customer support' });
    expect(field).toHaveValue('');
    expect(state.categories.map((c) => c.name)).toContain('Customer support');
  });

  it("shows the API's 409 detail when the name was taken meanwhile", async () => {
    const state = open();
    await waitFor(() => expect(names()).toHaveLength(3));
    state.categories.push({ id: 'ops', name: 'Ops' }); // another admin, just now
    const form = screen.getByRole('form', { name: 'New category' });
    await userEvent.type(within(form).getByLabelText('New category name'), 'ops');
    await userEvent.click(within(form).getByRole('button', { name: 'Add category' }));
    expect(await within(form).findByText('A category named "ops" exists already.')).toBeInTheDocument();
  });

  it('renames in place: Enter saves, Escape cancels and gives focus back to Rename', async () => {
    open();
    await waitFor(() => expect(names()).toHaveLength(3));
    await userEvent.click(within(row('sales')).getByRole('button', { name: 'Rename Sales' }));
    const field = within(row('sales')).getByLabelText('New name for Sales');
    expect(field).toHaveFocus();
    await userEvent.keyboard('Nope{Escape}');
    expect(within(row('sales')).queryByLabelText('New name for Sales')).toBeNull();
    expect(within(row('sales')).getByRole('button', { name: 'Rename Sales' })).toHaveFocus();
    expect(api.callsTo('PATCH', '/api/v1/admin/categories/sales')).toHaveLength(0);

    await userEvent.click(within(row('sales')).getByRole('button', { name: 'Rename Sales' }));
    await userEvent.clear(within(row('sales')).getByLabelText('New name for Sales'));
    await userEvent.keyboard('marketing{Enter}');
    expect(within(row('sales')).getByText('A category named “Marketing” already exists.')).toBeInTheDocument();
    await userEvent.clear(within(row('sales')).getByLabelText('New name for Sales'));
    await userEvent.keyboard('Sales & deals{Enter}');
    await waitFor(() => expect(names()).toEqual(['Marketing', 'Sales & deals', 'Empty shelf']));
    expect(api.callsTo('PATCH', '/api/v1/admin/categories/sales')[0].body).toEqual({ name: 'Sales & deals' });
  });

  it('asks before deleting an empty category', async () => {
    const state = open();
    await waitFor(() => expect(names()).toHaveLength(3));
    await userEvent.click(within(row('empty')).getByRole('button', { name: 'Delete Empty shelf' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete “Empty shelf”?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('DELETE', '/api/v1/admin/categories/empty')).toHaveLength(0);
    await userEvent.click(within(row('empty')).getByRole('button', { name: 'Delete Empty shelf' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Delete “Empty shelf”?' })).getByRole('button', { name: 'Delete category' }));
    await waitFor(() => expect(names()).toEqual(['Marketing', 'Sales']));
    expect(state.categories.map((c) => c.id)).toEqual(['marketing', 'sales']);
  });

  it("shows the API's 409 when a prompt moved in meanwhile, and keeps the category", async () => {
    const state = open();
    await waitFor(() => expect(names()).toHaveLength(3));
    await userEvent.click(within(row('empty')).getByRole('button', { name: 'Delete Empty shelf' }));
    state.prompts.push(prompt({ id: 'p9', category_id: 'empty' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete “Empty shelf”?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete category' }));
    expect(await within(dialog).findByTestId('confirm-error')).toHaveTextContent('"Empty shelf" has 1 prompts; move them to another category first.');
    expect(state.categories).toHaveLength(3);
  });
});
