// "Sync from registry now" (POST /admin/mcp-sync) and what it did.

import { Alert, Button } from '@aws-amplify/ui-react';
import { syncMcpRegistry } from '../api/requests';
import type { SyncResult } from '../api/types';
import { reportFailure } from '../components/report-failure';
import { useAdminWrite } from '../components/use-admin-write';
import { plural } from '../format';

export function syncSummary(r: SyncResult): string {
  return `${plural(r.added, 'server')} added, ${r.updated} updated, ${r.skipped} skipped.`;
}

export function SyncButton({ onStart, onSynced }: { onStart: () => void; onSynced: (result: SyncResult) => void }) {
  const { run, pending } = useAdminWrite();
  const sync = async () => {
    onStart();
    const outcome = await run(syncMcpRegistry);
    if (!outcome) return;
    if (outcome.ok) onSynced(outcome.value);
    else reportFailure(outcome.error, 'The sync could not run. Please try again.');
  };
  return (
    <Button onClick={() => void sync()} isDisabled={pending}>
      {pending ? 'Syncing…' : 'Sync from registry now'}
    </Button>
  );
}

/** The last sync's counts, in a live region so they are announced. */
export function SyncResultNotice({ result, onDismiss }: { result: SyncResult | null; onDismiss: () => void }) {
  return (
    <div role="status" data-testid="sync-result">
      {result ? (
        <Alert variation={result.error ? 'warning' : 'success'} heading="Registry sync done" isDismissible onDismiss={onDismiss}>
          {syncSummary(result)}
          {result.error ? ` It stopped early: ${result.error}` : ''}
        </Alert>
      ) : null}
    </div>
  );
}
