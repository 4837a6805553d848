// A paged admin table: Retry on a failure, a status while the first page
// loads, "Showing N of M", the empty text, the rows, and "Load more". At
// phone width the table scrolls sideways inside its frame, which is a
// focusable region so keyboard users can scroll it too.

import { useId, type ReactNode } from 'react';
import { Alert, Button, Loader, Table, TableBody, TableCell, TableHead, TableRow } from '@aws-amplify/ui-react';
import { errorMessage } from '../../../lib/api-client';
import type { PagedList } from '../api/use-paged-list';
import { formatCount } from '../format';

interface ListTableProps<T> {
  list: Pick<PagedList<T>, 'items' | 'total' | 'loading' | 'loadingMore' | 'busy' | 'hasMore' | 'loadMore' | 'error' | 'refresh'>;
  /** Names the table ('Prompts'). */
  caption: string;
  /** What the rows are, in the plural ('prompts'). */
  noun: string;
  columns: readonly string[];
  /** Shown when nothing matches. */
  emptyText: string;
  testId: string;
  renderRow: (item: T) => ReactNode;
  /** The list comes whole (one page of up to 100): no "Showing N of M" line. */
  whole?: boolean;
}

export function ListTable<T>({ list, caption, noun, columns, emptyText, testId, renderRow, whole }: ListTableProps<T>) {
  const captionId = useId();
  const { items } = list;

  if (list.error !== undefined && items.length === 0) {
    return (
      <Alert variation="error" heading={`Could not load the ${noun}.`} className="admin-list__error" data-testid={`${testId}-error`}>
        <span>{errorMessage(list.error, 'Please check your connection and try again.')}</span>{' '}
        <Button size="small" onClick={() => void list.refresh()}>
          Retry
        </Button>
      </Alert>
    );
  }
  if (list.loading) {
    return (
      <div className="admin-list__loading" role="status">
        <Loader aria-hidden="true" /> Loading {noun}…
      </div>
    );
  }
  return (
    <div className="admin-list" data-testid={testId}>
      {whole ? null : (
        <p className="admin-list__count" aria-live="polite" data-testid={`${testId}-count`}>
          {list.total === null
            ? `Showing ${formatCount(items.length)} ${noun}${list.hasMore ? ', more below' : ''}`
            : `Showing ${formatCount(items.length)} of ${formatCount(list.total)} ${noun}`}
        </p>
      )}
      {items.length === 0 ? (
        <p className="admin-list__empty" data-testid="empty-state">
          {emptyText}
        </p>
      ) : (
        <div className="admin-table-frame" role="region" aria-labelledby={captionId} tabIndex={0}>
          <Table size="small" className="admin-table" aria-busy={list.busy}>
            <caption id={captionId} className="admin-table__caption">
              {caption}
            </caption>
            <TableHead>
              <TableRow>
                {columns.map((c) => (
                  <TableCell as="th" key={c} scope="col">
                    {c}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>{items.map(renderRow)}</TableBody>
          </Table>
        </div>
      )}
      {list.error !== undefined && items.length > 0 ? (
        <Alert variation="error" className="admin-list__error">
          <span>{errorMessage(list.error, `Could not load more ${noun}.`)}</span>{' '}
          <Button size="small" onClick={() => void list.refresh()}>
            Retry
          </Button>
        </Alert>
      ) : null}
      {list.hasMore ? (
        <Button className="admin-list__more" onClick={list.loadMore} isDisabled={list.loadingMore}>
          {list.loadingMore ? `Loading more ${noun}…` : `Load more ${noun}`}
        </Button>
      ) : null}
    </div>
  );
}
