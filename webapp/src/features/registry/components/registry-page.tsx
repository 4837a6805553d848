import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { SelectField, TextField } from '@aws-amplify/ui-react';
import { ListingCatalogue, ListingFilters, ListingResults, SEARCH_DEBOUNCE_MS, VisitorNotice } from '../../../components/listing/listing';
import { LoadMore } from '../../../components/listing/load-more';
import { Page } from '../../../components/page';
import { COPY_TOAST_MS, toast } from '../../../components/notifications/notification-store';
import { errorMessage } from '../../../lib/api-client';
import { copyToClipboard } from '../../../lib/clipboard';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useAuth } from '../../../lib/use-auth';
import type { McpServer } from '../../../lib/api/mcp-types';
import { useMcpConnections } from '../../../lib/api/use-mcp-connections';
import { useMcpServerPages } from '../api/use-mcp-servers';
import { connectedMessage, connectFailedMessage, countMessage, MESSAGES } from '../messages';
import { distinctModelTypes, MODEL_TYPE_EMOJI, modelTypeEmoji, modelTypeLabel } from '../model-types';
import { useNow } from '../use-now';
import { readSignInReturn, signInFailureMessage, withoutSignInReturn } from '../../../lib/mcp-sign-in-return';
import { fetchSignInFailure } from '../api/sign-in-failure';
import { signsIn } from '../server-status';
import { ConnectDialog } from './connect-dialog';
import { SignInDialog } from './sign-in-dialog';
import { MyConnections } from './my-connections';
import { ServerCard, ServerCardSkeleton } from './server-card';
import { ServerDetailsModal } from './server-details-modal';
import './registry.css';

export default function RegistryPage() {
  const { status, user } = useAuth();
  const signedIn = status === 'authenticated' && user !== null;
  const now = useNow();

  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim(), SEARCH_DEBOUNCE_MS);
  const [modelType, setModelType] = useState('');

  // The server filters, searches, orders and counts; the page reads its
  // pages one after the other (Load more).
  const list = useMcpServerPages({ model_type: modelType, search });
  const connections = useMcpConnections();

  const [details, setDetails] = useState<McpServer | null>(null);
  const [connecting, setConnecting] = useState<McpServer | null>(null);
  const [signingIn, setSigningIn] = useState<{ server: McpServer; endpointUrl: string } | null>(null);

  // The filter's options: the known types, those on the cards read, and
  // the one chosen (the list is read a page at a time, so its types are
  // not all known).
  const known = Object.keys(MODEL_TYPE_EMOJI).map((t) => ({ model_type: t }));
  const modelTypes = distinctModelTypes([...known, ...list.servers, ...(modelType ? [{ model_type: modelType }] : [])]);
  const servers = list.servers;
  const failed = list.error !== undefined && list.pages === undefined;
  const loading = !failed && list.pages === undefined;
  const connectedServerIds = new Set(connections.connections.map((c) => c.server_id));

  // Back from a server's sign-in page (GET /api/v1/mcp-oauth/callback):
  // say what happened once the server's name is known (and, for a
  // failure with a detail, who is signed in), then drop the parameters so
  // a reload does not say it again. Only the product's words are shown:
  // the code's message or the detail the API keeps for this user, and the
  // server's name only when its id is in the registry.
  const [params, setParams] = useSearchParams();
  const returnQuery = params.toString();
  const catalogueLoaded = list.pages !== undefined || list.error !== undefined;
  const { mutate: refreshConnections } = connections;
  const handledReturn = useRef('');
  useEffect(() => {
    const current = new URLSearchParams(returnQuery);
    const back = readSignInReturn(current);
    if (!back || !catalogueLoaded || handledReturn.current === returnQuery) return;
    const askDetail = back.kind === 'failed' && back.detailId !== '';
    if (askDetail && status === 'loading') return;
    handledReturn.current = returnQuery;
    const name =
      list.servers.find((s) => s.id === back.serverId)?.name ||
      connections.connections.find((c) => c.server_id === back.serverId)?.server_name ||
      'the server';
    setParams(withoutSignInReturn(current), { replace: true });
    if (back.kind === 'connected') {
      toast.success(connectedMessage(name));
      void refreshConnections();
      return;
    }
    void (async () => {
      const detail = askDetail && signedIn ? await fetchSignInFailure(back.detailId) : null;
      toast.error(connectFailedMessage(name, detail ?? signInFailureMessage(back.code)));
    })();
  }, [returnQuery, catalogueLoaded, list.servers, connections.connections, setParams, refreshConnections, status, signedIn]);

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
    if (signsIn(server)) setSigningIn({ server, endpointUrl: '' });
    else setConnecting(server);
  };

  const filtersActive = search !== '' || modelType !== '';
  const clearFilters = () => {
    setSearchInput('');
    setModelType('');
  };

  return (
    <Page title={MESSAGES.title} subtitle="Find Model Context Protocol servers, see their tools before you connect, and connect in one step." className="registry">
      {!signedIn && status !== 'loading' ? (
        <VisitorNotice testId="registry-visitor-notice" lead="Browse freely." returnTo="/registry" purpose="to connect to a server." />
      ) : null}

      {signedIn ? <MyConnections now={now} onSignInAgain={(server, endpointUrl) => setSigningIn({ server, endpointUrl })} servers={list.servers} /> : null}

      <ListingCatalogue heading="Servers">
        <ListingFilters label="Filter servers">
          <TextField
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
        </ListingFilters>

        <ListingResults
          failure={failed ? { heading: MESSAGES.loadFailed, message: errorMessage(list.error, MESSAGES.loadFailedHint), testId: 'registry-error', onRetry: () => void list.mutate() } : null}
          loading={loading}
          loadingLabel="Loading servers"
          skeleton={<ServerCardSkeleton />}
          countText={countMessage(list.count, list.exact)}
          countTestId="server-count"
          empty={
            servers.length === 0
              ? { title: MESSAGES.noServers, hint: MESSAGES.noServersHint, headingLevel: 3, onClearFilters: filtersActive ? clearFilters : undefined }
              : null
          }
          busy={list.isPrevious}
          cardMinWidth={320}
          more={
            list.hasMore || (list.error !== undefined && list.pages !== undefined) ? (
              <LoadMore
                label="Load more servers"
                onLoadMore={list.error !== undefined ? () => void list.mutate() : list.loadMore}
                loading={list.loadingMore}
                pages={list.pages?.length ?? 0}
                error={list.error !== undefined ? errorMessage(list.error, 'Could not load more servers.') : null}
              />
            ) : null
          }
        >
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
        </ListingResults>
      </ListingCatalogue>

      {details ? <ServerDetailsModal server={details} now={now} onClose={() => setDetails(null)} onConnect={startConnect} /> : null}
      {connecting && signedIn && user ? <ConnectDialog server={connecting} userId={user.id} onClose={() => setConnecting(null)} /> : null}
      {signingIn && signedIn ? <SignInDialog server={signingIn.server} endpointUrl={signingIn.endpointUrl} onClose={() => setSigningIn(null)} /> : null}
    </Page>
  );
}
