// "Your prompts": each of the creator's prompts with its state (and a
// published prompt's next version), its counts, and what can be done with
// it now; "New prompt" opens the form.

import { useId, useRef, useState } from 'react';
import { Alert, Button, Heading, Loader } from '@aws-amplify/ui-react';
import { notify } from '../../../components/notifications/notification-store';
import { errorMessage } from '../../../lib/api-client';
import { formatUsd } from '../../../lib/format';
import { deletePrompt, submitPrompt, useCategories, useCreatorPrompts } from '../api/requests';
import type { CreatorPrompt } from '../api/types';
import { canEdit, canSubmit, currentOf, pendingText, promptStateText } from '../prompt-state';
import { PromptForm } from './prompt-form';
import { RowActions } from './row-actions';

interface PromptsSectionProps {
  /** A suspended creator cannot list prompts. */
  suspended: boolean;
  /** After a change the sales table should show (a prompt added or removed). */
  onListChanged: () => void;
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** "3 purchases · 1 free use · rated 4.5 (2)". */
export function countsText(p: Pick<CreatorPrompt, 'purchases' | 'free_uses' | 'rating_avg' | 'rating_count'>): string {
  const rating = p.rating_count > 0 ? `rated ${p.rating_avg.toFixed(1)} (${p.rating_count})` : 'no ratings yet';
  return [plural(p.purchases, 'purchase', 'purchases'), plural(p.free_uses, 'free use', 'free uses'), rating].join(' · ');
}

export function PromptsSection({ suspended, onListChanged }: PromptsSectionProps) {
  const headingId = useId();
  const list = useCreatorPrompts(true);
  const { categories } = useCategories();
  const [editing, setEditing] = useState<CreatorPrompt | 'new' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const newButton = useRef<HTMLButtonElement>(null);

  /** The list with this prompt as the API last answered it. */
  const keep = (p: CreatorPrompt) => {
    void list.mutate(
      (cur) => {
        const items = cur?.items ?? [];
        return { items: items.some((x) => x.id === p.id) ? items.map((x) => (x.id === p.id ? p : x)) : [p, ...items] };
      },
      { revalidate: false },
    );
  };
  const drop = (id: string) => {
    void list.mutate((cur) => ({ items: (cur?.items ?? []).filter((x) => x.id !== id) }), { revalidate: false });
    onListChanged();
  };

  const closeForm = () => {
    setEditing(null);
    newButton.current?.focus();
  };

  const submit = async (p: CreatorPrompt) => {
    setFailure(null);
    try {
      keep(await submitPrompt(p.id));
      notify('success', 'Sent for review.');
    } catch (err) {
      const current = currentOf(err);
      if (current) keep(current);
      setFailure(errorMessage(err, 'The prompt could not be sent for review. Please try again.'));
    }
  };

  const remove = async (p: CreatorPrompt) => {
    setFailure(null);
    try {
      await deletePrompt(p.id, p.version);
      drop(p.id);
      notify('success', p.purchases + p.free_uses > 0 ? 'Taken off the marketplace: its buyers keep it.' : 'Prompt deleted.');
    } catch (err) {
      const current = currentOf(err);
      if (current) keep(current);
      setFailure(errorMessage(err, 'The prompt could not be deleted. Please try again.'));
    }
  };

  return (
    <section className="creator-section" aria-labelledby={headingId}>
      <div className="creator-section__head">
        <Heading level={2} id={headingId} className="section-title">
          Your prompts
        </Heading>
        {editing === null ? (
          <Button ref={newButton} variation="primary" onClick={() => setEditing('new')} isDisabled={suspended}>
            New prompt
          </Button>
        ) : null}
      </div>
      {suspended ? <p className="creator-muted">Your creator account is suspended: your prompts are off the marketplace and you cannot list new ones.</p> : null}
      {editing !== null ? (
        <PromptForm
          key={editing === 'new' ? 'new' : editing.id}
          prompt={editing === 'new' ? null : editing}
          categories={categories}
          onClose={closeForm}
          onChanged={(p) => {
            keep(p);
            if (editing === 'new') onListChanged();
          }}
          onDone={(message) => {
            notify('success', message);
            closeForm();
          }}
        />
      ) : null}
      {failure ? (
        <Alert variation="error" data-testid="prompts-error" isDismissible onDismiss={() => setFailure(null)}>
          {failure}
        </Alert>
      ) : null}
      {list.isLoading ? (
        <Loader ariaLabel="Loading your prompts" />
      ) : list.error ? (
        <p className="creator-muted">Your prompts could not be loaded.</p>
      ) : list.prompts.length === 0 ? (
        <p className="creator-muted">No prompts yet. Write one with New prompt: it stays a draft until you submit it for review.</p>
      ) : (
        <ul className="creator-prompts" aria-labelledby={headingId}>
          {list.prompts.map((p) => (
            <PromptRow
              key={p.id}
              prompt={p}
              editingThis={editing !== null && editing !== 'new' && editing.id === p.id}
              onEdit={() => setEditing(p)}
              onSubmit={() => void submit(p)}
              onDelete={() => void remove(p)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

interface PromptRowProps {
  prompt: CreatorPrompt;
  editingThis: boolean;
  onEdit: () => void;
  onSubmit: () => void;
  onDelete: () => void;
}

function PromptRow({ prompt: p, editingThis, onEdit, onSubmit, onDelete }: PromptRowProps) {
  const titleId = useId();
  const next = pendingText(p);

  return (
    <li className="creator-prompt" aria-labelledby={titleId} data-testid="creator-prompt">
      <div className="creator-prompt__head">
        <span id={titleId} className="creator-prompt__title">
          {p.title}
        </span>
        <span className={`creator-badge creator-badge--${p.state}`} data-testid="prompt-state">
          {promptStateText(p)}
        </span>
      </div>
      {next ? (
        <p className="creator-prompt__next" data-testid="prompt-next-version">
          {next}
        </p>
      ) : null}
      <p className="creator-muted">
        {formatUsd(p.price)} · {p.category_name || p.category_id} · {countsText(p)}
      </p>
      <RowActions
        confirmLabel={`Delete ${p.title}?`}
        question={p.purchases + p.free_uses > 0 ? 'Take it off the marketplace? Its buyers keep it.' : 'Delete this prompt?'}
        onDelete={onDelete}
      >
        {canEdit(p) && !editingThis ? (
          <Button size="small" onClick={onEdit}>
            Edit
          </Button>
        ) : null}
        {canSubmit(p) ? (
          <Button size="small" variation="primary" onClick={onSubmit}>
            Submit for review
          </Button>
        ) : null}
      </RowActions>
    </li>
  );
}
