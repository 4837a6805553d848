import { useState } from 'react';
import { Alert, Button, SelectField, TextField } from '@aws-amplify/ui-react';
import { ListingFilters, SEARCH_DEBOUNCE_MS } from '../../../components/listing/listing';
import { toast } from '../../../components/notifications/notification-store';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import type { AdminMcpServer, McpServerSaved, McpServerState, SyncResult } from '../api/types';
import { useAdminMcpServers } from '../api/use-admin-lists';
import { ListTable } from '../components/list-table';
import { SectionHeader } from '../components/section-header';
import { ProbeHistoryDialog } from './probe-history-dialog';
import { ServerEditor } from './server-editor';
import { SERVER_COLUMNS, ServerRow } from './server-row';
import { SyncButton, SyncResultNotice } from './sync-button';

const STATES: readonly { value: McpServerState; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'enabled', label: 'Enabled' },
  { value: 'disabled', label: 'Disabled' },
];

export function McpServersSection() {
  const [searchInput, setSearchInput] = useState('');
  const q = useDebouncedValue(searchInput.trim(), SEARCH_DEBOUNCE_MS);
  const [state, setState] = useState<McpServerState>('all');
  const list = useAdminMcpServers({ q, state });

  const [editing, setEditing] = useState<{ server: AdminMcpServer | null } | null>(null);
  const [history, setHistory] = useState<AdminMcpServer | null>(null);
  // The API's warning about the last save (saved, but disabled: the outbound rules refuse its endpoint).
  const [warning, setWarning] = useState<{ name: string; text: string } | null>(null);
  const [synced, setSynced] = useState<SyncResult | null>(null);
  const refresh = () => void list.refresh();

  const saved = (result: McpServerSaved | null, created: boolean) => {
    const name = result?.server.name ?? 'the server';
    toast.success(created ? `Added “${name}”.` : `Saved “${name}”.`);
    setWarning(result?.warning ? { name, text: result.warning } : null);
    setEditing(null);
    refresh();
  };

  return (
    <section className="admin-section" aria-labelledby="admin-mcp-heading">
      <SectionHeader id="admin-mcp-heading" title="MCP servers">
        <Button variation="primary" onClick={() => setEditing({ server: null })}>
          Add server
        </Button>
        <SyncButton
          onStart={() => setSynced(null)}
          onSynced={(result) => {
            setSynced(result);
            refresh();
          }}
        />
      </SectionHeader>
      <SyncResultNotice result={synced} onDismiss={() => setSynced(null)} />

      {warning ? (
        <Alert variation="warning" heading={`“${warning.name}” was saved, disabled`} isDismissible onDismiss={() => setWarning(null)} data-testid="server-warning">
          {warning.text}
        </Alert>
      ) : null}

      <ListingFilters label="Filter MCP servers">
        <TextField label="Search servers" type="search" placeholder="Name or description" value={searchInput} onChange={(e) => setSearchInput(e.target.value)} autoComplete="off" />
        <SelectField label="State" value={state} onChange={(e) => setState(e.target.value as McpServerState)}>
          {STATES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </SelectField>
      </ListingFilters>

      <ListTable
        list={list}
        caption="MCP servers"
        noun="servers"
        columns={SERVER_COLUMNS}
        emptyText={q || state !== 'all' ? 'No server matches these filters.' : 'No MCP servers yet. Add one, or sync from the registry.'}
        testId="servers-table"
        renderRow={(s) => <ServerRow key={s.id} server={s} onEdit={(server) => setEditing({ server })} onHistory={setHistory} onChanged={refresh} />}
      />

      {editing ? <ServerEditor server={editing.server} onClose={() => setEditing(null)} onSaved={saved} /> : null}
      {history ? <ProbeHistoryDialog server={history} onClose={() => setHistory(null)} /> : null}
    </section>
  );
}
