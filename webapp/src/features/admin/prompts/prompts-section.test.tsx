import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FakeHandler } from '../../../test/fake-api';
import { setUpPageTests } from '../../../test/page-tests';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { renderApp } from '../../../test/render-app';
import { ADA, startSignedIn } from '../../../test/session';
import { fakeAdminApi, prompt, type AdminSeed } from '../test-fixtures';

const api = setUpPageTests();
const ADMIN = { ...ADA, is_admin: true };

beforeAll(async () => {
  await import('../components/admin-page');
}, 60_000);

const COLD = prompt({
  id: 'p1',
  title: 'Cold email',
  category_id: 'sales',
  category_name: 'Sales',
  price: 12.5,
  published: true,
  featured: true,
  stats: { free_uses: 4, purchases: 3, revenue: 37.5, rating_avg: 4.333, rating_count: 3 },
});
const DRAFT = prompt({ id: 'p2', title: 'Blog outline', published: false, description: 'Long-form plans' });

/** The page on the fake API; `before` changes routes before the first request. */
function open(seed: AdminSeed = { prompts: [COLD, DRAFT] }, before?: () => void) {
  startSignedIn(ADMIN);
  const state = fakeAdminApi(api, seed);
  before?.();
  renderApp('/admin/prompts');
  return state;
}

const row = (id: string) => {
  const el = document.querySelector<HTMLElement>(`[data-testid="prompt-row"][data-prompt-id="${id}"]`);
  if (!el) throw new Error(`no row ${id}`);
  return el;
};
const findRow = async (id: string) => {
  await waitFor(() => row(id));
  return row(id);
};
const rowIds = () => screen.queryAllByTestId('prompt-row').map((r) => r.getAttribute('data-prompt-id'));
const listCalls = () => api.callsTo('GET', '/api/v1/admin/prompts');
const editor = (name: string) => screen.getByRole('dialog', { name });

describe('prompts: the table', () => {
  it('lists every prompt, unpublished too, with its stats', async () => {
    open();
    const cold = await findRow('p1');
    const cells = within(cold).getAllByRole('cell').map((c) => c.textContent);
    expect(cells.slice(0, 8)).toEqual(['Cold email Featured', 'Sales', '$12.50', 'Published', '4', '3', '$37.50', '4.3 (3)']);
    expect(within(row('p2')).getByTestId('prompt-state')).toHaveTextContent('Unpublished');
    expect(within(row('p2')).getAllByRole('cell')[7]).toHaveTextContent('No ratings');
    expect(screen.getByTestId('prompts-table-count')).toHaveTextContent('Showing 2 of 2 prompts');
    expect(screen.getByRole('table', { name: 'Prompts' })).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Title', 'Category', 'Price', 'State', 'Free uses', 'Purchases', 'Revenue', 'Rating', 'Actions']);
    expect(listCalls()[0].search).toBe('?state=all&limit=25');
  });

  it('filters by search text, category and state, as the API is asked', async () => {
    open();
    await findRow('p1');
    const filters = screen.getByRole('search', { name: 'Filter prompts' });
    await userEvent.type(within(filters).getByLabelText('Search prompts'), 'long-form');
    await waitFor(() => expect(rowIds()).toEqual(['p2']));
    expect(listCalls().at(-1)!.search).toBe('?q=long-form&state=all&limit=25');

    await userEvent.clear(within(filters).getByLabelText('Search prompts'));
    await waitFor(() => expect(rowIds()).toEqual(['p1', 'p2']));
    await userEvent.selectOptions(within(filters).getByLabelText('Category'), 'Sales');
    await waitFor(() => expect(rowIds()).toEqual(['p1']));
    expect(listCalls().at(-1)!.search).toBe('?category=sales&state=all&limit=25');

    await userEvent.selectOptions(within(filters).getByLabelText('Category'), '');
    await userEvent.selectOptions(within(filters).getByLabelText('State'), 'Unpublished');
    await waitFor(() => expect(rowIds()).toEqual(['p2']));
    expect(listCalls().at(-1)!.search).toBe('?state=unpublished&limit=25');

    await userEvent.type(within(filters).getByLabelText('Search prompts'), 'zzz');
    expect(await screen.findByTestId('empty-state')).toHaveTextContent('No prompt matches these filters.');
  });

  it('pages with Load more, asking for the next page by its cursor', async () => {
    open({ prompts: Array.from({ length: 30 }, (_, i) => prompt({ id: `p${String(i).padStart(2, '0')}` })) });
    await findRow('p00');
    expect(rowIds()).toHaveLength(25);
    expect(screen.getByTestId('prompts-table-count')).toHaveTextContent('Showing 25 of 30 prompts');
    await userEvent.click(screen.getByRole('button', { name: 'Load more prompts' }));
    await waitFor(() => expect(rowIds()).toHaveLength(30));
    expect(screen.getByTestId('prompts-table-count')).toHaveTextContent('Showing 30 of 30 prompts');
    expect(listCalls().map((c) => c.search)).toEqual(['?state=all&limit=25', '?state=all&limit=25&cursor=25']);
    expect(screen.queryByRole('button', { name: 'Load more prompts' })).toBeNull();
  });

  it('says why the list failed and reads it again on Retry', async () => {
    let ok: FakeHandler | undefined;
    open(undefined, () => {
      ok = api.handlerFor('GET /api/v1/admin/prompts');
      api.route('GET /api/v1/admin/prompts', () => jsonResponse(500, { detail: 'The catalogue is unavailable.', code: 'internal' }));
    });
    const alert = await screen.findByTestId('prompts-table-error');
    expect(alert).toHaveTextContent('Could not load the prompts.');
    expect(alert).toHaveTextContent('The catalogue is unavailable.');
    api.route('GET /api/v1/admin/prompts', ok!);
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await findRow('p1')).toBeInTheDocument();
  });

  it('says when there are no prompts yet', async () => {
    open({ prompts: [] });
    expect(await screen.findByTestId('empty-state')).toHaveTextContent('No prompts yet.');
  });
});

describe('prompts: create and edit', () => {
  it('checks every field as the API does, one message per field, and sends nothing until they pass', async () => {
    const state = open();
    await findRow('p1');
    await userEvent.click(screen.getByRole('button', { name: 'New prompt' }));
    const dialog = editor('New prompt');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create prompt' }));
    expect(within(dialog).getByText('Title is required.')).toBeInTheDocument();
    expect(within(dialog).getByText('Content is required.')).toBeInTheDocument();
    expect(within(dialog).getByText('Price is required.')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose a category.')).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByLabelText('Title')).toHaveFocus());
    expect(within(dialog).getByLabelText('Title')).toHaveAttribute('aria-invalid', 'true');

    const price = within(dialog).getByLabelText('Price (USD)');
    for (const [typed, message] of [
      ['9.999', 'The price can have at most 2 decimals.'],
      ['0', 'The price must be more than $0.'],
      ['1000', 'The price can be at most $999.99.'],
      ['ten', 'Enter the price in USD as a number, like 9.99.'],
    ]) {
      await userEvent.clear(price);
      await userEvent.type(price, typed);
      expect(within(dialog).getByText(message)).toBeInTheDocument();
    }

    await userEvent.type(within(dialog).getByLabelText('Title'), '   ');
    expect(within(dialog).getByText('Title is required.')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Title'), 'x'.repeat(201));
    expect(within(dialog).getByText('Title must be at most 200 characters (now 201).')).toBeInTheDocument();

    // 100 KB of content: twice what the API takes.
    await userEvent.click(within(dialog).getByLabelText('Content'));
    await userEvent.paste('y'.repeat(100_000));
    expect(within(dialog).getByText('Content must be at most 50,000 characters (now 100,000).')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create prompt' }));
    expect(api.callsTo('POST', '/api/v1/admin/prompts')).toHaveLength(0);
    expect(state.prompts).toHaveLength(2);
  });

  it('creates a valid prompt with exactly the fields of the contract, then lists it', async () => {
    const state = open();
    await findRow('p1');
    await userEvent.click(screen.getByRole('button', { name: 'New prompt' }));
    const dialog = editor('New prompt');
    await userEvent.type(within(dialog).getByLabelText('Title'), '  Launch plan ');
    await userEvent.type(within(dialog).getByLabelText('Description'), 'A week of posts');
    await userEvent.type(within(dialog).getByLabelText('Content'), 'Plan a launch for [[PRODUCT].');
    await userEvent.type(within(dialog).getByLabelText('Price (USD)'), '19.9');
    await userEvent.selectOptions(within(dialog).getByLabelText('Category'), 'Marketing');
    await userEvent.click(within(dialog).getByLabelText('Published'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create prompt' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New prompt' })).toBeNull());
    expect(api.callsTo('POST', '/api/v1/admin/prompts')[0].body).toEqual({
      title: 'Launch plan',
      description: 'A week of posts',
      content: 'Plan a launch for [PRODUCT].',
      price: 19.9,
      category_id: 'marketing',
      featured: false,
      published: true,
    });
    expect(screen.getByTestId('toasts')).toHaveTextContent('Created “Launch plan”.');
    const added = await findRow(state.prompts[0].id);
    expect(added).toHaveTextContent('Launch plan');
    expect(added).toHaveTextContent('$19.90');
  });

  it("shows the API's detail when it refuses the prompt, and keeps what was typed", async () => {
    open();
    await findRow('p1');
    api.route('POST /api/v1/admin/prompts', () => jsonResponse(400, { detail: 'category "marketing" does not exist', code: 'invalid' }));
    await userEvent.click(screen.getByRole('button', { name: 'New prompt' }));
    const dialog = editor('New prompt');
    await userEvent.type(within(dialog).getByLabelText('Title'), 'Launch plan');
    await userEvent.type(within(dialog).getByLabelText('Content'), 'Plan it.');
    await userEvent.type(within(dialog).getByLabelText('Price (USD)'), '5');
    await userEvent.selectOptions(within(dialog).getByLabelText('Category'), 'Marketing');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create prompt' }));
    expect(await within(dialog).findByTestId('prompt-save-error')).toHaveTextContent('category "marketing" does not exist');
    expect(within(dialog).getByLabelText('Title')).toHaveValue('Launch plan');
  });

  it('edits with the version it read, sending only what changed', async () => {
    const state = open();
    await userEvent.click(within(await findRow('p1')).getByRole('button', { name: 'Edit Cold email' }));
    const dialog = editor('Edit “Cold email”');
    expect(within(dialog).getByLabelText('Title')).toHaveValue('Cold email');
    expect(within(dialog).getByLabelText('Price (USD)')).toHaveValue('12.50');
    expect(within(dialog).getByLabelText('Category')).toHaveValue('sales');
    expect(within(dialog).getByLabelText('Featured')).toBeChecked();
    await userEvent.clear(within(dialog).getByLabelText('Price (USD)'));
    await userEvent.type(within(dialog).getByLabelText('Price (USD)'), '14');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('PATCH', '/api/v1/admin/prompts/p1')[0].body).toEqual({ version: 1, price: 14 });
    await waitFor(() => expect(row('p1')).toHaveTextContent('$14.00'));
    expect(state.prompts[0].version).toBe(2);
  });

  it('on a 409 shows "changed by someone else" with the current values, and saves again once they are loaded', async () => {
    const state = open();
    await userEvent.click(within(await findRow('p1')).getByRole('button', { name: 'Edit Cold email' }));
    // Another admin saves first.
    Object.assign(state.prompts[0], { title: 'Cold email v2', price: 15, version: 2 });
    const dialog = editor('Edit “Cold email”');
    await userEvent.clear(within(dialog).getByLabelText('Description'));
    await userEvent.type(within(dialog).getByLabelText('Description'), 'Mine');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));

    const conflict = await within(dialog).findByTestId('conflict');
    expect(conflict).toHaveTextContent('Changed by someone else');
    expect(conflict).toHaveTextContent('This prompt changed since you opened it');
    const current = within(conflict).getByTestId('conflict-current');
    expect(current).toHaveTextContent('TitleCold email v2');
    expect(current).toHaveTextContent('Price$15.00');
    expect(screen.queryByRole('dialog', { name: 'Edit “Cold email”' })).toBeInTheDocument();

    await userEvent.click(within(conflict).getByRole('button', { name: 'Load the current values' }));
    expect(within(dialog).queryByTestId('conflict')).toBeNull();
    expect(within(dialog).getByLabelText('Title')).toHaveValue('Cold email v2');
    expect(within(dialog).getByLabelText('Price (USD)')).toHaveValue('15.00');
    await userEvent.clear(within(dialog).getByLabelText('Description'));
    await userEvent.type(within(dialog).getByLabelText('Description'), 'Mine again');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const patches = api.callsTo('PATCH', '/api/v1/admin/prompts/p1');
    expect(patches.map((c) => c.body)).toEqual([
      { version: 1, description: 'Mine' },
      { version: 2, description: 'Mine again' },
    ]);
    expect(state.prompts[0]).toMatchObject({ title: 'Cold email v2', description: 'Mine again', version: 3 });
  });

  it("previews the content live, with its menu template as the chat's form", async () => {
    open();
    await findRow('p1');
    await userEvent.click(screen.getByRole('button', { name: 'New prompt' }));
    const dialog = editor('New prompt');
    const preview = within(dialog).getByTestId('prompt-preview');
    expect(preview).toHaveTextContent('The content appears here as you type.');
    const content = within(dialog).getByLabelText('Content');
    await userEvent.click(content);
    await userEvent.paste('Write a post.\n[start menu]\nd {tone} Tone\n- Friendly\n- Formal\nn {words} [50-300] Length\n');
    expect(within(preview).getByTestId('menu-unclosed')).toHaveTextContent('[start menu] has no [end menu]');
    await userEvent.paste('[end menu]\nThanks!');
    const menu = await within(preview).findByTestId('menu-preview');
    expect(menu).toHaveTextContent('The chat asks for 2 values before sending:');
    expect(within(menu).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Tone (pick one: Friendly, Formal)', 'Length (number 50–300)']);
    expect(preview).toHaveTextContent('Write a post.');
    expect(preview).toHaveTextContent('Thanks!');
    expect(within(preview).queryByTestId('menu-unclosed')).toBeNull();
  });

  it('Escape closes the editor and returns focus to the button that opened it', async () => {
    open();
    await findRow('p1');
    const newButton = screen.getByRole('button', { name: 'New prompt' });
    await userEvent.click(newButton);
    expect(editor('New prompt')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(newButton).toHaveFocus();
  });
});

describe('prompts: publish and delete', () => {
  it('unpublishes and publishes with the version read', async () => {
    const state = open();
    await userEvent.click(within(await findRow('p1')).getByRole('button', { name: 'Unpublish Cold email' }));
    await waitFor(() => expect(within(row('p1')).getByTestId('prompt-state')).toHaveTextContent('Unpublished'));
    expect(api.callsTo('PATCH', '/api/v1/admin/prompts/p1')[0].body).toEqual({ version: 1, published: false });
    expect(screen.getByTestId('toasts')).toHaveTextContent('Unpublished “Cold email”.');
    await userEvent.click(within(row('p1')).getByRole('button', { name: 'Publish Cold email' }));
    await waitFor(() => expect(within(row('p1')).getByTestId('prompt-state')).toHaveTextContent('Published'));
    expect(api.callsTo('PATCH', '/api/v1/admin/prompts/p1')[1].body).toEqual({ version: 2, published: true });
    expect(state.prompts[0].published).toBe(true);
  });

  it('asks before deleting: Cancel and Escape send nothing, Delete removes it', async () => {
    const state = open();
    await userEvent.click(within(await findRow('p2')).getByRole('button', { name: 'Delete Blog outline' }));
    let dialog = screen.getByRole('dialog', { name: 'Delete “Blog outline”?' });
    expect(dialog).toHaveAccessibleDescription(/removed for good/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await userEvent.click(within(row('p2')).getByRole('button', { name: 'Delete Blog outline' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.callsTo('DELETE', '/api/v1/admin/prompts/p2')).toHaveLength(0);

    await userEvent.click(within(row('p2')).getByRole('button', { name: 'Delete Blog outline' }));
    dialog = screen.getByRole('dialog', { name: 'Delete “Blog outline”?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete prompt' }));
    await waitFor(() => expect(rowIds()).toEqual(['p1']));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.callsTo('DELETE', '/api/v1/admin/prompts/p2')[0].search).toBe('?version=1');
    expect(state.prompts.map((p) => p.id)).toEqual(['p1']);
  });

  it("shows the API's 409 detail when somebody owns the prompt, and keeps it", async () => {
    open();
    await userEvent.click(within(await findRow('p1')).getByRole('button', { name: 'Delete Cold email' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete “Cold email”?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete prompt' }));
    expect(await within(dialog).findByTestId('confirm-error')).toHaveTextContent('cannot be deleted: unpublish it instead');
    expect(rowIds()).toEqual(['p1', 'p2']);
  });
});
