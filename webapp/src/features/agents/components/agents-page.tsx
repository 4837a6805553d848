// /agents: the Agent Marketplace. The server pages, searches, filters by
// category and sorts; the page shows its pages in the order they came,
// each card once, with "Load more" under them.

import { useState } from 'react';
import { SelectField, TextField } from '@aws-amplify/ui-react';
import { ListingCatalogue, ListingFilters, ListingResults, SEARCH_DEBOUNCE_MS, VisitorNotice } from '../../../components/listing/listing';
import { LoadMore } from '../../../components/listing/load-more';
import { Page } from '../../../components/page';
import { errorMessage } from '../../../lib/api-client';
import { AGENT_SORTS, isAgentSort, useAgentCategories, useAgentPages, type AgentSort } from '../../../lib/api/agents';
import { useAuth } from '../../../lib/use-auth';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { AgentCard, AgentCardSkeleton } from './agent-card';
import './agents.css';

/** "3 agents found". */
export function agentCountLine(n: number): string {
  return `${n} agent${n === 1 ? '' : 's'} found`;
}

export default function AgentsPage() {
  const { status } = useAuth();
  const signedIn = status === 'authenticated';
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim(), SEARCH_DEBOUNCE_MS);
  const [category, setCategory] = useState('');
  const [sort, setSort] = useState<AgentSort>('newest');
  const list = useAgentPages(status === 'loading' ? null : { search, category, sort });
  const categories = useAgentCategories();

  const failed = list.error !== undefined && list.pages === undefined;
  const loading = !failed && list.pages === undefined;
  const filtersActive = search !== '' || category !== '';

  return (
    <Page title="Agent Marketplace" subtitle="Agents made of instructions, a model and MCP tools: start a chat with one." className="agents-page">
      {!signedIn && status !== 'loading' ? (
        <VisitorNotice testId="agents-visitor" lead="Browse freely." returnTo="/agents" purpose="to chat with an agent." />
      ) : null}
      <ListingCatalogue heading="Agents">
        <ListingFilters label="Filter agents">
          <TextField
            label="Search agents"
            type="search"
            placeholder="Search by name or description"
            value={searchInput}
            onChange={(e) => setSearchInput(e.target.value)}
            autoComplete="off"
          />
          <SelectField label="Category" value={category} onChange={(e) => setCategory(e.target.value)}>
            <option value="">All Categories</option>
            {categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Sort"
            value={sort}
            onChange={(e) => {
              if (isAgentSort(e.target.value)) setSort(e.target.value);
            }}
          >
            {AGENT_SORTS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </SelectField>
        </ListingFilters>
        <ListingResults
          failure={failed ? { heading: 'Could not load agents', message: errorMessage(list.error, 'Please check your connection and try again.'), onRetry: () => void list.revalidate() } : null}
          loading={loading}
          loadingLabel="Loading agents"
          skeleton={<AgentCardSkeleton />}
          countText={agentCountLine(list.total)}
          countTestId="agent-count"
          empty={
            list.agents.length === 0
              ? {
                  title: 'No agents found',
                  hint: filtersActive ? 'Try other words or another category.' : 'No agent is on the marketplace yet. Check back soon.',
                  headingLevel: 3,
                  onClearFilters: filtersActive
                    ? () => {
                        setSearchInput('');
                        setCategory('');
                      }
                    : undefined,
                }
              : null
          }
          busy={list.isPrevious}
          cardMinWidth={300}
          more={
            list.hasMore || (list.error !== undefined && list.pages !== undefined) ? (
              <LoadMore
                label="Load more agents"
                onLoadMore={list.error !== undefined ? () => void list.revalidate() : list.loadMore}
                loading={list.loadingMore}
                pages={list.pages?.length ?? 0}
                error={list.error !== undefined ? errorMessage(list.error, 'Could not load more agents.') : null}
              />
            ) : null
          }
        >
          {list.agents.map((a) => (
            <AgentCard key={a.id} agent={a} />
          ))}
        </ListingResults>
      </ListingCatalogue>
    </Page>
  );
}
