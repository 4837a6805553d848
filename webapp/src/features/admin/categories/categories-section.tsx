import { useState, type FormEvent } from 'react';
import { Button, TextField } from '@aws-amplify/ui-react';
import { toast } from '../../../components/notifications/notification-store';
import { errorMessage } from '../../../lib/api-client';
import { createCategory, deleteCategory } from '../api/requests';
import type { AdminCategory } from '../api/types';
import { useAdminCategories } from '../api/use-admin-lists';
import { isAccessDenied } from '../components/admin-access';
import { ConfirmDialog } from '../components/confirm-dialog';
import { ListTable } from '../components/list-table';
import { SectionHeader } from '../components/section-header';
import { useAdminWrite } from '../components/use-admin-write';
import { CategoryRow } from './category-row';
import { CATEGORY_NAME_MAX, checkCategoryName, tidyCategoryName } from './category-rules';

const COLUMNS = ['Name', 'Prompts', 'Actions'] as const;

export function CategoriesSection() {
  const list = useAdminCategories();
  const [newName, setNewName] = useState('');
  const [createError, setCreateError] = useState<string | null>(null);
  const creation = useAdminWrite();
  const [deleting, setDeleting] = useState<AdminCategory | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const removal = useAdminWrite();

  const create = async (e: FormEvent) => {
    e.preventDefault();
    const problem = checkCategoryName(newName, list.items);
    setCreateError(problem);
    if (problem) return;
    const name = tidyCategoryName(newName);
    const outcome = await creation.run(() => createCategory(name));
    if (!outcome) return;
    if (outcome.ok) {
      toast.success(`Created “${name}”.`);
      setNewName('');
      void list.refresh();
    } else if (!isAccessDenied(outcome.error)) {
      // 409: the name is taken (perhaps just now, by another admin).
      setCreateError(errorMessage(outcome.error, 'The category could not be created. Please try again.'));
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeleteError(null);
    const outcome = await removal.run(() => deleteCategory(deleting.id));
    if (!outcome) return;
    if (!outcome.ok) {
      setDeleteError(errorMessage(outcome.error, 'The category could not be deleted. Please try again.'));
      return;
    }
    toast.success(`Deleted “${deleting.name}”.`);
    setDeleting(null);
    void list.refresh();
  };

  return (
    <section className="admin-section" aria-labelledby="admin-categories-heading">
      <SectionHeader id="admin-categories-heading" title="Categories" />

      <form className="admin-inline-form admin-create-form" aria-label="New category" onSubmit={(e) => void create(e)} noValidate>
        <TextField
          label="New category name"
          value={newName}
          onChange={(e) => setNewName(e.target.value)}
          hasError={createError !== null}
          errorMessage={createError ?? undefined}
          descriptiveText={`1–${CATEGORY_NAME_MAX} characters, unlike any other category's name.`}
          autoComplete="off"
        />
        <Button type="submit" variation="primary" isDisabled={creation.pending}>
          {creation.pending ? 'Adding…' : 'Add category'}
        </Button>
      </form>

      <ListTable
        list={list}
        caption="Categories"
        noun="categories"
        columns={COLUMNS}
        emptyText="No categories yet. Add the first one above."
        testId="categories-table"
        whole
        renderRow={(c) => (
          <CategoryRow
            key={c.id}
            category={c}
            categories={list.items}
            onDelete={(category) => {
              setDeleteError(null);
              setDeleting(category);
            }}
            onChanged={() => void list.refresh()}
          />
        )}
      />

      {deleting ? (
        <ConfirmDialog
          title={`Delete “${deleting.name}”?`}
          confirmLabel="Delete category"
          pendingLabel="Deleting…"
          pending={removal.pending}
          error={deleteError}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setDeleting(null)}
        >
          <p>The category is removed for good. It holds no prompt.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
