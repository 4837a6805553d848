import { useState } from 'react';
import { SelectField, TextField } from '@aws-amplify/ui-react';
import { Link, useSearchParams } from 'react-router';
import { ListingCatalogue, ListingFilters, ListingResults, SEARCH_DEBOUNCE_MS, VisitorNotice } from '../../../components/listing/listing';
import { LoadMore } from '../../../components/listing/load-more';
import { Page } from '../../../components/page';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import type { Prompt, SortOption } from '../../../lib/api/types';
import { useCategories } from '../api/use-categories';
import { usePromptPages } from '../../../lib/api/use-prompts';
import { MESSAGES } from '../messages';
import { MINE_FILTER, inOwnershipView, ownershipFilter, OWNERSHIP_FILTER_TEXT, PURCHASED_FILTER } from '../ownership-filter';
import { categoryLabel } from '../prompt-text';
import { filterSamplePrompts, SAMPLE_PROMPTS } from '../sample-prompts';
import { DEFAULT_SORT, isSortOption, SORT_OPTIONS, sortPrompts } from '../sort-prompts';
import { countLine } from '../count-line';
import { usePromptActions } from '../use-prompt-actions';
import { usePromptEntries } from '../use-prompt-entries';
import { FreePromptsPanel } from './free-prompts-panel';
import { PromptCard, PromptCardSkeleton } from './prompt-card';
import { PromptDialog, usePromptSelection } from './prompt-dialog';
import './marketplace.css';

function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

export default function MarketplacePage() {
  const { status, signedIn, free, remaining, describe } = usePromptEntries();
  const [params] = useSearchParams();
  const ownership = ownershipFilter(params.get('filter'));

  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim(), SEARCH_DEBOUNCE_MS);
  const [categoryId, setCategoryId] = useState('');
  const [sort, setSort] = useState<SortOption>(DEFAULT_SORT);

  // The server pages, filters, searches and sorts (SPEC §9's orders); the
  // page shows its pages in the order they came, each card once.
  const list = usePromptPages(status === 'loading' ? null : { q: search, category: categoryId, sort, filter: ownership ?? undefined });
  const { categories } = useCategories();
  const actions = usePromptActions(list.handle);

  // SPEC §4: a visitor whose list call answers 401 sees the built-in samples.
  const visitorFallback = isUnauthorized(list.error) && list.pages === undefined;
  // The first page failed (a later one failing keeps the cards and says so under them).
  const failed = list.error !== undefined && !visitorFallback && list.pages === undefined;
  const loading = !visitorFallback && !failed && list.pages === undefined;
  const base: Prompt[] = visitorFallback ? sortPrompts(filterSamplePrompts(SAMPLE_PROMPTS, { search, categoryId }), sort) : list.prompts;

  // The server lists only the caller's own under ?filter=; the samples have no owner.
  const entries = base.map(describe).filter((e) => !visitorFallback || inOwnershipView(ownership, e.access));

  const selection = usePromptSelection(entries, describe);

  const filtersActive = search !== '' || categoryId !== '';
  const clearFilters = () => {
    setSearchInput('');
    setCategoryId('');
  };

  return (
    <Page title="Prompt Marketplace" subtitle="Discover, buy and use prompts crafted for real work." className="marketplace">
      {!signedIn ? (
        <VisitorNotice
          testId="demo-banner"
          heading="Demo mode"
          lead="Prompts show previews only."
          returnTo="/marketplace"
          purpose="to buy prompts and use your free prompts."
        />
      ) : null}

      {signedIn && free.freeStatus ? <FreePromptsPanel status={free.freeStatus} /> : null}

      <ListingCatalogue heading="Prompts">
        <ListingFilters label="Filter prompts">
          <TextField
            label="Search prompts"
            type="search"
            placeholder="Search by title, description or category"
            value={searchInput}
            onChange={(e) => setSearchInput(e.target.value)}
            autoComplete="off"
          />
          <SelectField label="Category" value={categoryId} onChange={(e) => setCategoryId(e.target.value)}>
            <option value="">All Categories</option>
            {categories.map((c) => (
              <option key={String(c.id)} value={String(c.id)}>
                {categoryLabel(c.name)}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Sort by"
            value={sort}
            onChange={(e) => {
              if (isSortOption(e.target.value)) setSort(e.target.value);
            }}
          >
            {SORT_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </SelectField>
        </ListingFilters>

        {ownership ? (
          <div className="filter-bar" data-testid="purchased-filter">
            <span>{OWNERSHIP_FILTER_TEXT[ownership]}</span>
            {ownership === PURCHASED_FILTER ? (
              <Link to={`/marketplace?filter=${MINE_FILTER}`} className="filter-bar__link">
                Include free prompts
              </Link>
            ) : null}
            <Link to="/marketplace" className="filter-bar__link">
              Show all prompts
            </Link>
          </div>
        ) : signedIn ? (
          <div className="filter-bar filter-bar--quiet">
            <Link to={`/marketplace?filter=${MINE_FILTER}`} className="filter-bar__link">
              Show only my prompts
            </Link>
          </div>
        ) : null}

        <ListingResults
          failure={failed ? { heading: 'Could not load prompts', message: errorMessage(list.error, 'Please check your connection and try again.'), onRetry: () => void list.handle.revalidate() } : null}
          loading={loading}
          loadingLabel="Loading prompts"
          skeleton={<PromptCardSkeleton />}
          countText={visitorFallback ? countLine(entries.length, true) : countLine(list.count, list.exact)}
          countTestId="prompt-count"
          empty={
            entries.length === 0
              ? { title: MESSAGES.noPrompts, hint: MESSAGES.noPromptsHint, headingLevel: 3, onClearFilters: filtersActive ? clearFilters : undefined }
              : null
          }
          busy={list.isPrevious}
          cardMinWidth={300}
          more={
            !visitorFallback && (list.hasMore || (list.error !== undefined && list.pages !== undefined)) ? (
              <LoadMore
                label="Load more prompts"
                onLoadMore={list.error !== undefined ? () => void list.handle.revalidate() : list.loadMore}
                loading={list.loadingMore}
                pages={list.pages?.length ?? 0}
                error={list.error !== undefined ? errorMessage(list.error, 'Could not load more prompts.') : null}
              />
            ) : null
          }
        >
          {entries.map((e) => (
            <PromptCard
              key={String(e.prompt.id)}
              prompt={e.prompt}
              access={e.access}
              state={e.state}
              ratingBlockedReason={e.ratingBlocked}
              pending={actions.pending}
              onView={selection.open}
              onUseInChat={actions.openInChat}
              onUseFree={(p) => void actions.claimFree(p)}
              onPurchase={(p) => void actions.purchase(p)}
              onRate={(p, n) => void actions.rate(p, n, e.access)}
            />
          ))}
        </ListingResults>
      </ListingCatalogue>

      {selection.selected ? (
        <PromptDialog selected={selection.selected} signedIn={signedIn} remaining={remaining} actions={actions} onClose={selection.close} />
      ) : null}
    </Page>
  );
}
