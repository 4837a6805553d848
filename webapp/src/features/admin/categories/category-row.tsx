// One category: its name (renamed in place: Enter saves, Escape cancels),
// its prompt count, and Delete, offered only while no prompt is in it.

import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button, TableCell, TableRow, TextField } from '@aws-amplify/ui-react';
import { toast } from '../../../components/notifications/notification-store';
import { errorMessage } from '../../../lib/api-client';
import { renameCategory } from '../api/requests';
import type { AdminCategory } from '../api/types';
import { isAccessDenied } from '../components/admin-access';
import { useAdminWrite } from '../components/use-admin-write';
import { plural } from '../format';
import { checkCategoryName, tidyCategoryName } from './category-rules';

interface CategoryRowProps {
  category: AdminCategory;
  categories: readonly AdminCategory[];
  onDelete: (c: AdminCategory) => void;
  onChanged: () => void;
}

export function CategoryRow({ category: c, categories, onDelete, onChanged }: CategoryRowProps) {
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(c.name);
  const [error, setError] = useState<string | null>(null);
  const { run, pending } = useAdminWrite();
  const inputRef = useRef<HTMLInputElement>(null);
  const renameButtonRef = useRef<HTMLButtonElement>(null);
  const wasRenaming = useRef(false);
  const hintId = useId();

  // Focus follows the mode: into the field when renaming starts, back to Rename when it ends.
  useEffect(() => {
    if (renaming) {
      inputRef.current?.focus();
      inputRef.current?.select();
    } else if (wasRenaming.current) {
      renameButtonRef.current?.focus();
    }
    wasRenaming.current = renaming;
  }, [renaming]);

  const start = () => {
    setName(c.name);
    setError(null);
    setRenaming(true);
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const next = tidyCategoryName(name);
    if (next === c.name) return setRenaming(false);
    const problem = checkCategoryName(name, categories, c.id);
    if (problem) return setError(problem);
    const outcome = await run(() => renameCategory(c.id, next));
    if (!outcome) return;
    if (outcome.ok) {
      toast.success(`Renamed “${c.name}” to “${next}”.`);
      setRenaming(false);
      onChanged();
    } else if (!isAccessDenied(outcome.error)) {
      setError(errorMessage(outcome.error, 'The category could not be renamed. Please try again.'));
    }
  };

  const inUse = c.prompt_count > 0;
  return (
    <TableRow data-testid="category-row" data-category-id={c.id}>
      <TableCell className="admin-table__main">
        {renaming ? (
          <form className="admin-inline-form" onSubmit={(e) => void save(e)} noValidate>
            <TextField
              ref={inputRef}
              label={`New name for ${c.name}`}
              value={name}
              onChange={(e) => setName(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Escape' && !pending) setRenaming(false);
              }}
              hasError={error !== null}
              errorMessage={error ?? undefined}
              size="small"
              autoComplete="off"
            />
            <Button size="small" type="submit" variation="primary" isDisabled={pending}>
              {pending ? 'Saving…' : 'Save'}
            </Button>
            <Button size="small" onClick={() => setRenaming(false)} isDisabled={pending}>
              Cancel
            </Button>
          </form>
        ) : (
          c.name
        )}
      </TableCell>
      <TableCell className="admin-table__number">{c.prompt_count}</TableCell>
      <TableCell>
        <div className="admin-row-actions">
          {renaming ? null : (
            <Button size="small" ref={renameButtonRef} onClick={start} aria-label={`Rename ${c.name}`}>
              Rename
            </Button>
          )}
          <Button size="small" colorTheme="error" onClick={() => onDelete(c)} isDisabled={inUse} aria-label={`Delete ${c.name}`} aria-describedby={inUse ? hintId : undefined}>
            Delete
          </Button>
        </div>
        {inUse ? (
          <span id={hintId} className="admin-muted admin-row-actions__hint">
            Holds {plural(c.prompt_count, 'prompt')}: move or delete them first.
          </span>
        ) : null}
      </TableCell>
    </TableRow>
  );
}
