import { useState } from 'react';
import { Alert, Button, SelectField, TextField, VisuallyHidden } from '@aws-amplify/ui-react';
import { Link } from 'react-router';
import { Page } from '../../../components/page';
import { COPY_TOAST_MS, toast } from '../../../components/notifications/notification-store';
import { errorMessage } from '../../../lib/api-client';
import { copyToClipboard } from '../../../lib/clipboard';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useAuth } from '../../auth/use-auth';
import type { McpServer } from '../api/types';
import { useMcpConnections } from '../api/use-mcp-connections';
import { useMcpServers } from '../api/use-mcp-servers';
import { filterServers } from '../filter-servers';
import { countMessage, MESSAGES } from '../messages';
import { distinctModelTypes, modelTypeEmoji, modelTypeLabel } from '../model-types';
import { useNow } from '../use-now';
import { ConnectDialog } from './connect-dialog';
import { MyConnections } from './my-connections';
import { ServerCard, ServerCardSkeleton } from './server-card';
import { ServerDetailsModal } from './server-details-modal';
import './registry.css';

export const SEARCH_DEBOUNCE_MS = 300;
/** SPEC §9: six skeleton cards while loading. */
export const SKELETON_COUNT = 6;

export default function RegistryPage() {
  const { status, user } = useAuth();
  const signedIn = status === 'authenticated' && user !== null;
  const now = useNow();

  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim(), SEARCH_DEBOUNCE_MS);
  const [modelType, setModelType] = useState('');

  // The whole catalogue gives the filter its options; the filtered query the
  // cards. With no filter both are one request.
  const catalogue = useMcpServers({});
  const list = useMcpServers({ model_type: modelType, search });
  const connections = useMcpConnections();

  const [details, setDetails] = useState<McpServer | null>(null);
  const [connecting, setConnecting] = useState<McpServer | null>(null);

  const modelTypes = distinctModelTypes([...catalogue.servers, ...list.servers, ...(modelType ? [{ model_type: modelType }] : [])]);
  const servers = filterServers(list.data ?? [], { modelType, search });
  const failed = list.error !== undefined;
  const loading = !failed && list.data === undefined;
  const connectedServerIds = new Set(connections.connections.map((c) => c.server_id));

  const copy = async (server: McpServer) => {
    if (await copyToClipboard(server.endpoint_url)) toast.success(MESSAGES.copied, { duration: COPY_TOAST_MS });
    else toast.error(MESSAGES.copyFailed, { duration: COPY_TOAST_MS });
  };

  const startConnect = (server: McpServer) => {
    if (!signedIn) {
      // SPEC §5: visitors cannot connect; no dialog.
      toast.error(MESSAGES.loginToConnect);
      return;
    }
    if (!server.is_active) return;
    setDetails(null);
    setConnecting(server);
  };

  const filtersActive = search !== '' || modelType !== '';
  const clearFilters = () => {
    setSearchInput('');
    setModelType('');
  };

  return (
    <Page title={MESSAGES.title} subtitle="Find Model Context Protocol servers, see their tools before you connect, and connect in one step." className="registry">
      {!signedIn && status !== 'loading' ? (
        <Alert variation="info" className="page__notice" data-testid="registry-visitor-notice">
          Browse freely. <Link to="/login?redirect=%2Fregistry">Log in</Link> or <Link to="/register">sign up</Link> to connect to a server.
        </Alert>
      ) : null}

      {signedIn ? <MyConnections now={now} /> : null}

      <section className="registry__catalogue" aria-labelledby="registry-servers-heading">
        <VisuallyHidden>
          <h2 id="registry-servers-heading">Servers</h2>
        </VisuallyHidden>
        <div className="registry-filters" role="search" aria-label="Filter servers">
          <TextField
            className="registry-filters__search"
            label="Search servers"
            type="search"
            placeholder="Search by name or description"
            value={searchInput}
            onChange={(e) => setSearchInput(e.target.value)}
            autoComplete="off"
          />
          <SelectField label="Model type" value={modelType} onChange={(e) => setModelType(e.target.value)}>
            <option value="">{MESSAGES.allModels}</option>
            {modelTypes.map((t) => (
              <option key={t} value={t}>
                {`${modelTypeEmoji(t)} ${modelTypeLabel(t)}`}
              </option>
            ))}
          </SelectField>
        </div>

        {failed ? (
          <Alert variation="error" heading={MESSAGES.loadFailed} className="registry__error" data-testid="registry-error">
            <span>{errorMessage(list.error, MESSAGES.loadFailedHint)}</span>{' '}
            <Button size="small" onClick={() => void list.mutate()}>
              Retry
            </Button>
          </Alert>
        ) : loading ? (
          <div className="server-grid" role="status" aria-label="Loading servers">
            {Array.from({ length: SKELETON_COUNT }, (_, i) => (
              <ServerCardSkeleton key={i} />
            ))}
          </div>
        ) : (
          <>
            <p className="registry__count" data-testid="server-count" aria-live="polite">
              {countMessage(servers.length)}
            </p>
            {servers.length === 0 ? (
              <div className="registry-empty" data-testid="empty-state">
                <h3 className="registry-empty__title">{MESSAGES.noServers}</h3>
                <p className="registry-empty__hint">{MESSAGES.noServersHint}</p>
                {filtersActive ? (
                  <Button size="small" onClick={clearFilters}>
                    Clear filters
                  </Button>
                ) : null}
              </div>
            ) : (
              <div className="server-grid" aria-busy={list.isPrevious}>
                {servers.map((s) => (
                  <ServerCard
                    key={s.id}
                    server={s}
                    now={now}
                    connected={connectedServerIds.has(s.id)}
                    onCopy={(srv) => void copy(srv)}
                    onDetails={setDetails}
                    onConnect={startConnect}
                  />
                ))}
              </div>
            )}
          </>
        )}
      </section>

      {details ? <ServerDetailsModal server={details} now={now} onClose={() => setDetails(null)} onConnect={startConnect} /> : null}
      {connecting && signedIn && user ? <ConnectDialog server={connecting} userId={user.id} onClose={() => setConnecting(null)} /> : null}
    </Page>
  );
}
