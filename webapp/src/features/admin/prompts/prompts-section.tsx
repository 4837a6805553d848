import { useState } from 'react';
import { Button, SelectField, TextField } from '@aws-amplify/ui-react';
import { ListingFilters, SEARCH_DEBOUNCE_MS } from '../../../components/listing/listing';
import { toast } from '../../../components/notifications/notification-store';
import { errorMessage } from '../../../lib/api-client';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { deletePrompt } from '../api/requests';
import type { AdminPrompt, PromptState } from '../api/types';
import { useAdminCategories, useAdminPrompts } from '../api/use-admin-lists';
import { ConfirmDialog } from '../components/confirm-dialog';
import { ListTable } from '../components/list-table';
import { SectionHeader } from '../components/section-header';
import { useAdminWrite } from '../components/use-admin-write';
import { PromptEditor } from './prompt-editor';
import { PROMPT_COLUMNS, PromptRow } from './prompt-row';

const STATES: readonly { value: PromptState; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'published', label: 'Published' },
  { value: 'unpublished', label: 'Unpublished' },
];

export function PromptsSection() {
  const [searchInput, setSearchInput] = useState('');
  const q = useDebouncedValue(searchInput.trim(), SEARCH_DEBOUNCE_MS);
  const [category, setCategory] = useState('');
  const [state, setState] = useState<PromptState>('all');
  const list = useAdminPrompts({ q, category, state });
  const categories = useAdminCategories();

  // The editor: null closed, { prompt: null } a new prompt.
  const [editing, setEditing] = useState<{ prompt: AdminPrompt | null } | null>(null);
  const [deleting, setDeleting] = useState<AdminPrompt | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const removal = useAdminWrite();

  const refresh = () => {
    void list.refresh();
    // Prompt counts per category move with every create, move and delete.
    void categories.refresh();
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeleteError(null);
    const outcome = await removal.run(() => deletePrompt(deleting.id, deleting.version));
    if (!outcome) return;
    if (!outcome.ok) {
      // e.g. 409: somebody owns it; the API says to unpublish it instead.
      setDeleteError(errorMessage(outcome.error, 'The prompt could not be deleted. Please try again.'));
      return;
    }
    toast.success(`Deleted “${deleting.title}”.`);
    setDeleting(null);
    refresh();
  };

  return (
    <section className="admin-section" aria-labelledby="admin-prompts-heading">
      <SectionHeader id="admin-prompts-heading" title="Prompts">
        <Button variation="primary" onClick={() => setEditing({ prompt: null })}>
          New prompt
        </Button>
      </SectionHeader>

      <ListingFilters label="Filter prompts">
        <TextField label="Search prompts" type="search" placeholder="Title or description" value={searchInput} onChange={(e) => setSearchInput(e.target.value)} autoComplete="off" />
        <SelectField label="Category" value={category} onChange={(e) => setCategory(e.target.value)}>
          <option value="">All categories</option>
          {categories.items.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </SelectField>
        <SelectField label="State" value={state} onChange={(e) => setState(e.target.value as PromptState)}>
          {STATES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </SelectField>
      </ListingFilters>

      <ListTable
        list={list}
        caption="Prompts"
        noun="prompts"
        columns={PROMPT_COLUMNS}
        emptyText={q || category || state !== 'all' ? 'No prompt matches these filters.' : 'No prompts yet. Create the first one with New prompt.'}
        testId="prompts-table"
        renderRow={(p) => (
          <PromptRow
            key={p.id}
            prompt={p}
            onEdit={(prompt) => setEditing({ prompt })}
            onDelete={(prompt) => {
              setDeleteError(null);
              setDeleting(prompt);
            }}
            onChanged={refresh}
          />
        )}
      />

      {editing ? (
        <PromptEditor
          prompt={editing.prompt}
          categories={categories.items}
          onClose={() => setEditing(null)}
          onSaved={(saved, created) => {
            const title = saved?.title ?? 'the prompt';
            toast.success(created ? `Created “${title}”.` : `Saved “${title}”.`);
            setEditing(null);
            refresh();
          }}
        />
      ) : null}

      {deleting ? (
        <ConfirmDialog
          title={`Delete “${deleting.title}”?`}
          confirmLabel="Delete prompt"
          pendingLabel="Deleting…"
          pending={removal.pending}
          error={deleteError}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setDeleting(null)}
        >
          <p>The prompt is removed for good. A prompt somebody owns cannot be deleted: unpublish it instead.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
