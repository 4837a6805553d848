import { useState } from 'react';
import { Badge, Button, TableCell, TableRow } from '@aws-amplify/ui-react';
import { toast } from '../../../components/notifications/notification-store';
import { readConflict } from '../api/conflict';
import { readServer } from '../api/read-mcp';
import { probeMcpServer, updateMcpServer } from '../api/requests';
import type { AdminMcpServer, McpHealth, McpSource } from '../api/types';
import { reportFailure } from '../components/report-failure';
import { useAdminWrite } from '../components/use-admin-write';
import { authLabel } from './server-rules';
import { healthFacts, healthLabel, HealthStatus } from './health-status';

export const SERVER_COLUMNS = ['Name', 'Endpoint', 'Model type', 'Auth', 'Health', 'Enabled', 'Actions'] as const;

const SOURCES: Record<McpSource, string> = {
  seed: 'From the seed catalogue',
  registry: 'From the registry',
  local: 'Local',
  admin: 'Added by an admin',
};

interface ServerRowProps {
  server: AdminMcpServer;
  onEdit: (s: AdminMcpServer) => void;
  onHistory: (s: AdminMcpServer) => void;
  onChanged: () => void;
}

/** The newer of two health reports (a probe's answer may come before the list catches up). */
function newer(a: McpHealth, b: McpHealth | null): McpHealth {
  if (!b) return a;
  return (Date.parse(b.checked_at) || 0) > (Date.parse(a.checked_at) || 0) ? b : a;
}

export function ServerRow({ server: s, onEdit, onHistory, onChanged }: ServerRowProps) {
  const toggle = useAdminWrite();
  const probe = useAdminWrite();
  const [probed, setProbed] = useState<McpHealth | null>(null);
  const health = newer(s.health, probed);

  const toggleEnabled = async () => {
    const enabled = !s.enabled;
    const outcome = await toggle.run(() => updateMcpServer(s.id, s.version, { enabled }));
    if (!outcome) return;
    if (outcome.ok) {
      // Enabling an endpoint the outbound rules refuse leaves it disabled, with the API's warning.
      if (outcome.value?.warning) toast.warning(outcome.value.warning);
      else toast.success(enabled ? `Enabled “${s.name}”.` : `Disabled “${s.name}”.`);
    } else if (readConflict(outcome.error, readServer)) {
      toast.error(`“${s.name}” was changed by someone else. The list now shows it as it is; try again.`);
    } else {
      reportFailure(outcome.error, 'The change could not be saved. Please try again.');
    }
    onChanged();
  };

  const probeNow = async () => {
    const outcome = await probe.run(() => probeMcpServer(s.id));
    if (!outcome) return;
    if (!outcome.ok) return reportFailure(outcome.error, 'The probe could not run. Please try again.');
    const h = outcome.value;
    setProbed(h);
    toast.info(`Probe of “${s.name}”: ${healthLabel(h.status)}, ${healthFacts(h)}${h.error ? ` (${h.error})` : ''}.`);
    onChanged();
  };

  return (
    <TableRow data-testid="server-row" data-server-id={s.id}>
      <TableCell className="admin-table__main">
        {s.name}
        <span className="admin-muted admin-table__sub">
          {SOURCES[s.source]}
          {s.registry_name ? ` · ${s.registry_name}` : ''}
        </span>
      </TableCell>
      <TableCell className="admin-table__url">{s.endpoint_url}</TableCell>
      <TableCell>{s.model_type || '—'}</TableCell>
      <TableCell>{authLabel(s.auth)}</TableCell>
      <TableCell>
        <HealthStatus health={health} />
      </TableCell>
      <TableCell data-testid="server-enabled">
        <Badge size="small" variation={s.enabled ? 'success' : undefined}>
          {s.enabled ? 'Enabled' : 'Disabled'}
        </Badge>
        {s.enabled && !s.listed ? <span className="admin-muted admin-table__sub">Not listed: the registry retired it</span> : null}
      </TableCell>
      <TableCell>
        <div className="admin-row-actions">
          <Button size="small" onClick={() => onEdit(s)} aria-label={`Edit ${s.name}`}>
            Edit
          </Button>
          <Button size="small" onClick={() => void toggleEnabled()} isDisabled={toggle.pending} aria-label={`${s.enabled ? 'Disable' : 'Enable'} ${s.name}`}>
            {s.enabled ? 'Disable' : 'Enable'}
          </Button>
          <Button size="small" onClick={() => void probeNow()} isDisabled={probe.pending} aria-label={`Probe ${s.name} now`}>
            {probe.pending ? 'Probing…' : 'Probe now'}
          </Button>
          <Button size="small" onClick={() => onHistory(s)} aria-label={`Probe history of ${s.name}`}>
            History
          </Button>
        </div>
      </TableCell>
    </TableRow>
  );
}
