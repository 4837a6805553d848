import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { browserLocation } from '../../../lib/browser-location';
import { creatorProfile, creatorPrompt, fakeCreatorsApi, type CreatorsState } from '../../../test/fake-creators-api';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { setUpPageTests } from '../../../test/page-tests';
import { renderApp } from '../../../test/render-app';
import { startSignedIn, startSignedOut } from '../../../test/session';

const api = setUpPageTests();

const studio = (path = '/creator', initial: Partial<CreatorsState> = {}) => {
  startSignedIn();
  const state = fakeCreatorsApi(api, initial);
  renderApp(path);
  return state;
};
const asCreator = (extra: Partial<CreatorsState> = {}, path = '/creator') => studio(path, { profile: creatorProfile(), ...extra });
const section = async (name: string) => (await screen.findByRole('heading', { level: 2, name })).closest('section') as HTMLElement;
const row = async (title: string) => screen.findByRole('listitem', { name: title });
const form = () => screen.getByTestId('creator-prompt-form');
const type = async (label: string, text: string, within_: HTMLElement = form()) => {
  const field = within(within_).getByLabelText(label, { exact: false });
  await userEvent.clear(field);
  if (text) {
    await userEvent.click(field);
    await userEvent.paste(text);
  }
};

describe('the creator studio: becoming a creator', () => {
  it('sends a visitor to sign in', async () => {
    startSignedOut();
    renderApp('/creator');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login?redirect=%2Fcreator'));
  });

  it('explains selling before the first save, checks the fields, and saves the profile', async () => {
    const state = studio();
    expect(await screen.findByRole('heading', { level: 1, name: 'Creator studio' })).toBeInTheDocument();
    const profile = await section('Become a creator');
    // No fee from the API before one is a creator: no number is made up.
    expect(profile).toHaveTextContent('the platform keeps a fee from each sale and the rest is yours');
    expect(screen.queryByRole('heading', { name: 'Your prompts' })).toBeNull();

    await userEvent.click(within(profile).getByRole('button', { name: 'Sell your prompts' }));
    expect(within(profile).getByText('Display name is required.')).toBeInTheDocument();
    expect(within(profile).getByText('Choose your country.')).toBeInTheDocument();
    expect(within(profile).getByLabelText('Display name', { exact: false })).toHaveFocus();
    expect(api.callsTo('PUT', '/api/v1/creators/me')).toHaveLength(0);

    await type('Display name', 'x'.repeat(61), profile);
    await userEvent.click(within(profile).getByRole('button', { name: 'Sell your prompts' }));
    expect(within(profile).getByText('Display name must be at most 60 characters (now 61).')).toBeInTheDocument();

    await type('Display name', ' Ada L. ', profile);
    await type('Bio', 'Prompts for sales teams.', profile);
    await userEvent.selectOptions(within(profile).getByLabelText('Country', { exact: false }), 'Germany');
    await userEvent.click(within(profile).getByRole('button', { name: 'Sell your prompts' }));

    expect(await section('Payouts')).toBeInTheDocument();
    expect(api.callsTo('PUT', '/api/v1/creators/me')[0].body).toEqual({ display_name: 'Ada L.', bio: 'Prompts for sales teams.', country: 'DE' });
    expect(state.profile?.country).toBe('DE');
    const saved = await section('Profile');
    expect(within(saved).getByRole('button', { name: 'Save profile' })).toBeInTheDocument();
    expect(screen.getByTestId('payout-status')).toHaveTextContent('Not set up');
    expect(await screen.findByRole('heading', { level: 2, name: 'Your prompts' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: 'Sales' })).toBeInTheDocument();
  });

  it('shows the API’s refusal beside the field it names', async () => {
    asCreator();
    const profile = await section('Profile');
    api.route('PUT /api/v1/creators/me', () => jsonResponse(400, { detail: 'Bio must be at most 500 characters.', code: 'invalid' }));
    await userEvent.click(within(profile).getByRole('button', { name: 'Save profile' }));
    const bio = within(profile).getByLabelText('Bio', { exact: false });
    await waitFor(() => expect(bio).toHaveAttribute('aria-invalid', 'true'));
    expect(within(profile).getByText('Bio must be at most 500 characters.')).toBeInTheDocument();
    expect(bio).toHaveFocus();
    expect(screen.queryByTestId('profile-save-error')).toBeNull();
  });
});

describe('the creator studio: payouts', () => {
  it.each([
    ['none', 'Not set up', true],
    ['details_needed', 'Details needed', true],
    ['pending', 'Pending', true],
    ['enabled', 'Enabled', false],
  ] as const)('says %s as "%s"', async (status, words, offersSetUp) => {
    asCreator({ profile: creatorProfile({ payouts: { status, charges_enabled: status === 'enabled', payouts_enabled: status === 'enabled' } }) });
    expect(await screen.findByTestId('payout-status')).toHaveTextContent(words);
    const payouts = await section('Payouts');
    expect(within(payouts).queryByRole('button', { name: 'Set up payouts' }) !== null).toBe(offersSetUp);
  });

  it('Set up payouts goes to Stripe’s onboarding page', async () => {
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    asCreator();
    const payouts = await section('Payouts');
    await userEvent.click(within(payouts).getByRole('button', { name: 'Set up payouts' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://connect.stripe.test/setup/acct_1'));
    expect(api.callsTo('POST', '/api/v1/creators/me/onboarding')).toHaveLength(1);
  });

  it('shows why onboarding failed, and stays', async () => {
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    asCreator();
    api.route('POST /api/v1/creators/me/onboarding', () => jsonResponse(503, { detail: 'Payouts are not available here yet.' }));
    const payouts = await section('Payouts');
    await userEvent.click(within(payouts).getByRole('button', { name: 'Set up payouts' }));
    expect(await within(payouts).findByTestId('payouts-error')).toHaveTextContent('Payouts are not available here yet.');
    expect(assign).not.toHaveBeenCalled();
    expect(within(payouts).getByRole('button', { name: 'Set up payouts' })).toBeEnabled();
  });

  it('back from Stripe (?payouts=done), reads the status again and links to the Stripe dashboard', async () => {
    asCreator(
      {
        profile: creatorProfile({ payouts: { status: 'enabled', charges_enabled: true, payouts_enabled: true } }),
        dashboard: { sales: 0, gross: 0, fees: 0, net: 0, refunds: 0, prompts: [], login_url: 'https://connect.stripe.test/express/login' },
      },
      '/creator?payouts=done',
    );
    expect(await screen.findByTestId('payouts-returned')).toHaveTextContent('payouts are enabled');
    expect(screen.getByTestId('payout-status')).toHaveTextContent('Enabled');
    expect(await screen.findByRole('link', { name: 'Open Stripe dashboard' })).toHaveAttribute('href', 'https://connect.stripe.test/express/login');
    // Read on arrival and once more because the creator came back from Stripe.
    await waitFor(() => expect(api.callsTo('GET', '/api/v1/creators/me').length).toBeGreaterThanOrEqual(2));
    expect(screen.queryByRole('button', { name: 'Set up payouts' })).toBeNull();
  });

  it('an expired link (?payouts=refresh) says so and offers the button again', async () => {
    asCreator({ profile: creatorProfile({ payouts: { status: 'details_needed', charges_enabled: false, payouts_enabled: false } }) }, '/creator?payouts=refresh');
    expect(await screen.findByTestId('payouts-expired')).toHaveTextContent('The set-up link expired.');
    expect(screen.getByRole('button', { name: 'Set up payouts' })).toBeInTheDocument();
  });
});

describe('the creator studio: prompts', () => {
  it('lists each prompt with its state, the admin’s reason, a next version and its counts', async () => {
    asCreator({
      prompts: [
        creatorPrompt({ id: 'a', title: 'Draft one' }),
        creatorPrompt({ id: 'b', title: 'Waiting one', state: 'in_review' }),
        creatorPrompt({ id: 'c', title: 'Turned down', state: 'rejected', review_reason: 'The content is too short.' }),
        creatorPrompt({
          id: 'd',
          title: 'Best seller',
          state: 'published',
          purchases: 3,
          free_uses: 1,
          rating_avg: 4.5,
          rating_count: 2,
          pending: { title: 'Best seller', description: '', content: 'New text', price: 12, category_id: 'sales', change_note: 'Shorter', state: 'rejected', review_reason: 'Typo in line 2.' },
        }),
      ],
    });
    expect(within(await row('Draft one')).getByTestId('prompt-state')).toHaveTextContent('Draft');
    const waiting = await row('Waiting one');
    expect(within(waiting).getByTestId('prompt-state')).toHaveTextContent('In review');
    // In review: nothing to edit or submit until an admin decides.
    expect(within(waiting).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(waiting).queryByRole('button', { name: 'Submit for review' })).toBeNull();
    expect(within(await row('Turned down')).getByTestId('prompt-state')).toHaveTextContent('Rejected: The content is too short.');
    const best = await row('Best seller');
    expect(within(best).getByTestId('prompt-state')).toHaveTextContent('Published');
    expect(within(best).getByTestId('prompt-next-version')).toHaveTextContent('Next version: Rejected: Typo in line 2.');
    expect(best).toHaveTextContent('3 purchases · 1 free use · rated 4.5 (2)');
    expect(within(best).getByRole('button', { name: 'Submit for review' })).toBeInTheDocument();
  });

  it('New prompt: checks the fields, previews the content, saves a draft, and submits it', async () => {
    const state = asCreator();
    const prompts = await section('Your prompts');
    await screen.findByText(/No prompts yet/);
    await userEvent.click(within(prompts).getByRole('button', { name: 'New prompt' }));
    expect(within(form()).getByRole('heading', { name: 'New prompt' })).toBeInTheDocument();
    expect(within(form()).queryByLabelText('What changed', { exact: false })).toBeNull();

    await userEvent.click(within(form()).getByRole('button', { name: 'Save draft' }));
    expect(within(form()).getByText('Title is required.')).toBeInTheDocument();
    expect(within(form()).getByText('Content is required.')).toBeInTheDocument();
    expect(within(form()).getByText('Price is required.')).toBeInTheDocument();
    expect(within(form()).getByText('Choose a category.')).toBeInTheDocument();
    expect(within(form()).getByLabelText('Title', { exact: false })).toHaveFocus();

    await type('Title', 'Cold email');
    await type('Description', 'Writes a cold email.');
    await type('Content', 'Write to [name].\n[start menu]\nd {tone} Tone\n- Friendly\n- Formal\n[end menu]');
    expect(await within(form()).findByTestId('menu-preview')).toHaveTextContent('The chat asks for 1 value before sending:');
    await type('Price', '9.999');
    await userEvent.selectOptions(within(form()).getByLabelText('Category', { exact: false }), 'Sales');
    await userEvent.click(within(form()).getByRole('button', { name: 'Save draft' }));
    expect(within(form()).getByText('The price can have at most 2 decimals.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/v1/creators/me/prompts')).toHaveLength(0);

    await type('Price', '9.5');
    await userEvent.click(within(form()).getByRole('button', { name: 'Save draft' }));
    const saved = await row('Cold email');
    expect(within(saved).getByTestId('prompt-state')).toHaveTextContent('Draft');
    expect(screen.queryByTestId('creator-prompt-form')).toBeNull();
    expect(api.callsTo('POST', '/api/v1/creators/me/prompts')[0].body).toEqual({
      title: 'Cold email',
      description: 'Writes a cold email.',
      content: 'Write to [name].\n[start menu]\nd {tone} Tone\n- Friendly\n- Formal\n[end menu]',
      price: 9.5,
      category_id: 'sales',
    });

    await userEvent.click(within(saved).getByRole('button', { name: 'Submit for review' }));
    await waitFor(() => expect(within(saved).getByTestId('prompt-state')).toHaveTextContent('In review'));
    expect(state.prompts[0].state).toBe('in_review');
  });

  it('Submit for review in the form saves, then submits', async () => {
    const state = asCreator();
    await userEvent.click(await screen.findByRole('button', { name: 'New prompt' }));
    await type('Title', 'Launch post');
    await type('Content', 'Announce [product].');
    await type('Price', '3');
    await userEvent.selectOptions(within(form()).getByLabelText('Category', { exact: false }), 'Writing');
    await userEvent.click(within(form()).getByRole('button', { name: 'Submit for review' }));
    const r = await row('Launch post');
    await waitFor(() => expect(within(r).getByTestId('prompt-state')).toHaveTextContent('In review'));
    expect(state.prompts[0]).toMatchObject({ title: 'Launch post', state: 'in_review' });
    const id = state.prompts[0].id;
    expect(api.callsTo('POST', `/api/v1/creators/me/prompts/${id}/submit`)).toHaveLength(1);
  });

  it('shows the API’s rule refusal beside the field it names', async () => {
    asCreator();
    await userEvent.click(await screen.findByRole('button', { name: 'New prompt' }));
    api.route('POST /api/v1/creators/me/prompts', () => jsonResponse(400, { detail: 'category "sales" does not exist', code: 'invalid' }));
    await type('Title', 'T');
    await type('Content', 'C');
    await type('Price', '1');
    await userEvent.selectOptions(within(form()).getByLabelText('Category', { exact: false }), 'Sales');
    await userEvent.click(within(form()).getByRole('button', { name: 'Save draft' }));
    const category = within(form()).getByLabelText('Category', { exact: false });
    await waitFor(() => expect(category).toHaveAttribute('aria-invalid', 'true'));
    expect(within(form()).getByText('category "sales" does not exist')).toBeInTheDocument();
    expect(screen.queryByTestId('prompt-save-error')).toBeNull();
  });

  it('a stale edit (409) shows the prompt as it now is and keeps the text typed; the next save goes over it', async () => {
    const state = asCreator({ prompts: [creatorPrompt({ id: 'p-1', title: 'Cold email', version: 1 })] });
    await userEvent.click(within(await row('Cold email')).getByRole('button', { name: 'Edit' }));
    expect(within(form()).getByLabelText('Title', { exact: false })).toHaveValue('Cold email');
    // Meanwhile, in another tab:
    state.prompts = [creatorPrompt({ id: 'p-1', title: 'Cold email (other tab)', price: 4, version: 2 })];
    await type('Title', 'Cold email, warmer');
    await type('Content', 'My new text for [name].');
    await userEvent.click(within(form()).getByRole('button', { name: 'Save draft' }));

    const conflict = await within(form()).findByTestId('prompt-conflict');
    expect(conflict).toHaveTextContent('Cold email (other tab)');
    expect(conflict).toHaveTextContent('$4.00');
    expect(within(form()).getByLabelText('Title', { exact: false })).toHaveValue('Cold email, warmer');
    expect(within(form()).getByLabelText('Content', { exact: false })).toHaveValue('My new text for [name].');
    // The list shows the prompt as it now is.
    expect(await row('Cold email (other tab)')).toBeInTheDocument();

    await userEvent.click(within(form()).getByRole('button', { name: 'Save draft' }));
    expect(await row('Cold email, warmer')).toBeInTheDocument();
    const patches = api.callsTo('PATCH', '/api/v1/creators/me/prompts/p-1');
    expect(patches.map((c) => (c.body as { version: number }).version)).toEqual([1, 2]);
    expect(state.prompts[0]).toMatchObject({ title: 'Cold email, warmer', content: 'My new text for [name].', version: 3 });
  });

  it('an edit of a published prompt needs What changed, and leaves the live version on sale', async () => {
    const state = asCreator({ prompts: [creatorPrompt({ id: 'p-1', title: 'Best seller', state: 'published', version: 4, published_versions: 1 })] });
    await userEvent.click(within(await row('Best seller')).getByRole('button', { name: 'Edit' }));
    expect(within(form()).getByTestId('next-version-note')).toHaveTextContent('the live version stays on sale until the new one is approved');
    await type('Content', 'A better text for [name].');
    await userEvent.click(within(form()).getByRole('button', { name: 'Save draft' }));
    const note = within(form()).getByLabelText('What changed', { exact: false });
    expect(within(form()).getByText('Say what changed, for your buyers.')).toBeInTheDocument();
    expect(note).toHaveFocus();
    expect(api.callsTo('PATCH', '/api/v1/creators/me/prompts/p-1')).toHaveLength(0);

    await type('What changed', 'x'.repeat(301));
    await userEvent.click(within(form()).getByRole('button', { name: 'Save draft' }));
    expect(within(form()).getByText('What changed must be at most 300 characters (now 301).')).toBeInTheDocument();

    await type('What changed', 'Clearer wording.');
    await userEvent.click(within(form()).getByRole('button', { name: 'Save draft' }));
    const r = await row('Best seller');
    await waitFor(() => expect(within(r).getByTestId('prompt-next-version')).toHaveTextContent('Next version: Draft'));
    expect(within(r).getByTestId('prompt-state')).toHaveTextContent('Published');
    expect(api.callsTo('PATCH', '/api/v1/creators/me/prompts/p-1')[0].body).toMatchObject({ version: 4, change_note: 'Clearer wording.', content: 'A better text for [name].' });
    expect(state.prompts[0].content).toBe('Write a cold email to [name].');
  });

  it('Delete asks first, then deletes', async () => {
    const state = asCreator({ prompts: [creatorPrompt({ id: 'p-1', title: 'Old idea', version: 2 })] });
    const r = await row('Old idea');
    await userEvent.click(within(r).getByRole('button', { name: 'Delete' }));
    const confirm = within(r).getByRole('group', { name: 'Delete Old idea?' });
    expect(within(confirm).getByRole('button', { name: 'Delete' })).toHaveFocus();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Keep it' }));
    expect(state.prompts).toHaveLength(1);
    expect(within(r).getByRole('button', { name: 'Delete' })).toHaveFocus();

    await userEvent.click(within(r).getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(within(r).getByRole('group')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Old idea' })).toBeNull());
    expect(api.callsTo('DELETE', '/api/v1/creators/me/prompts/p-1')[0].search).toBe('?version=2');
    expect(state.prompts).toHaveLength(0);
  });
});

describe('the creator studio: sales', () => {
  it('shows the totals, each prompt, and Stripe’s balance', async () => {
    asCreator({
      dashboard: {
        sales: 3,
        gross: 29.97,
        fees: 6,
        net: 23.97,
        refunds: 9.99,
        prompts: [{ id: 'p-1', title: 'Cold email', sales: 3, net: 23.97, free_uses: 2, rating_avg: 4.5 }],
        balance: { currency: 'usd', available: 12.5, pending: 3 },
      },
    });
    const sales = await section('Sales');
    const totals = await within(sales).findByTestId('sales-totals');
    expect(totals).toHaveTextContent('Sales3');
    expect(totals).toHaveTextContent('Gross$29.97');
    expect(totals).toHaveTextContent('Fees$6.00');
    expect(totals).toHaveTextContent('Net$23.97');
    expect(totals).toHaveTextContent('Refunds$9.99');
    const line = within(sales).getByRole('row', { name: /Cold email/ });
    expect(within(line).getAllByRole('cell').map((c) => c.textContent)).toEqual(['3', '$23.97', '2', '4.5']);
    expect(within(sales).getByTestId('creator-balance')).toHaveTextContent('Stripe balance: $12.50 available, $3.00 pending.');
  });

  it('shows the sales of each agent beside the prompts’', async () => {
    asCreator({
      dashboard: {
        sales: 4,
        gross: 34.97,
        fees: 7,
        net: 27.97,
        refunds: 0,
        prompts: [{ id: 'p-1', title: 'Cold email', sales: 3, net: 23.97, free_uses: 0, rating_avg: 0 }],
        agents: [
          { id: 'a-1', name: 'Sales coach', sales: 1, net: 4 },
          { id: 'a-2', name: 'Unsold', sales: 0, net: 0 },
        ],
      },
    });
    const sales = await section('Sales');
    const agents = await within(sales).findByRole('table', { name: 'Sales per agent' });
    expect(within(within(agents).getByRole('row', { name: /Sales coach/ })).getAllByRole('cell').map((c) => c.textContent)).toEqual(['1', '$4.00']);
    expect(within(agents).getByRole('row', { name: /Unsold/ })).toBeInTheDocument();
  });

  it('has no agents table while no agent sold', async () => {
    asCreator({ dashboard: { sales: 1, gross: 5, fees: 1, net: 4, refunds: 0, prompts: [], agents: [{ id: 'a-1', name: 'Coach', sales: 0, net: 0 }] } });
    const sales = await section('Sales');
    await within(sales).findByTestId('sales-totals');
    expect(within(sales).queryByRole('table', { name: 'Sales per agent' })).toBeNull();
  });

  it('says when there are no sales yet, and when Stripe’s balance is unavailable', async () => {
    asCreator({ dashboard: { sales: 0, gross: 0, fees: 0, net: 0, refunds: 0, prompts: [], balance_unavailable: true } });
    const sales = await section('Sales');
    expect(await within(sales).findByTestId('sales-empty')).toHaveTextContent('No sales yet.');
    expect(within(sales).queryByRole('table')).toBeNull();
    expect(within(sales).getByTestId('creator-balance')).toHaveTextContent('Balance unavailable');
  });
});
