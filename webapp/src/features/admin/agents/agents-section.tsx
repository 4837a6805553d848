// The agents (docs/admin.md, Agents), newest first and paged, found by
// name or description and by state: creator, model, price, review state,
// whether it is on the marketplace, and Suspend / Unsuspend, each asked
// first. A suspension takes the agent off the marketplace at once; its
// buyers keep it. Each is in the audit log (agent.suspend, agent.unsuspend).

import { useState } from 'react';
import { SelectField, TextField } from '@aws-amplify/ui-react';
import { ListingFilters, SEARCH_DEBOUNCE_MS } from '../../../components/listing/listing';
import { toast } from '../../../components/notifications/notification-store';
import { errorMessage } from '../../../lib/api-client';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { setAgentSuspended } from '../api/requests';
import type { AdminAgent } from '../api/types';
import { useAdminAgents } from '../api/use-admin-lists';
import { isAccessDenied } from '../components/admin-access';
import { ConfirmDialog } from '../components/confirm-dialog';
import { ListTable } from '../components/list-table';
import { SectionHeader } from '../components/section-header';
import { useAdminWrite } from '../components/use-admin-write';
import { AGENT_COLUMNS, AgentRow } from './agent-row';

export const SUSPEND_AGENT_TEXT = 'It leaves the marketplace at once; its buyers keep using it.';
export const UNSUSPEND_AGENT_TEXT = 'It returns to the marketplace if it is published.';

export function AgentsSection() {
  const [searchInput, setSearchInput] = useState('');
  const [state, setState] = useState('');
  const q = useDebouncedValue(searchInput.trim(), SEARCH_DEBOUNCE_MS);
  const list = useAdminAgents({ q, state });
  const { run, pending } = useAdminWrite();
  const [asking, setAsking] = useState<{ agent: AdminAgent; suspend: boolean } | null>(null);
  const [askError, setAskError] = useState<string | null>(null);

  const confirm = async (a: AdminAgent, suspend: boolean) => {
    setAskError(null);
    const outcome = await run(() => setAgentSuspended(a.id, suspend));
    if (!outcome) return;
    void list.refresh();
    if (outcome.ok) {
      toast.success(suspend ? `Suspended “${a.name}”: it is off the marketplace.` : `Unsuspended “${a.name}”.`);
      setAsking(null);
    } else if (!isAccessDenied(outcome.error)) {
      setAskError(errorMessage(outcome.error, 'That did not work. Please try again.'));
    }
  };

  return (
    <section className="admin-section" aria-labelledby="admin-agents-heading">
      <SectionHeader id="admin-agents-heading" title="Agents" />
      <ListingFilters label="Find agents">
        <TextField label="Search agents" type="search" placeholder="Name or description" value={searchInput} onChange={(e) => setSearchInput(e.target.value)} autoComplete="off" />
        <SelectField label="State" value={state} onChange={(e) => setState(e.target.value)}>
          <option value="">All</option>
          <option value="draft">Draft</option>
          <option value="in_review">In review</option>
          <option value="published">Published</option>
          <option value="rejected">Rejected</option>
          <option value="suspended">Suspended</option>
        </SelectField>
      </ListingFilters>
      <ListTable
        list={list}
        caption="Agents"
        noun="agents"
        columns={AGENT_COLUMNS}
        emptyText={q || state ? 'No agent matches these filters.' : 'No agents yet.'}
        testId="agents-table"
        renderRow={(a) => (
          <AgentRow
            key={a.id}
            agent={a}
            busy={pending}
            onSuspend={(agent, suspend) => {
              setAskError(null);
              setAsking({ agent, suspend });
            }}
          />
        )}
      />
      {asking ? (
        <ConfirmDialog
          title={asking.suspend ? `Suspend “${asking.agent.name}”?` : `Unsuspend “${asking.agent.name}”?`}
          confirmLabel={asking.suspend ? 'Suspend' : 'Unsuspend'}
          pendingLabel={asking.suspend ? 'Suspending…' : 'Unsuspending…'}
          pending={pending}
          error={askError}
          onConfirm={() => void confirm(asking.agent, asking.suspend)}
          onCancel={() => setAsking(null)}
          testId="suspend-agent-dialog"
        >
          <p>{asking.suspend ? SUSPEND_AGENT_TEXT : UNSUSPEND_AGENT_TEXT}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
