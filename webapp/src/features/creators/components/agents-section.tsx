// "Your agents": each of the creator's agents with its state (as prompts:
// draft, in review, published, rejected with the reason, a next version,
// withdrawn; and suspended by an admin), its model, servers, price and
// counts, and what can be done with it now (Edit, Submit for review,
// Export, Delete). "New agent" opens the form; "Import agent" makes a
// draft from an agent file or a LobeChat agent file.

import { useId, useRef, useState } from 'react';
import { Alert, Button, Heading, Loader } from '@aws-amplify/ui-react';
import { notify } from '../../../components/notifications/notification-store';
import { errorMessage } from '../../../lib/api-client';
import { llmProviderLabel } from '../../../lib/llm-providers';
import { fileSaver } from '../../../lib/save-file';
import { deleteAgent, exportAgent, submitAgent, useCreatorAgents } from '../api/agent-requests';
import type { CreatorAgent } from '../api/agent-types';
import { useCategories } from '../api/requests';
import { agentPriceText, toolCount } from '../agent-rules';
import { canEdit, canSubmit, currentOf, pendingText, promptStateText } from '../prompt-state';
import { AgentForm } from './agent-form';
import { AgentImport } from './agent-import';
import { RowActions } from './row-actions';

interface AgentsSectionProps {
  /** A suspended creator cannot list agents. */
  suspended: boolean;
  /** Payouts enabled: a paid agent can be approved. */
  payoutsEnabled: boolean;
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** "2 servers, 5 tools · 3 purchases · rated 4.5 (2)". */
export function agentCountsText(a: Pick<CreatorAgent, 'servers' | 'purchases' | 'rating_avg' | 'rating_count'>): string {
  const rating = a.rating_count > 0 ? `rated ${a.rating_avg.toFixed(1)} (${a.rating_count})` : 'no ratings yet';
  const servers = a.servers.length ? `${plural(a.servers.length, 'server', 'servers')}, ${plural(toolCount(a.servers), 'tool', 'tools')}` : 'no MCP servers';
  return [servers, plural(a.purchases, 'purchase', 'purchases'), rating].join(' · ');
}

/** The state in words; an admin's suspension is said first. */
export function agentStateText(a: CreatorAgent): string {
  const text = promptStateText(a);
  return a.suspended && !a.withdrawn ? `Suspended by an admin: off the marketplace (${text})` : text;
}

type Panel = { kind: 'form'; agent: CreatorAgent | null } | { kind: 'import' } | null;

export function AgentsSection({ suspended, payoutsEnabled }: AgentsSectionProps) {
  const headingId = useId();
  const list = useCreatorAgents(true);
  const { categories } = useCategories();
  const [panel, setPanel] = useState<Panel>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const newButton = useRef<HTMLButtonElement>(null);

  /** The list with this agent as the API last answered it. */
  const keep = (a: CreatorAgent) => {
    void list.mutate(
      (cur) => {
        const items = cur?.items ?? [];
        return { items: items.some((x) => x.id === a.id) ? items.map((x) => (x.id === a.id ? a : x)) : [a, ...items] };
      },
      { revalidate: false },
    );
  };
  const drop = (id: string) => {
    void list.mutate((cur) => ({ items: (cur?.items ?? []).filter((x) => x.id !== id) }), { revalidate: false });
  };

  const closePanel = () => {
    setPanel(null);
    newButton.current?.focus();
  };

  const submit = async (a: CreatorAgent) => {
    setFailure(null);
    try {
      keep(await submitAgent(a.id));
      notify('success', 'Sent for review.');
    } catch (err) {
      const current = currentOf<CreatorAgent>(err);
      if (current) keep(current);
      setFailure(errorMessage(err, 'The agent could not be sent for review. Please try again.'));
    }
  };

  const remove = async (a: CreatorAgent) => {
    setFailure(null);
    try {
      await deleteAgent(a.id, a.version);
      if (a.purchases > 0) void list.mutate();
      else drop(a.id);
      notify('success', a.purchases > 0 ? 'Taken off the marketplace: its buyers keep it.' : 'Agent deleted.');
    } catch (err) {
      const current = currentOf<CreatorAgent>(err);
      if (current) keep(current);
      setFailure(errorMessage(err, 'The agent could not be deleted. Please try again.'));
    }
  };

  const download = async (a: CreatorAgent) => {
    setFailure(null);
    try {
      const { blob, fileName } = await exportAgent(a.id, a.name);
      fileSaver.save(blob, fileName);
    } catch (err) {
      setFailure(errorMessage(err, 'The agent could not be exported. Please try again.'));
    }
  };

  const editing = panel?.kind === 'form' ? panel.agent : null;

  return (
    <section className="creator-section" aria-labelledby={headingId}>
      <div className="creator-section__head">
        <Heading level={2} id={headingId} className="section-title">
          Your agents
        </Heading>
        {panel === null ? (
          <div className="creator-actions">
            <Button ref={newButton} variation="primary" onClick={() => setPanel({ kind: 'form', agent: null })} isDisabled={suspended}>
              New agent
            </Button>
            <Button onClick={() => setPanel({ kind: 'import' })} isDisabled={suspended}>
              Import agent
            </Button>
          </div>
        ) : null}
      </div>
      <p className="creator-muted">
        An agent is instructions, a model, MCP tools and starter prompts that others run in the chat. Free or paid; each version goes through review, as prompts do.
      </p>
      {suspended ? <p className="creator-muted">Your creator account is suspended: your agents are off the marketplace and you cannot list new ones.</p> : null}
      {panel?.kind === 'form' ? (
        <AgentForm
          key={panel.agent ? panel.agent.id : 'new'}
          agent={panel.agent}
          categories={categories}
          payoutsEnabled={payoutsEnabled}
          onClose={closePanel}
          onChanged={keep}
          onDone={(message) => {
            notify('success', message);
            closePanel();
          }}
        />
      ) : null}
      {panel?.kind === 'import' ? <AgentImport onImported={keep} onEdit={(a) => setPanel({ kind: 'form', agent: a })} onClose={closePanel} /> : null}
      {failure ? (
        <Alert variation="error" data-testid="agents-error" isDismissible onDismiss={() => setFailure(null)}>
          {failure}
        </Alert>
      ) : null}
      {list.isLoading ? (
        <Loader ariaLabel="Loading your agents" />
      ) : list.error ? (
        <p className="creator-muted">Your agents could not be loaded.</p>
      ) : list.agents.length === 0 ? (
        <p className="creator-muted">No agents yet. Make one with New agent, or import an agent file: it stays a draft until you submit it for review.</p>
      ) : (
        <ul className="creator-prompts" aria-labelledby={headingId}>
          {list.agents.map((a) => (
            <AgentRow
              key={a.id}
              agent={a}
              editingThis={editing !== null && editing.id === a.id}
              onEdit={() => setPanel({ kind: 'form', agent: a })}
              onSubmit={() => void submit(a)}
              onExport={() => void download(a)}
              onDelete={() => void remove(a)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

interface AgentRowProps {
  agent: CreatorAgent;
  editingThis: boolean;
  onEdit: () => void;
  onSubmit: () => void;
  onExport: () => void;
  onDelete: () => void;
}

function AgentRow({ agent: a, editingThis, onEdit, onSubmit, onExport, onDelete }: AgentRowProps) {
  const nameId = useId();
  const next = pendingText(a);
  return (
    <li className="creator-prompt" aria-labelledby={nameId} data-testid="creator-agent" data-agent-id={a.id}>
      <div className="creator-prompt__head">
        <span id={nameId} className="creator-prompt__title">
          {a.name}
        </span>
        <span className={`creator-badge creator-badge--${a.suspended ? 'rejected' : a.state}`} data-testid="agent-state">
          {agentStateText(a)}
        </span>
      </div>
      {next ? (
        <p className="creator-prompt__next" data-testid="agent-next-version">
          {next}
        </p>
      ) : null}
      <p className="creator-muted">
        {agentPriceText(a.price)} · {a.category_name || a.category_id} · {llmProviderLabel(a.provider)} {a.model}
      </p>
      <p className="creator-muted">{agentCountsText(a)}</p>
      <RowActions
        confirmLabel={`Delete ${a.name}?`}
        question={a.purchases > 0 ? 'Take it off the marketplace? Its buyers keep it.' : 'Delete this agent?'}
        onDelete={onDelete}
      >
        {canEdit(a) && !editingThis ? (
          <Button size="small" onClick={onEdit}>
            Edit
          </Button>
        ) : null}
        {canSubmit(a) ? (
          <Button size="small" variation="primary" onClick={onSubmit}>
            Submit for review
          </Button>
        ) : null}
        <Button size="small" onClick={onExport} aria-label={`Export ${a.name}`}>
          Export
        </Button>
      </RowActions>
    </li>
  );
}
