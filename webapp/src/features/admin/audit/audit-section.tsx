import { useState } from 'react';
import { TableCell, TableRow, TextField } from '@aws-amplify/ui-react';
import { ListingFilters, SEARCH_DEBOUNCE_MS } from '../../../components/listing/listing';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useAuditLog } from '../api/use-admin-lists';
import { ListTable } from '../components/list-table';
import { SectionHeader } from '../components/section-header';
import { formatUtc } from '../format';
import { AuditChange } from './audit-change';

const COLUMNS = ['When', 'Who', 'Action', 'Target', 'Change'] as const;

/** Every admin change, newest first; read-only. */
export function AuditSection() {
  const [actorInput, setActorInput] = useState('');
  const [targetInput, setTargetInput] = useState('');
  const actor = useDebouncedValue(actorInput.trim(), SEARCH_DEBOUNCE_MS);
  const target = useDebouncedValue(targetInput.trim(), SEARCH_DEBOUNCE_MS);
  const list = useAuditLog({ actor, target });

  return (
    <section className="admin-section" aria-labelledby="admin-audit-heading">
      <SectionHeader id="admin-audit-heading" title="Audit log" />

      <ListingFilters label="Filter the audit log">
        <TextField label="Actor" placeholder="The admin's user id" value={actorInput} onChange={(e) => setActorInput(e.target.value)} autoComplete="off" />
        <TextField label="Target" placeholder="A prompt, agent, server, order or user id" value={targetInput} onChange={(e) => setTargetInput(e.target.value)} autoComplete="off" />
      </ListingFilters>

      <ListTable
        list={list}
        caption="Audit log"
        noun="entries"
        columns={COLUMNS}
        emptyText={actor || target ? 'No entry matches these filters.' : 'No admin change has been made yet.'}
        testId="audit-table"
        renderRow={(e) => (
          <TableRow key={e.id} data-testid="audit-row">
            <TableCell>{formatUtc(e.at)}</TableCell>
            <TableCell>{e.actor_email || e.actor_id}</TableCell>
            <TableCell>
              <code>{e.action}</code>
              {e.pending ? (
                <span className="admin-muted admin-table__sub" data-testid="audit-pending">
                  Pending: it may not have happened
                </span>
              ) : null}
            </TableCell>
            <TableCell>
              {e.target_type} <span className="admin-table__mono">{e.target_id}</span>
            </TableCell>
            <TableCell className="admin-table__diff">
              <AuditChange before={e.before} after={e.after} />
            </TableCell>
          </TableRow>
        )}
      />
    </section>
  );
}
