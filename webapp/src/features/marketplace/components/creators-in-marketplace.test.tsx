// Creators on the marketplace: "by {creator}" on their cards and prompt
// page, the prompt page's "What changed" (earlier versions readable by a
// caller with access), and the public creator page /creators/{username}.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { deferred } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { setUpPageTests } from '../../../test/page-tests';
import { renderApp } from '../../../test/render-app';
import { startSignedIn, startSignedOut } from '../../../test/session';
import { browserLocation } from '../../../lib/browser-location';
import type { Prompt } from '../../../lib/api/types';

const api = setUpPageTests();

beforeAll(async () => {
  await import('./marketplace-page');
  await import('./creator-page');
}, 30_000);

const GRACE = { username: 'grace', display_name: 'Grace Hopper' };

function prompt(over: Partial<Prompt> & { id: string }): Prompt {
  return {
    title: `Prompt ${over.id}`,
    description: `About ${over.id}`,
    preview: `Preview of ${over.id}`,
    price: 9.99,
    rating_avg: 4,
    rating_count: 2,
    user_rating: null,
    is_purchased: false,
    category: { id: 'writing', name: 'Writing' },
    created_at: '2026-01-01T00:00:00Z',
    creator: null,
    ...over,
  };
}

const VERSIONS = [
  { number: 1, change_note: '', price: 4.99, published_at: '2026-02-01T12:00:00Z' },
  { number: 2, change_note: 'Adds a closing line.', price: 5.99, published_at: '2026-03-05T12:00:00Z' },
];

/** A catalogue of a creator's prompt (c1) and one of the platform's own (p1); `owned`: the caller bought c1. */
function serveCatalogue(owned: boolean) {
  const c1 = prompt({ id: 'c1', title: 'Cold outreach', creator: GRACE, price: 5.99, ...(owned ? { content: 'Version two text', is_purchased: true } : {}) });
  api.route('GET /api/v1/prompts/', () => jsonResponse(200, [c1, prompt({ id: 'p1', title: 'House prompt' })]));
  api.route('GET /api/v1/prompts/categories', () => jsonResponse(200, []));
  api.route('GET /api/v1/prompts/free-usage-status', () => jsonResponse(200, { remaining: 0, total_allowed: 5, used: 5, prompt_ids: [] }));
  api.route('GET /api/v1/payments/owned-prompts', () => jsonResponse(200, { owned_prompt_ids: owned ? ['c1'] : [] }));
  api.route('GET /api/v1/prompts/c1', () => jsonResponse(200, { ...c1, current_version: 2, versions: VERSIONS }));
}

const card = (id: string) => {
  const el = document.querySelector<HTMLElement>(`[data-testid="prompt-card"][data-prompt-id="${id}"]`);
  if (!el) throw new Error(`no card ${id}`);
  return el;
};
const findCard = async (id: string) => {
  await waitFor(() => card(id));
  return card(id);
};

describe('"by {creator}"', () => {
  it("links a creator's card to their page, and names nobody on the platform's own", async () => {
    startSignedOut();
    serveCatalogue(false);
    renderApp('/marketplace');
    const link = within(await findCard('c1')).getByRole('link', { name: 'by Grace Hopper' });
    expect(link).toHaveAttribute('href', '/creators/grace');
    expect(within(card('p1')).queryByRole('link', { name: /^by / })).toBeNull();
    expect(within(card('p1')).queryByTestId('creator-link')).toBeNull();

    // The prompt page names the creator too, and the link leads to their page.
    await userEvent.click(within(card('c1')).getByRole('button', { name: 'View' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cold outreach' });
    api.route('GET /api/v1/creators/grace', () => jsonResponse(200, { username: 'grace', display_name: 'Grace Hopper', bio: '', country: 'US', prompts: [] }));
    await userEvent.click(within(dialog).getByRole('link', { name: 'by Grace Hopper' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/creators/grace');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('the prompt page: What changed', () => {
  it('lists every version, newest first, with date, price and note, the current one marked; a visitor reads none', async () => {
    startSignedOut();
    serveCatalogue(false);
    renderApp('/marketplace');
    await userEvent.click(within(await findCard('c1')).getByRole('button', { name: 'View' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cold outreach' });
    const section = await within(dialog).findByRole('region', { name: 'What changed' });
    const entries = within(section).getAllByTestId('prompt-version');
    expect(entries.map((e) => e.getAttribute('data-version'))).toEqual(['2', '1']);
    expect(entries[0]).toHaveTextContent('Version 2Current');
    expect(entries[0]).toHaveTextContent('Mar 5, 2026 · $5.99');
    expect(entries[0]).toHaveTextContent('Adds a closing line.');
    expect(entries[0]).toHaveAttribute('aria-current', 'true');
    expect(entries[1]).toHaveTextContent('Version 1');
    expect(entries[1]).toHaveTextContent('Feb 1, 2026 · $4.99');
    expect(entries[1]).not.toHaveTextContent('Current');
    expect(within(section).queryByRole('button', { name: /Read version/ })).toBeNull();
  });

  it("has no such section on the platform's own prompts (and reads nothing more for them)", async () => {
    startSignedOut();
    serveCatalogue(false);
    renderApp('/marketplace');
    await userEvent.click(within(await findCard('p1')).getByRole('button', { name: 'View' }));
    const dialog = await screen.findByRole('dialog', { name: 'House prompt' });
    expect(within(dialog).queryByRole('region', { name: 'What changed' })).toBeNull();
    expect(api.callsTo('GET', '/api/v1/prompts/p1')).toHaveLength(0);
  });

  it('a buyer opens an earlier version in place: loading, then its text; a failure says so and retries', async () => {
    startSignedIn();
    serveCatalogue(true);
    const gate = deferred();
    let fail = true;
    api.route('GET /api/v1/prompts/c1/versions/1', async () => {
      await gate.promise;
      if (fail) return jsonResponse(500, { detail: 'The store is down.', code: 'internal' });
      return jsonResponse(200, { ...VERSIONS[0], title: 'Cold outreach', description: 'First', content: 'Version one [NAME] text' });
    });
    renderApp('/marketplace');
    await userEvent.click(within(await findCard('c1')).getByRole('button', { name: 'View Full' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cold outreach' });
    const section = await within(dialog).findByRole('region', { name: 'What changed' });
    // The current version is the one shown above: only earlier ones open.
    expect(within(section).queryByRole('button', { name: 'Read version 2' })).toBeNull();
    const read = within(section).getByRole('button', { name: 'Read version 1' });
    expect(read).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(read);
    expect(within(section).getByRole('status')).toHaveTextContent('Loading version 1…');
    gate.resolve();
    expect(await within(section).findByTestId('version-error')).toHaveTextContent('The store is down.');

    fail = false;
    await userEvent.click(within(section).getByRole('button', { name: 'Retry' }));
    const text = await within(section).findByRole('region', { name: 'Version 1 text' });
    expect(text).toHaveTextContent('Version one [NAME] text');
    expect(text.querySelector('mark')).toHaveTextContent('[NAME]');
    expect(within(section).getByRole('button', { name: 'Hide version 1' })).toHaveAttribute('aria-expanded', 'true');
    expect(api.callsTo('GET', '/api/v1/prompts/c1/versions/1').length).toBe(2);
    // The live version is still the one in the dialog's full prompt.
    expect(within(dialog).getByTestId('prompt-content')).toHaveTextContent('Version two text');
  });
});

const PROFILE = {
  username: 'grace',
  display_name: 'Grace Hopper',
  bio: 'Compilers, and prompts that explain them.',
  country: 'DE',
  prompts: [
    {
      id: 'c1',
      title: 'Cold outreach',
      description: 'Emails that get answers.',
      preview: 'Write to [NAME]',
      preview_truncated: true,
      price: 5.99,
      rating_avg: 4.5,
      rating_count: 2,
      category_id: 'writing',
      category_name: 'Writing',
      created_at: '2026-02-01T12:00:00Z',
    },
  ],
};

describe('the creator page', () => {
  it("shows the creator's name, bio, country and prompts as marketplace cards, with no sign-in", async () => {
    startSignedOut();
    api.route('GET /api/v1/creators/grace', () => jsonResponse(200, PROFILE));
    api.route('GET /api/v1/prompts/c1', () => jsonResponse(200, { ...prompt({ id: 'c1', title: 'Cold outreach', creator: GRACE }), current_version: 1, versions: [VERSIONS[0]] }));
    renderApp('/creators/grace');
    expect(await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/creators/grace');
    await waitFor(() => expect(document.title).toBe('Grace Hopper · AIWork'));
    expect(screen.getByText('Compilers, and prompts that explain them.')).toBeInTheDocument();
    expect(screen.getByText('Germany')).toBeInTheDocument();
    const c = await findCard('c1');
    expect(within(c).getByRole('heading', { name: 'Cold outreach' })).toBeInTheDocument();
    expect(within(c).getByText('$5.99')).toBeInTheDocument();
    expect(within(c).getByText('Writing')).toBeInTheDocument();
    expect(within(c).getByText('4.5 (2)')).toHaveAttribute('aria-label', 'Average rating 4.5 out of 5 from 2 ratings');
    expect(screen.getByTestId('prompt-count')).toHaveTextContent('1 prompts found');
    expect(api.callsTo('GET', '/api/v1/creators/grace')[0].auth).toBeNull();

    // The same prompt page as on /marketplace.
    await userEvent.click(within(c).getByRole('button', { name: 'View' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cold outreach' });
    expect(within(dialog).getByRole('button', { name: 'Purchase Now - $5.99' })).toBeInTheDocument();
    expect(await within(dialog).findByRole('region', { name: 'What changed' })).toBeInTheDocument();
  });

  it('buys from the prompt page as the marketplace does', async () => {
    startSignedIn();
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    api.route('GET /api/v1/creators/grace', () => jsonResponse(200, PROFILE));
    api.route('GET /api/v1/prompts/free-usage-status', () => jsonResponse(200, { remaining: 0, total_allowed: 5, used: 5, prompt_ids: [] }));
    api.route('GET /api/v1/payments/owned-prompts', () => jsonResponse(200, { owned_prompt_ids: [] }));
    api.route('POST /api/v1/payments/create-checkout-session', () => jsonResponse(200, { checkout_url: 'https://checkout.example/cs_9', session_id: 'cs_9' }));
    renderApp('/creators/grace');
    await userEvent.click(within(await findCard('c1')).getByRole('button', { name: 'View' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cold outreach' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Purchase Now - $5.99' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.example/cs_9'));
    expect(api.callsTo('POST', '/api/v1/payments/create-checkout-session')[0].body).toEqual({ prompt_id: 'c1' });
  });

  it('uses a free prompt from the prompt page as the marketplace does: the content shows at once', async () => {
    startSignedIn();
    let claimed = false;
    api.route('GET /api/v1/creators/grace', () => jsonResponse(200, PROFILE));
    api.route('GET /api/v1/prompts/free-usage-status', () =>
      jsonResponse(200, claimed ? { remaining: 2, total_allowed: 5, used: 3, prompt_ids: ['c1'] } : { remaining: 3, total_allowed: 5, used: 2, prompt_ids: [] }),
    );
    api.route('GET /api/v1/payments/owned-prompts', () => jsonResponse(200, { owned_prompt_ids: [] }));
    api.route('POST /api/v1/prompts/use-free-prompt/c1', () => {
      claimed = true;
      return jsonResponse(200, {
        prompt: prompt({ id: 'c1', title: 'Cold outreach', creator: GRACE, price: 5.99, content: 'Write to [NAME] today.' }),
        status: { remaining: 2, total_allowed: 5, used: 3, prompt_ids: ['c1'] },
        already_claimed: false,
      });
    });
    renderApp('/creators/grace');
    await userEvent.click(within(await findCard('c1')).getByRole('button', { name: 'View' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cold outreach' });
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Purchase Now - $5.99 (uses 1 of your 3 free prompts)' }));
    expect(await within(dialog).findByTestId('prompt-content')).toHaveTextContent('Write to [NAME] today.');
    await waitFor(() => expect(within(card('c1')).getByRole('button', { name: 'Used Free' })).toBeDisabled());
    expect(api.callsTo('POST', '/api/v1/payments/create-checkout-session')).toHaveLength(0);
  });

  it("an owner's Use in Chat on a card reads the content first (the page's cards carry none)", async () => {
    startSignedIn();
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    api.route('GET /api/v1/creators/grace', () => jsonResponse(200, PROFILE));
    api.route('GET /api/v1/prompts/free-usage-status', () => jsonResponse(200, { remaining: 0, total_allowed: 5, used: 5, prompt_ids: [] }));
    api.route('GET /api/v1/payments/owned-prompts', () => jsonResponse(200, { owned_prompt_ids: ['c1'] }));
    api.route('GET /api/v1/prompts/c1', () => jsonResponse(200, prompt({ id: 'c1', title: 'Cold outreach', creator: GRACE, content: 'Owned text', is_purchased: true })));
    renderApp('/creators/grace');
    await waitFor(() => expect(within(card('c1')).getByRole('button', { name: 'Purchased' })).toBeDisabled());
    await userEvent.click(within(card('c1')).getByRole('button', { name: 'Use in Chat' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/llm-chat$/));
    expect(setItem).toHaveBeenCalledWith(expect.stringContaining('prefill'), 'Owned text');
    expect(api.callsTo('GET', '/api/v1/prompts/c1')).toHaveLength(1);
  });

  it('says so when the creator has no prompts on the marketplace', async () => {
    startSignedOut();
    api.route('GET /api/v1/creators/grace', () => jsonResponse(200, { ...PROFILE, prompts: [] }));
    renderApp('/creators/grace');
    expect(await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' })).toBeInTheDocument();
    expect(await screen.findByTestId('empty-state')).toHaveTextContent('This creator has no prompts on the marketplace yet.');
    expect(screen.queryAllByTestId('prompt-card')).toHaveLength(0);
  });

  it('an unknown (or suspended) creator is "Creator not found." with a way back to the marketplace', async () => {
    startSignedOut();
    api.route('GET /api/v1/creators/nobody', () => jsonResponse(404, { detail: 'Creator not found.', code: 'not_found' }));
    renderApp('/creators/nobody');
    expect(await screen.findByRole('heading', { level: 1, name: 'Creator not found.' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Back to the marketplace' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/marketplace$/);
  });
});
