import { Badge, Button, TableCell, TableRow } from '@aws-amplify/ui-react';
import { toast } from '../../../components/notifications/notification-store';
import { formatUsd } from '../../../lib/format';
import { readConflict } from '../api/conflict';
import { readPrompt } from '../api/read-prompt';
import { updatePrompt } from '../api/requests';
import type { AdminPrompt } from '../api/types';
import { reportFailure } from '../components/report-failure';
import { useAdminWrite } from '../components/use-admin-write';
import { formatCount } from '../format';

export const PROMPT_COLUMNS = ['Title', 'Category', 'Price', 'State', 'Free uses', 'Purchases', 'Revenue', 'Rating', 'Actions'] as const;

interface PromptRowProps {
  prompt: AdminPrompt;
  onEdit: (p: AdminPrompt) => void;
  onDelete: (p: AdminPrompt) => void;
  /** The prompt changed (or may have): read the list again. */
  onChanged: () => void;
}

export function PromptRow({ prompt: p, onEdit, onDelete, onChanged }: PromptRowProps) {
  const { run, pending } = useAdminWrite();

  const togglePublished = async () => {
    const published = !p.published;
    const outcome = await run(() => updatePrompt(p.id, p.version, { published }));
    if (!outcome) return;
    if (outcome.ok) toast.success(published ? `Published “${p.title}”.` : `Unpublished “${p.title}”.`);
    else if (readConflict(outcome.error, readPrompt)) toast.error(`“${p.title}” was changed by someone else. The list now shows it as it is; try again.`);
    else reportFailure(outcome.error, 'The change could not be saved. Please try again.');
    onChanged();
  };

  const s = p.stats;
  return (
    <TableRow data-testid="prompt-row" data-prompt-id={p.id}>
      <TableCell className="admin-table__main">
        {p.title}
        {p.featured ? (
          <>
            {' '}
            <Badge size="small" variation="info">
              Featured
            </Badge>
          </>
        ) : null}
      </TableCell>
      <TableCell>{p.category_name || '—'}</TableCell>
      <TableCell className="admin-table__number">{formatUsd(p.price)}</TableCell>
      <TableCell data-testid="prompt-state">
        <Badge size="small" variation={p.published ? 'success' : undefined}>
          {p.published ? 'Published' : 'Unpublished'}
        </Badge>
      </TableCell>
      <TableCell className="admin-table__number">{formatCount(s.free_uses)}</TableCell>
      <TableCell className="admin-table__number">{formatCount(s.purchases)}</TableCell>
      <TableCell className="admin-table__number">{formatUsd(s.revenue)}</TableCell>
      <TableCell>{s.rating_count ? `${s.rating_avg.toFixed(1)} (${formatCount(s.rating_count)})` : 'No ratings'}</TableCell>
      <TableCell>
        <div className="admin-row-actions">
          <Button size="small" onClick={() => onEdit(p)} aria-label={`Edit ${p.title}`}>
            Edit
          </Button>
          <Button size="small" onClick={() => void togglePublished()} isDisabled={pending} aria-label={`${p.published ? 'Unpublish' : 'Publish'} ${p.title}`}>
            {p.published ? 'Unpublish' : 'Publish'}
          </Button>
          <Button size="small" colorTheme="error" onClick={() => onDelete(p)} aria-label={`Delete ${p.title}`}>
            Delete
          </Button>
        </div>
      </TableCell>
    </TableRow>
  );
}
