import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../test/render-app';
import { getAuthState } from '../../../lib/auth-session';
import { clearNotificationsForTests } from '../../../components/notifications/notification-store';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { deferred } from '../../../test/fake-api';
import { setUpPageTests } from '../../../test/page-tests';
import { startSignedIn, startSignedOut, UNVERIFIED_ADA } from '../../../test/session';
import { browserLocation } from '../../../lib/browser-location';
import type { FreeUsageStatus } from '../api/types';
import type { Prompt } from '../../../lib/api/types';

const api = setUpPageTests();

// The route is lazy: load its module once up front so the first test's
// timing is not the module transform's.
beforeAll(async () => {
  await import('./marketplace-page');
}, 30_000);

const CATEGORIES = [
  { id: 'business', name: 'Business' },
  { id: 'writing', name: 'Writing' },
];

function prompt(over: Partial<Prompt> & { id: string }): Prompt {
  return {
    title: `Prompt ${over.id}`,
    description: `About ${over.id}`,
    preview: `Preview of ${over.id} for [AUDIENCE]`,
    price: 9.99,
    rating_avg: 4,
    rating_count: 2,
    user_rating: null,
    is_purchased: false,
    category: CATEGORIES[0],
    created_at: '2026-01-01T00:00:00Z',
    ...over,
  };
}

const toasts = () => screen.getByTestId('toasts');
const card = (id: string) => {
  const el = document.querySelector<HTMLElement>(`[data-testid="prompt-card"][data-prompt-id="${id}"]`);
  if (!el) throw new Error(`no card ${id}`);
  return el;
};
const findCard = async (id: string) => {
  await waitFor(() => card(id));
  return card(id);
};
const listCalls = () => api.callsTo('GET', '/api/v1/prompts/');

function serveCatalogue(list: () => Prompt[], extra: { free?: () => FreeUsageStatus; owned?: () => string[] } = {}) {
  api.route('GET /api/v1/prompts/', () => jsonResponse(200, list()));
  api.route('GET /api/v1/prompts/categories', () => jsonResponse(200, CATEGORIES));
  if (extra.free) api.route('GET /api/v1/prompts/free-usage-status', () => jsonResponse(200, extra.free!()));
  if (extra.owned) api.route('GET /api/v1/payments/owned-prompts', () => jsonResponse(200, { owned_prompt_ids: extra.owned!() }));
}

/**
 * A catalogue (p1, then `others`) whose p1 the user can claim free: once
 * POST use-free-prompt/p1 came, p1 carries `content` and the free-use status
 * is `after` instead of `before`.
 */
function serveFreeClaim(claim: { content: string; before: FreeUsageStatus; after: FreeUsageStatus; p1?: Partial<Prompt>; others?: Prompt[] }) {
  let claimed = false;
  const listNow = () => [prompt({ ...claim.p1, id: 'p1', ...(claimed ? { content: claim.content } : {}) }), ...(claim.others ?? [])];
  serveCatalogue(listNow, { free: () => (claimed ? claim.after : claim.before), owned: () => [] });
  api.route('POST /api/v1/prompts/use-free-prompt/p1', () => {
    claimed = true;
    return jsonResponse(200, { prompt: listNow()[0], status: claim.after, already_claimed: false });
  });
}

describe('MarketplacePage: listing', () => {
  it('shows six skeleton cards while loading, then the count line', async () => {
    startSignedOut();
    const gate = deferred();
    api.route('GET /api/v1/prompts/', async () => {
      await gate.promise;
      return jsonResponse(200, [prompt({ id: 'p1' }), prompt({ id: 'p2' })]);
    });
    renderApp('/marketplace');
    const loading = await screen.findByRole('status', { name: 'Loading prompts' });
    expect(within(loading).getAllByTestId('prompt-card-skeleton')).toHaveLength(6);
    expect(screen.queryByTestId('prompt-count')).not.toBeInTheDocument();
    gate.resolve();
    expect(await screen.findByTestId('prompt-count')).toHaveTextContent('2 prompts found');
    expect(screen.queryByTestId('prompt-card-skeleton')).not.toBeInTheDocument();
    expect(screen.getAllByTestId('prompt-card')).toHaveLength(2);
  });

  it('shows the demo banner to visitors, no free panel, and cards with previews and prices', async () => {
    startSignedOut();
    serveCatalogue(() => [prompt({ id: 'p1', title: 'Cold email', price: 12.5, preview: 'Email [COMPANY NAME] now' })]);
    renderApp('/marketplace');
    expect(await screen.findByTestId('demo-banner')).toBeInTheDocument();
    const c = await findCard('p1');
    expect(c.tagName).toBe('ARTICLE');
    expect(within(c).getByRole('heading', { name: 'Cold email' })).toBeInTheDocument();
    expect(within(c).getByText('$12.50')).toBeInTheDocument();
    expect(within(c).getByText('Business')).toBeInTheDocument();
    const preview = within(c).getByTestId('prompt-preview');
    expect(preview).toHaveTextContent('Email [COMPANY NAME] now');
    expect(preview.querySelector('mark')).toHaveTextContent('[COMPANY NAME]');
    expect(within(c).getByRole('button', { name: 'View' })).toBeInTheDocument();
    expect(within(c).getByRole('button', { name: 'Purchase' })).toBeEnabled();
    expect(within(c).queryByRole('button', { name: 'Use in Chat' })).not.toBeInTheDocument();
    expect(within(c).queryByRole('button', { name: 'Use Free' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('free-panel')).not.toBeInTheDocument();
    // Visitors send no token.
    expect(listCalls()[0].auth).toBeNull();
  });

  it('cuts long previews with an ellipsis and a hint to click View', async () => {
    startSignedOut();
    serveCatalogue(() => [prompt({ id: 'long', preview: 'x'.repeat(200) }), prompt({ id: 'short', preview: 'short one' })]);
    renderApp('/marketplace');
    const long = await findCard('long');
    expect(within(long).getByTestId('prompt-preview').textContent).toBe('x'.repeat(200) + '...');
    expect(within(long).getByText('Click View to see the full prompt.')).toBeInTheDocument();
    expect(within(card('short')).queryByText(/Click View/)).not.toBeInTheDocument();
  });

  it("ends a cut preview at a whole word with one ellipsis, in the card and the dialog (no 'IN...', no '....')", async () => {
    startSignedOut();
    // As promptsapi sends them: cut at a word boundary within 200 characters, flagged.
    const cutWord = 'Write a cold email for a founder in the [INDUSTRY] space about';
    const cutSentence = 'You are an expert. Answer as the system.';
    serveCatalogue(() => [
      prompt({ id: 'word', preview: cutWord, preview_truncated: true }),
      prompt({ id: 'sentence', preview: cutSentence, preview_truncated: true }),
      prompt({ id: 'whole', preview: 'Short and complete.', preview_truncated: false }),
    ]);
    renderApp('/marketplace');
    const word = await findCard('word');
    expect(within(word).getByTestId('prompt-preview').textContent).toBe(cutWord + '...');
    expect(within(word).getByText('Click View to see the full prompt.')).toBeInTheDocument();
    expect(within(card('sentence')).getByTestId('prompt-preview').textContent).toBe('You are an expert. Answer as the system...');
    expect(within(card('whole')).getByTestId('prompt-preview').textContent).toBe('Short and complete.');
    expect(within(card('whole')).queryByText(/Click View/)).not.toBeInTheDocument();

    await userEvent.click(within(word).getByRole('button', { name: 'View' }));
    const dialog = await screen.findByRole('dialog', { name: 'Prompt word' });
    expect(within(dialog).getByTestId('prompt-preview').textContent).toBe(cutWord + '...');
  });

  it('shows the empty state texts when nothing matches', async () => {
    startSignedOut();
    serveCatalogue(() => []);
    renderApp('/marketplace');
    expect(await screen.findByTestId('prompt-count')).toHaveTextContent('0 prompts found');
    expect(screen.getByRole('heading', { name: 'No prompts found' })).toBeInTheDocument();
    expect(screen.getByText('Try adjusting your search criteria or browse all categories.')).toBeInTheDocument();
  });

  it('falls back to the five sample prompts when the list answers 401', async () => {
    startSignedOut();
    api.route('GET /api/v1/prompts/', () => jsonResponse(401, { detail: 'Not authenticated', code: 'unauthorized' }));
    api.route('GET /api/v1/prompts/categories', () => jsonResponse(200, CATEGORIES));
    renderApp('/marketplace');
    expect(await screen.findByTestId('prompt-count')).toHaveTextContent('5 prompts found');
    const cards = screen.getAllByTestId('prompt-card');
    expect(cards).toHaveLength(5);
    expect(cards.every((c) => c.getAttribute('data-prompt-id')?.startsWith('sample-'))).toBe(true);
    expect(screen.getByTestId('demo-banner')).toBeInTheDocument();
    expect(screen.queryByTestId('prompt-content')).not.toBeInTheDocument();
  });

  it('shows an error with Retry for other failures, not samples', async () => {
    startSignedOut();
    let fail = true;
    api.route('GET /api/v1/prompts/', () => (fail ? jsonResponse(500, { detail: 'Internal error.' }) : jsonResponse(200, [prompt({ id: 'p1' })])));
    renderApp('/marketplace');
    expect(await screen.findByText('Could not load prompts')).toBeInTheDocument();
    expect(screen.queryAllByTestId('prompt-card')).toHaveLength(0);
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('prompt-count')).toHaveTextContent('1 prompts found');
  });

  it('sends search (debounced), category and sort to the server and shows its order', async () => {
    startSignedOut();
    api.route('GET /api/v1/prompts/categories', () => jsonResponse(200, CATEGORIES));
    api.route('GET /api/v1/prompts/', ({ url }) => {
      const all = [
        prompt({ id: 'cheap', price: 1, created_at: '2026-01-01T00:00:00Z' }),
        prompt({ id: 'dear', price: 30, created_at: '2026-01-02T00:00:00Z' }),
        prompt({ id: 'mid', price: 10, created_at: '2026-01-03T00:00:00Z', category: CATEGORIES[1] }),
      ];
      const cat = url.searchParams.get('category');
      const q = url.searchParams.get('q');
      const sort = url.searchParams.get('sort');
      const found = all.filter((p) => (!cat || p.category?.id === cat) && (!q || String(p.id).includes(q)));
      // The server sorts; the page keeps its order.
      if (sort === 'price-low') found.sort((a, b) => a.price - b.price);
      if (sort === 'price-high') found.sort((a, b) => b.price - a.price);
      if (!sort) found.reverse();
      return jsonResponse(200, { items: found, next_cursor: null, count: found.length, count_exact: true });
    });
    renderApp('/marketplace');
    await findCard('cheap');
    const order = () => screen.getAllByTestId('prompt-card').map((c) => c.getAttribute('data-prompt-id'));
    expect(order()).toEqual(['mid', 'dear', 'cheap']);

    await userEvent.selectOptions(screen.getByLabelText('Sort by'), 'price-low');
    await waitFor(() => expect(order()).toEqual(['cheap', 'mid', 'dear']));
    await userEvent.selectOptions(screen.getByLabelText('Sort by'), 'price-high');
    await waitFor(() => expect(order()).toEqual(['dear', 'mid', 'cheap']));
    expect(listCalls().some((c) => c.search === '?sort=price-high')).toBe(true);

    const category = screen.getByLabelText('Category');
    expect(within(category).getByRole('option', { name: 'All Categories' })).toBeInTheDocument();
    await waitFor(() => expect(within(category).getByRole('option', { name: 'Writing' })).toBeInTheDocument());
    await userEvent.selectOptions(category, 'writing');
    await waitFor(() => expect(order()).toEqual(['mid']));
    expect(listCalls().at(-1)?.search).toBe('?category=writing&sort=price-high');

    await userEvent.selectOptions(category, '');
    const before = listCalls().length;
    await userEvent.type(screen.getByLabelText('Search prompts'), 'dea');
    // Debounced: typing three letters makes one request, not three.
    await waitFor(() => expect(order()).toEqual(['dear']));
    const searches = listCalls()
      .slice(before)
      .map((c) => new URLSearchParams(c.search).get('q'))
      .filter(Boolean);
    expect(searches).toEqual(['dea']);
    expect(screen.getByTestId('prompt-count')).toHaveTextContent('1 prompts found');
  });
});

describe('MarketplacePage: pages', () => {
  // A catalogue of `total` prompts served 24 a page by cursor, newest
  // first, each page counting the whole (or, exact false, only itself);
  // page failPage (0-based) fails.
  function servePages(total: number, opts: { exact?: boolean; failPage?: number } = {}) {
    const ids = Array.from({ length: total }, (_, i) => `p${String(total - i).padStart(3, '0')}`);
    api.route('GET /api/v1/prompts/categories', () => jsonResponse(200, CATEGORIES));
    api.route('GET /api/v1/prompts/', ({ url }) => {
      // The fake's cursor: the last id shown, then the next page's number.
      const [after, page] = (url.searchParams.get('cursor') ?? '#0').split('#');
      const n = Number(page);
      if (opts.failPage === n) return jsonResponse(500, { detail: 'Internal error.' });
      const start = after ? ids.findIndex((id) => id < after) : 0;
      const items = (start < 0 ? [] : ids.slice(start, start + 24)).map((id) => prompt({ id }));
      const more = start >= 0 && start + 24 < ids.length;
      return jsonResponse(200, {
        items,
        next_cursor: more ? `${items[items.length - 1].id}#${n + 1}` : null,
        count: opts.exact === false ? items.length : ids.length,
        count_exact: opts.exact !== false,
      });
    });
  }

  it('loads the next page with the Load more button, by keyboard too', async () => {
    startSignedOut();
    servePages(50);
    renderApp('/marketplace');
    expect(await screen.findByTestId('prompt-count')).toHaveTextContent('50 prompts found');
    await waitFor(() => expect(screen.getAllByTestId('prompt-card')).toHaveLength(24));
    const more = await screen.findByRole('button', { name: 'Load more prompts' });
    more.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.getAllByTestId('prompt-card')).toHaveLength(48));
    await userEvent.click(await screen.findByRole('button', { name: 'Load more prompts' }));
    await waitFor(() => expect(screen.getAllByTestId('prompt-card')).toHaveLength(50));
    expect(screen.queryByRole('button', { name: 'Load more prompts' })).not.toBeInTheDocument();
    expect(listCalls().map((c) => new URLSearchParams(c.search).get('cursor'))).toEqual([null, 'p027#1', 'p003#2']);
  });

  it('loads the next page when the button scrolls into view', async () => {
    startSignedOut();
    const observers: { callback: IntersectionObserverCallback; el?: Element }[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(callback: IntersectionObserverCallback) {
          observers.push({ callback });
        }
        observe(el: Element) {
          observers[observers.length - 1].el = el;
        }
        disconnect() {}
        unobserve() {}
        takeRecords() {
          return [];
        }
      },
    );
    servePages(30);
    renderApp('/marketplace');
    await screen.findByRole('button', { name: 'Load more prompts' });
    await waitFor(() => expect(observers.at(-1)?.el).toBeDefined());
    const last = observers[observers.length - 1];
    act(() => last.callback([{ isIntersecting: true, target: last.el! } as IntersectionObserverEntry], {} as IntersectionObserver));
    await waitFor(() => expect(screen.getAllByTestId('prompt-card')).toHaveLength(30));
    vi.unstubAllGlobals();
  });

  it('shows no card twice when the catalogue changes between two pages', async () => {
    startSignedOut();
    const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `p${String(from + i).padStart(3, '0')}`);
    api.route('GET /api/v1/prompts/categories', () => jsonResponse(200, CATEGORIES));
    // Between the two pages, prompts of the first moved into the second's
    // place (their price changed under a price sort), and one new came.
    api.route('GET /api/v1/prompts/', ({ url }) =>
      url.searchParams.get('cursor')
        ? jsonResponse(200, { items: [...ids(20, 30), 'p999'].map((id) => prompt({ id })), next_cursor: null, count: 31, count_exact: true })
        : jsonResponse(200, { items: ids(1, 24).map((id) => prompt({ id })), next_cursor: 'c1', count: 30, count_exact: true }),
    );
    renderApp('/marketplace');
    await userEvent.click(await screen.findByRole('button', { name: 'Load more prompts' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more prompts' })).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getAllByTestId('prompt-card')).toHaveLength(31));
    const shown = screen.getAllByTestId('prompt-card').map((c) => c.getAttribute('data-prompt-id'));
    expect(shown).toEqual([...ids(1, 30), 'p999']);
    expect(screen.getByTestId('prompt-count')).toHaveTextContent('31 prompts found');
  });

  it('says "at least" while a search has more pages, then the number found', async () => {
    startSignedOut();
    servePages(30, { exact: false });
    renderApp('/marketplace');
    expect(await screen.findByTestId('prompt-count')).toHaveTextContent('24+ prompts found');
    await userEvent.click(await screen.findByRole('button', { name: 'Load more prompts' }));
    await waitFor(() => expect(screen.getByTestId('prompt-count')).toHaveTextContent('30 prompts found'));
  });

  it('keeps the cards when a later page fails, and tries again', async () => {
    startSignedOut();
    servePages(30, { failPage: 1 });
    renderApp('/marketplace');
    await userEvent.click(await screen.findByRole('button', { name: 'Load more prompts' }));
    expect(await within(screen.getByTestId('load-more')).findByRole('alert')).toHaveTextContent('Internal error.');
    expect(screen.getAllByTestId('prompt-card')).toHaveLength(24);
    servePages(30);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getAllByTestId('prompt-card')).toHaveLength(30));
  });

  it('reads the whole description in the dialog when the card has its start only', async () => {
    startSignedOut();
    serveCatalogue(() => [prompt({ id: 'p1', description: 'The start…', description_truncated: true })]);
    api.route('GET /api/v1/prompts/p1', () => jsonResponse(200, prompt({ id: 'p1', description: 'The start and the whole rest of it.' })));
    renderApp('/marketplace');
    await userEvent.click(within(await findCard('p1')).getByRole('button', { name: 'View' }));
    const dialog = await screen.findByRole('dialog', { name: 'Prompt p1' });
    expect(await within(dialog).findByText('The start and the whole rest of it.')).toBeInTheDocument();
  });
});

describe('MarketplacePage: signed in', () => {
  it('shows the free panel with remaining of total and a used/total bar, without the demo banner', async () => {
    startSignedIn();
    serveCatalogue(() => [prompt({ id: 'p1' })], { free: () => ({ remaining: 3, total_allowed: 5, used: 2, prompt_ids: [] }), owned: () => [] });
    renderApp('/marketplace');
    const panel = await screen.findByTestId('free-panel');
    expect(panel).toHaveTextContent('3 of 5 remaining');
    expect(within(panel).getByTestId('free-panel-bar')).toHaveStyle({ width: '40%' });
    expect(within(panel).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '2');
    expect(screen.queryByTestId('demo-banner')).not.toBeInTheDocument();
    expect(within(await findCard('p1')).getByRole('button', { name: 'Use Free' })).toBeEnabled();
  });

  it('Use Free shows the content on the card and in the dialog, and revalidates', async () => {
    startSignedIn();
    const CONTENT = 'Full text for [AUDIENCE] with <b>tags</b>';
    serveFreeClaim({
      content: CONTENT,
      before: { remaining: 5, total_allowed: 5, used: 0, prompt_ids: [] },
      after: { remaining: 4, total_allowed: 5, used: 1, prompt_ids: ['p1'] },
      others: [prompt({ id: 'p2' })],
    });
    renderApp('/marketplace');
    const c = await findCard('p1');
    await waitFor(() => expect(within(c).getByRole('button', { name: 'Use Free' })).toBeInTheDocument());
    const listsBefore = listCalls().length;
    await userEvent.click(within(c).getByRole('button', { name: 'Use Free' }));

    expect(await within(toasts()).findByText('Prompt accessed successfully for free!')).toBeInTheDocument();
    await waitFor(() => expect(within(card('p1')).getByRole('button', { name: 'Used Free' })).toBeDisabled());
    expect(within(card('p1')).getByRole('button', { name: 'View Full' })).toBeInTheDocument();
    expect(within(card('p1')).getByRole('button', { name: 'Use in Chat' })).toBeInTheDocument();
    expect(within(card('p1')).getByText('Used Free', { selector: '.amplify-badge' })).toBeInTheDocument();
    expect(within(card('p2')).getByRole('button', { name: 'Use Free' })).toBeInTheDocument();
    expect(screen.getByTestId('free-panel')).toHaveTextContent('4 of 5 remaining');
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(listsBefore));
    expect(api.calls.find((c) => c.method === 'POST')?.body).toBeUndefined();

    await userEvent.click(within(card('p1')).getByRole('button', { name: 'View Full' }));
    const dialog = await screen.findByRole('dialog', { name: 'Prompt p1' });
    const content = within(dialog).getByTestId('prompt-content');
    expect(content).toHaveTextContent(CONTENT);
    expect(content.querySelector('b')).toBeNull();
    expect(content.querySelector('mark')).toHaveTextContent('[AUDIENCE]');
    expect(within(dialog).getByRole('heading', { name: 'You have access to' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /Purchase Now/ })).not.toBeInTheDocument();
  });

  it('Use Free from the dialog turns the preview into the content', async () => {
    startSignedIn();
    serveFreeClaim({
      content: 'The whole thing',
      before: { remaining: 1, total_allowed: 5, used: 4, prompt_ids: [] },
      after: { remaining: 0, total_allowed: 5, used: 5, prompt_ids: ['p1'] },
    });
    renderApp('/marketplace');
    await waitFor(() => expect(within(card('p1')).getByRole('button', { name: 'Use Free' })).toBeInTheDocument());
    await userEvent.click(within(card('p1')).getByRole('button', { name: 'View' }));
    const dialog = await screen.findByRole('dialog', { name: 'Prompt p1' });
    expect(within(dialog).getByTestId('prompt-preview')).toBeInTheDocument();
    expect(within(dialog).getByRole('heading', { name: "What you'll get" })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Use Free' }));
    expect(await within(dialog).findByTestId('prompt-content')).toHaveTextContent('The whole thing');
    expect(within(dialog).queryByRole('button', { name: 'Use Free' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Use in Chat' })).toBeInTheDocument();
  });

  it('Use Free shows the server detail on 403', async () => {
    startSignedIn();
    serveCatalogue(() => [prompt({ id: 'p1' })], { free: () => ({ remaining: 1, total_allowed: 5, used: 4, prompt_ids: [] }), owned: () => [] });
    api.route('POST /api/v1/prompts/use-free-prompt/p1', () =>
      jsonResponse(403, { detail: 'You have used all 5 of your free prompts. Purchase this prompt to use it.', code: 'forbidden' }),
    );
    renderApp('/marketplace');
    await waitFor(() => expect(within(card('p1')).getByRole('button', { name: 'Use Free' })).toBeInTheDocument());
    await userEvent.click(within(card('p1')).getByRole('button', { name: 'Use Free' }));
    expect(await within(toasts()).findByText('You have used all 5 of your free prompts. Purchase this prompt to use it.')).toBeInTheDocument();
    // Only email_unverified offers to resend the confirmation.
    expect(within(toasts()).queryByRole('button', { name: 'Resend email' })).not.toBeInTheDocument();
  });

  describe('Use Free before the email address is confirmed (403 email_unverified)', () => {
    const CONFIRM = 'Please confirm your email address to use free prompts. We sent you a link; you can resend it from your dashboard.';

    async function useFreeUnverified() {
      startSignedIn(UNVERIFIED_ADA);
      serveCatalogue(() => [prompt({ id: 'p1' })], { free: () => ({ remaining: 5, total_allowed: 5, used: 0, prompt_ids: [] }), owned: () => [] });
      api.route('POST /api/v1/prompts/use-free-prompt/p1', () => jsonResponse(403, { detail: CONFIRM, code: 'email_unverified' }));
      renderApp('/marketplace');
      await waitFor(() => expect(within(card('p1')).getByRole('button', { name: 'Use Free' })).toBeInTheDocument());
      await userEvent.click(within(card('p1')).getByRole('button', { name: 'Use Free' }));
      const alert = (await within(toasts()).findByText(CONFIRM)).closest<HTMLElement>('[role="alert"]')!;
      return alert;
    }

    it("shows the server's detail with a Resend email action that mails a new link", async () => {
      api.route('POST /api/v1/auth/resend-verification', () =>
        jsonResponse(200, { status: 'sent', detail: 'We sent a new confirmation link to ada@example.com. It works once, for 24 hours.' }),
      );
      const alert = await useFreeUnverified();
      // Nothing unlocked: the card still offers Use Free, and no success text.
      expect(within(card('p1')).getByRole('button', { name: 'Use Free' })).toBeEnabled();
      expect(within(toasts()).queryByText('Prompt accessed successfully for free!')).not.toBeInTheDocument();
      await userEvent.click(within(alert).getByRole('button', { name: 'Resend email' }));
      expect(await within(toasts()).findByText('We sent a new confirmation link to ada@example.com. It works once, for 24 hours.')).toBeInTheDocument();
      const resend = api.callsTo('POST', '/api/v1/auth/resend-verification');
      expect(resend).toHaveLength(1);
      expect(resend[0].auth).toMatch(/^Bearer /);
      expect(within(toasts()).queryByText(CONFIRM)).not.toBeInTheDocument();
    });

    it("Resend shows the server's detail when the mail cannot go (429, 503)", async () => {
      api.route('POST /api/v1/auth/resend-verification', () =>
        jsonResponse(429, { detail: 'You asked for several confirmation emails. Please wait before asking again.', code: 'rate_limited' }),
      );
      const alert = await useFreeUnverified();
      await userEvent.click(within(alert).getByRole('button', { name: 'Resend email' }));
      expect(await within(toasts()).findByText('You asked for several confirmation emails. Please wait before asking again.')).toBeInTheDocument();
      api.route('POST /api/v1/auth/resend-verification', () =>
        jsonResponse(503, { detail: 'This site cannot send email right now. Please contact support.', code: 'unavailable' }),
      );
      await userEvent.click(within(card('p1')).getByRole('button', { name: 'Use Free' }));
      const again = (await within(toasts()).findByText(CONFIRM)).closest<HTMLElement>('[role="alert"]')!;
      await userEvent.click(within(again).getByRole('button', { name: 'Resend email' }));
      expect(await within(toasts()).findByText('This site cannot send email right now. Please contact support.')).toBeInTheDocument();
    });
  });

  it('Use Free falls back to the generic message without a detail', async () => {
    startSignedIn();
    serveCatalogue(() => [prompt({ id: 'p1' })], { free: () => ({ remaining: 1, total_allowed: 5, used: 4, prompt_ids: [] }), owned: () => [] });
    api.route('POST /api/v1/prompts/use-free-prompt/p1', () => new Response('oops', { status: 500 }));
    renderApp('/marketplace');
    await waitFor(() => expect(within(card('p1')).getByRole('button', { name: 'Use Free' })).toBeInTheDocument());
    await userEvent.click(within(card('p1')).getByRole('button', { name: 'Use Free' }));
    expect(await within(toasts()).findByText('Failed to access prompt')).toBeInTheDocument();
  });

  it('Use Free on 401 says the session expired, then goes to /login after 2 s', async () => {
    startSignedIn();
    serveCatalogue(() => [prompt({ id: 'p1' })], { free: () => ({ remaining: 1, total_allowed: 5, used: 4, prompt_ids: [] }), owned: () => [] });
    api.route('POST /api/v1/prompts/use-free-prompt/p1', () => jsonResponse(401, { detail: 'Token expired', code: 'unauthorized' }));
    renderApp('/marketplace');
    await waitFor(() => expect(within(card('p1')).getByRole('button', { name: 'Use Free' })).toBeInTheDocument());
    await userEvent.click(within(card('p1')).getByRole('button', { name: 'Use Free' }));
    expect(await within(toasts()).findByText('Your session has expired. Please log in again.')).toBeInTheDocument();
    const clickedAt = Date.now();
    expect(getAuthState().status).toBe('unauthenticated');
    expect(screen.getByTestId('location')).toHaveTextContent('/marketplace');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toMatch(/^\/login/), { timeout: 20_000 });
    expect(Date.now() - clickedAt).toBeGreaterThanOrEqual(1500);
    expect(screen.getByTestId('location')).toHaveTextContent('/login?redirect=%2Fmarketplace');
    // The reason stays on the login page: it says why the user is there.
    expect(within(toasts()).getByText('Your session has expired. Please log in again.')).toBeInTheDocument();
  });

  it('Purchase goes to the checkout URL', async () => {
    startSignedIn();
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    serveCatalogue(() => [prompt({ id: 'p1' })], { free: () => ({ remaining: 0, total_allowed: 5, used: 5, prompt_ids: [] }), owned: () => [] });
    api.route('POST /api/v1/payments/create-checkout-session', () => jsonResponse(200, { checkout_url: 'https://checkout.example/cs_1', session_id: 'cs_1' }));
    renderApp('/marketplace');
    await waitFor(() => expect(within(card('p1')).getByRole('button', { name: 'Purchase' })).toBeInTheDocument());
    await userEvent.click(within(card('p1')).getByRole('button', { name: 'Purchase' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.example/cs_1'));
    expect(api.calls.find((c) => c.path === '/api/v1/payments/create-checkout-session')?.body).toEqual({ prompt_id: 'p1' });
  });

  it('Purchase Now says it uses a free prompt while some remain, and calls the free use itself', async () => {
    startSignedIn();
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    serveFreeClaim({
      content: 'Unlocked',
      before: { remaining: 3, total_allowed: 5, used: 2, prompt_ids: [] },
      after: { remaining: 2, total_allowed: 5, used: 3, prompt_ids: ['p1'] },
      p1: { price: 5.99 },
    });
    renderApp('/marketplace');
    await userEvent.click(within(await findCard('p1')).getByRole('button', { name: 'View' }));
    const dialog = await screen.findByRole('dialog', { name: 'Prompt p1' });
    const buy = await within(dialog).findByRole('button', { name: 'Purchase Now - $5.99 (uses 1 of your 3 free prompts)' });
    await userEvent.click(buy);
    expect(await within(toasts()).findByText('Prompt accessed successfully for free!')).toBeInTheDocument();
    // No checkout call that the server would refuse with a 400: straight to the free use.
    expect(api.calls.filter((c) => c.path === '/api/v1/payments/create-checkout-session')).toHaveLength(0);
    expect(api.callsTo('POST', '/api/v1/prompts/use-free-prompt/p1')).toHaveLength(1);
    expect(assign).not.toHaveBeenCalled();
  });

  it('Purchase Now is the plain price once no free uses remain', async () => {
    startSignedIn();
    serveCatalogue(() => [prompt({ id: 'p1', price: 5.99 })], { free: () => ({ remaining: 0, total_allowed: 5, used: 5, prompt_ids: [] }), owned: () => [] });
    renderApp('/marketplace');
    await userEvent.click(within(await findCard('p1')).getByRole('button', { name: 'View' }));
    const dialog = await screen.findByRole('dialog', { name: 'Prompt p1' });
    expect(await within(dialog).findByRole('button', { name: 'Purchase Now - $5.99' })).toBeInTheDocument();
  });

  it('Purchase switches to the free use when the server answers free_use_available', async () => {
    startSignedIn();
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    serveFreeClaim({
      content: 'Unlocked',
      before: { remaining: 0, total_allowed: 5, used: 5, prompt_ids: [] },
      after: { remaining: 0, total_allowed: 5, used: 5, prompt_ids: ['p1'] },
    });
    api.route('POST /api/v1/payments/create-checkout-session', () =>
      jsonResponse(400, { detail: 'You can still use this prompt for free (2 of 5 free prompts left).', code: 'free_use_available' }),
    );
    renderApp('/marketplace');
    await waitFor(() => expect(within(card('p1')).getByRole('button', { name: 'Purchase' })).toBeInTheDocument());
    await userEvent.click(within(card('p1')).getByRole('button', { name: 'Purchase' }));
    expect(await within(toasts()).findByText('Using prompt for free...')).toBeInTheDocument();
    expect(await within(toasts()).findByText('Prompt accessed successfully for free!')).toBeInTheDocument();
    await waitFor(() => expect(within(card('p1')).getByRole('button', { name: 'Used Free' })).toBeDisabled());
    expect(assign).not.toHaveBeenCalled();
  });

  it.each([
    [401, { detail: 'Token expired' }, 'Your session has expired. Please log in again.'],
    [404, { detail: 'Not found' }, 'Not found'],
    [409, { detail: 'You already own this prompt' }, 'You already own this prompt'],
    // The code decides, not the words.
    [400, { detail: 'You can use this prompt for free.', code: 'invalid' }, 'You can use this prompt for free.'],
    [500, {}, 'Failed to create payment'],
  ])('Purchase failure %i shows %j as %s', async (status, body, message) => {
    startSignedIn();
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    serveCatalogue(() => [prompt({ id: 'p1' })], { free: () => ({ remaining: 0, total_allowed: 5, used: 5, prompt_ids: [] }), owned: () => [] });
    api.route('POST /api/v1/payments/create-checkout-session', () => jsonResponse(status, body));
    renderApp('/marketplace');
    await waitFor(() => expect(within(card('p1')).getByRole('button', { name: 'Purchase' })).toBeInTheDocument());
    await userEvent.click(within(card('p1')).getByRole('button', { name: 'Purchase' }));
    expect(await within(toasts()).findByText(message)).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
    expect(api.calls.some((c) => c.path.includes('use-free-prompt'))).toBe(false);
  });

  it('Purchase refuses a checkout URL that is not http(s)', async () => {
    startSignedIn();
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    serveCatalogue(() => [prompt({ id: 'p1' })], { free: () => ({ remaining: 0, total_allowed: 5, used: 5, prompt_ids: [] }), owned: () => [] });
    api.route('POST /api/v1/payments/create-checkout-session', () => jsonResponse(200, { checkout_url: 'javascript:alert(1)' }));
    renderApp('/marketplace');
    await waitFor(() => expect(within(card('p1')).getByRole('button', { name: 'Purchase' })).toBeInTheDocument());
    await userEvent.click(within(card('p1')).getByRole('button', { name: 'Purchase' }));
    expect(await within(toasts()).findByText('Failed to create payment')).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
  });

  it('shows Purchased (disabled) for owned prompts and Use in Chat writes the hand-off', async () => {
    startSignedIn();
    const CONTENT = 'Plan.\n[start menu]\nd {focus} Focus\n- deep work\n[end menu]';
    serveCatalogue(() => [prompt({ id: 'p1', is_purchased: true, content: CONTENT })], {
      free: () => ({ remaining: 5, total_allowed: 5, used: 0, prompt_ids: [] }),
      owned: () => ['p1'],
    });
    renderApp('/marketplace');
    const c = await findCard('p1');
    expect(within(c).getByRole('button', { name: 'Purchased' })).toBeDisabled();
    expect(within(c).queryByText('Used Free')).not.toBeInTheDocument();
    await userEvent.click(within(c).getByRole('button', { name: 'Use in Chat' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/llm-chat$/));
    // The chat page takes the hand-off (prefill, open-menu, force-new-tab) once and clears it.
    expect(await screen.findByRole('dialog', { name: 'Fill Template Variables' }, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue(CONTENT);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Chat 1', 'Chat 2']);
    expect(sessionStorage.getItem('chat-prefill')).toBeNull();
  }, 30_000);
});

describe('MarketplacePage: rating', () => {
  it('tells a visitor to log in, without calling the server', async () => {
    startSignedOut();
    serveCatalogue(() => [prompt({ id: 'p1' })]);
    renderApp('/marketplace');
    const c = await findCard('p1');
    const star = within(c).getByRole('button', { name: 'Rate 4 stars' });
    expect(star).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(star);
    expect(await within(toasts()).findByText('Please log in to rate prompts')).toBeInTheDocument();
    expect(api.calls.some((x) => x.path.endsWith('/rate'))).toBe(false);
  });

  it('tells a signed-in user who has not purchased it, also for a free claim', async () => {
    startSignedIn();
    serveCatalogue(() => [prompt({ id: 'p1' }), prompt({ id: 'p2', content: 'free text' })], {
      free: () => ({ remaining: 4, total_allowed: 5, used: 1, prompt_ids: ['p2'] }),
      owned: () => [],
    });
    renderApp('/marketplace');
    await findCard('p1');
    await userEvent.click(within(card('p1')).getByRole('button', { name: 'Rate 5 stars' }));
    expect(await within(toasts()).findByText('You can only rate prompts you have purchased')).toBeInTheDocument();
    act(() => clearNotificationsForTests());
    await userEvent.click(within(card('p2')).getByRole('button', { name: 'Rate 5 stars' }));
    expect(await within(toasts()).findByText('You can only rate prompts you have purchased')).toBeInTheDocument();
    expect(api.calls.some((x) => x.path.endsWith('/rate'))).toBe(false);
  });

  it('recomputes at once, then takes the server answer', async () => {
    startSignedIn();
    const answer = deferred<Response>();
    serveCatalogue(() => [prompt({ id: 'p1', is_purchased: true, content: 'x', rating_avg: 4, rating_count: 3, user_rating: null })], {
      free: () => ({ remaining: 5, total_allowed: 5, used: 0, prompt_ids: [] }),
      owned: () => ['p1'],
    });
    api.route('POST /api/v1/prompts/p1/rate', () => answer.promise);
    renderApp('/marketplace');
    const c = await findCard('p1');
    expect(within(c).getByText('4.0 (3)')).toBeInTheDocument();
    const star = within(c).getByRole('button', { name: 'Rate 5 stars' });
    expect(star).toHaveAttribute('aria-disabled', 'false');
    await userEvent.click(star);
    // Local: (4*3 + 5) / 4 = 4.25 → 4.3, count 4.
    expect(await within(card('p1')).findByText('4.3 (4)')).toBeInTheDocument();
    expect(within(card('p1')).getByRole('button', { name: 'Rate 5 stars' })).toHaveAttribute('aria-pressed', 'true');
    expect(api.calls.find((x) => x.path.endsWith('/rate'))?.body).toEqual({ rating: 5 });
    await act(async () => answer.resolve(jsonResponse(200, { rating_avg: 4.4, rating_count: 5, user_rating: 5 })));
    expect(await within(card('p1')).findByText('4.4 (5)')).toBeInTheDocument();
    expect(await within(toasts()).findByText('Rating submitted successfully!')).toBeInTheDocument();
  });

  it('rolls back and shows the detail when rating fails', async () => {
    startSignedIn();
    serveCatalogue(() => [prompt({ id: 'p1', is_purchased: true, content: 'x', rating_avg: 4, rating_count: 3, user_rating: 4 })], {
      free: () => ({ remaining: 5, total_allowed: 5, used: 0, prompt_ids: [] }),
      owned: () => ['p1'],
    });
    api.route('POST /api/v1/prompts/p1/rate', () => jsonResponse(403, { detail: 'You can only rate prompts you have purchased', code: 'forbidden' }));
    renderApp('/marketplace');
    const c = await findCard('p1');
    await userEvent.click(within(c).getByRole('button', { name: 'Rate 1 star' }));
    expect(await within(toasts()).findByText('You can only rate prompts you have purchased')).toBeInTheDocument();
    await waitFor(() => expect(within(card('p1')).getByText('4.0 (3)')).toBeInTheDocument());
    expect(within(card('p1')).getByRole('button', { name: 'Rate 4 stars' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('falls back to the generic rating message', async () => {
    startSignedIn();
    serveCatalogue(() => [prompt({ id: 'p1', is_purchased: true, content: 'x' })], {
      free: () => ({ remaining: 5, total_allowed: 5, used: 0, prompt_ids: [] }),
      owned: () => ['p1'],
    });
    api.route('POST /api/v1/prompts/p1/rate', () => new Response('', { status: 502 }));
    renderApp('/marketplace');
    await userEvent.click(within(await findCard('p1')).getByRole('button', { name: 'Rate 3 stars' }));
    expect(await within(toasts()).findByText('Failed to submit rating')).toBeInTheDocument();
  });
});

describe('MarketplacePage: detail dialog', () => {
  it('shows a preview, the notice and purchase for a visitor; Escape closes and focus returns', async () => {
    startSignedOut();
    serveCatalogue(() => [prompt({ id: 'p1', title: 'Launch plan', price: 7, description: 'Plan a launch.' })]);
    renderApp('/marketplace');
    const view = within(await findCard('p1')).getByRole('button', { name: 'View' });
    await userEvent.click(view);
    const dialog = await screen.findByRole('dialog', { name: 'Launch plan' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveTextContent('Plan a launch.');
    expect(dialog).toHaveTextContent('Business');
    expect(within(dialog).getByTestId('prompt-preview')).toHaveTextContent('Preview of p1');
    expect(within(dialog).queryByTestId('prompt-content')).not.toBeInTheDocument();
    expect(within(dialog).getByText(/This is a preview/)).toBeInTheDocument();
    expect(within(dialog).getByRole('heading', { name: "What you'll get" })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Use Free' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Copy' })).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Purchase Now - $7.00' }));
    expect(await within(toasts()).findByText('Please log in to purchase prompts')).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(view).toHaveFocus();
  });

  it('keeps Tab inside the dialog', async () => {
    startSignedOut();
    serveCatalogue(() => [prompt({ id: 'p1' })]);
    renderApp('/marketplace');
    await userEvent.click(within(await findCard('p1')).getByRole('button', { name: 'View' }));
    const dialog = await screen.findByRole('dialog', { name: 'Prompt p1' });
    expect(dialog).toHaveFocus();
    for (let i = 0; i < 8; i++) {
      await userEvent.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
    await userEvent.tab({ shift: true });
    expect(dialog.contains(document.activeElement)).toBe(true);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('copies the full content, and reports a failed copy', async () => {
    startSignedIn();
    const writeText = vi.fn().mockResolvedValueOnce(undefined).mockRejectedValueOnce(new Error('denied'));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    serveCatalogue(() => [prompt({ id: 'p1', is_purchased: true, content: 'Copy me [NAME]' })], {
      free: () => ({ remaining: 5, total_allowed: 5, used: 0, prompt_ids: [] }),
      owned: () => ['p1'],
    });
    renderApp('/marketplace');
    await userEvent.click(within(await findCard('p1')).getByRole('button', { name: 'View Full' }));
    const dialog = await screen.findByRole('dialog', { name: 'Prompt p1' });
    expect(within(dialog).getByRole('heading', { name: 'You have access to' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('Copy me [NAME]');
    expect(await within(toasts()).findByText('Prompt copied to clipboard!')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(await within(toasts()).findByText('Failed to copy to clipboard')).toBeInTheDocument();
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
  });
});

describe('MarketplacePage: ?filter=purchased and ?filter=mine', () => {
  const mixed = () => {
    serveCatalogue(() => [prompt({ id: 'bought', is_purchased: true, content: 'a' }), prompt({ id: 'freebie', content: 'b' }), prompt({ id: 'other' })], {
      free: () => ({ remaining: 4, total_allowed: 5, used: 1, prompt_ids: ['freebie'] }),
      owned: () => ['bought'],
    });
    // The server lists the caller's own under ?filter=.
    api.route('GET /api/v1/prompts/', ({ url }) => {
      const all = [prompt({ id: 'bought', is_purchased: true, content: 'a' }), prompt({ id: 'freebie', content: 'b' }), prompt({ id: 'other' })];
      const filter = url.searchParams.get('filter');
      return jsonResponse(200, filter === 'purchased' ? all.slice(0, 1) : filter === 'mine' ? all.slice(0, 2) : all);
    });
  };
  const shownIds = () => screen.getAllByTestId('prompt-card').map((c) => c.getAttribute('data-prompt-id')).sort();

  // The dashboard's "Purchased Prompts" card links here and counts purchases
  // only: the list must show the same prompts, not the free claims too.
  it('?filter=purchased (the dashboard card) shows the purchased prompts only, as the card counts them', async () => {
    startSignedIn();
    mixed();
    renderApp('/marketplace?filter=purchased');
    expect(await screen.findByTestId('prompt-count')).toHaveTextContent('1 prompts found');
    expect(shownIds()).toEqual(['bought']);
    expect(screen.getByTestId('purchased-filter')).toHaveTextContent('Showing your purchased prompts.');
    await userEvent.click(screen.getByRole('link', { name: 'Include free prompts' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/marketplace\?filter=mine$/));
    expect(await screen.findByTestId('prompt-count')).toHaveTextContent('2 prompts found');
  });

  it('?filter=mine ("Show only my prompts") shows purchased and free-claimed prompts, with a way back to all', async () => {
    startSignedIn();
    mixed();
    renderApp('/marketplace');
    expect(await screen.findByTestId('prompt-count')).toHaveTextContent('3 prompts found');
    await userEvent.click(screen.getByRole('link', { name: 'Show only my prompts' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/marketplace\?filter=mine$/));
    expect(await screen.findByTestId('prompt-count')).toHaveTextContent('2 prompts found');
    expect(shownIds()).toEqual(['bought', 'freebie']);
    expect(screen.getByTestId('purchased-filter')).toHaveTextContent('Showing your purchased and free prompts.');
    await userEvent.click(screen.getByRole('link', { name: 'Show all prompts' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/marketplace$/));
    expect(await screen.findByTestId('prompt-count')).toHaveTextContent('3 prompts found');
  });
});
