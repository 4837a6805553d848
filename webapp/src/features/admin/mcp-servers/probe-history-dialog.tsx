import { useId } from 'react';
import { Alert, Button, Loader, Table, TableBody, TableCell, TableHead, TableRow } from '@aws-amplify/ui-react';
import { DetailModal } from '../../../components/detail-modal';
import { errorMessage } from '../../../lib/api-client';
import type { AdminMcpServer } from '../api/types';
import { useMcpProbes } from '../api/use-admin-lists';
import { formatUtc } from '../format';
import { healthLabel } from './health-status';

/** The server's last 50 probes, newest as the API orders them. */
export function ProbeHistoryDialog({ server, onClose }: { server: AdminMcpServer; onClose: () => void }) {
  const titleId = useId();
  const probes = useMcpProbes(server.id);
  return (
    <DetailModal
      titleId={titleId}
      title={`Probe history: ${server.name}`}
      onClose={onClose}
      className="admin-probes"
      testId="probe-history"
      footer={<Button onClick={onClose}>Close</Button>}
    >
      <div className="detail-modal__body">
        {probes.error !== undefined ? (
          <Alert variation="error" heading="Could not load the probe history.">
            <span>{errorMessage(probes.error, 'Please try again.')}</span>{' '}
            <Button size="small" onClick={() => void probes.mutate()}>
              Retry
            </Button>
          </Alert>
        ) : probes.data === undefined ? (
          <div role="status" className="admin-list__loading">
            <Loader aria-hidden="true" /> Loading probes…
          </div>
        ) : probes.data.length === 0 ? (
          <p data-testid="empty-state">No probe has run on this server yet.</p>
        ) : (
          <div className="admin-table-frame" role="region" aria-label="Probes" tabIndex={0}>
            <Table size="small" className="admin-table">
              <TableHead>
                <TableRow>
                  {['When', 'Status', 'Latency', 'Tools', 'Error'].map((c) => (
                    <TableCell as="th" key={c} scope="col">
                      {c}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {probes.data.map((p, i) => (
                  <TableRow key={`${p.at}-${i}`} data-testid="probe-row">
                    <TableCell>{formatUtc(p.at)}</TableCell>
                    <TableCell>{healthLabel(p.status)}</TableCell>
                    <TableCell className="admin-table__number">{p.latency_ms} ms</TableCell>
                    <TableCell className="admin-table__number">{p.tools_count}</TableCell>
                    <TableCell>{p.error || '—'}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
      </div>
    </DetailModal>
  );
}
