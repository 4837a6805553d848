// "Sync from registry now" (POST /admin/mcp-sync) and what it did.

import { Alert, Button } from '@aws-amplify/ui-react';
import { syncMcpRegistry } from '../api/requests';
import type { SyncResult } from '../api/types';
import { reportFailure } from '../components/report-failure';
import { useAdminWrite } from '../components/use-admin-write';
import { plural } from '../format';

export function syncSummary(r: SyncResult): string {
  const counts = `${plural(r.upserted, 'server')} written, ${r.deactivated} deactivated, ${r.skipped} skipped`;
  return r.registry
    ? `${counts} (${plural(r.pages, 'registry page')}).`
    : `${counts}. No registry is set up (MCP_REGISTRY_URL), so only the committed seed was written again.`;
}

export function SyncButton({ onStart, onSynced }: { onStart: () => void; onSynced: (result: SyncResult) => void }) {
  const { run, pending } = useAdminWrite();
  const sync = async () => {
    onStart();
    const outcome = await run(syncMcpRegistry);
    if (!outcome) return;
    if (outcome.ok) onSynced(outcome.value);
    // e.g. 502: the registry failed (the detail says how); 503: syncing is not set up.
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
        <Alert variation={result.registry ? 'success' : 'info'} heading="Registry sync done" isDismissible onDismiss={onDismiss}>
          {syncSummary(result)}
        </Alert>
      ) : null}
    </div>
  );
}
