// The chat header's Tools control: a button showing how many MCP servers'
// tools the tab offers, opening a dialog with the user's connected servers
// (an on/off switch each, remembered per tab), the "Ask before read-only
// tools too" setting and the tools the user always allows, each on one
// endpoint, marked when destructive or changed since allowed (Revoke each).

import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Modal } from '../../../components/modal';
import { toast } from '../../../components/notifications/notification-store';
import { errorMessage } from '../../../lib/api-client';
import { connectionLabel } from '../../../lib/connection-label';
import { MAX_TOOL_SERVERS, type AlwaysAllowedTool, type McpTools } from '../api/mcp-tools';

export const NO_SERVERS_TEXT = 'No MCP servers connected.';
export const REVOKE_FAILED = 'Failed to revoke the tool';

interface ToolsControlProps {
  data: McpTools | undefined;
  loading: boolean;
  error: unknown;
  /** Connection ids the tab turned off. */
  toolsOff: readonly string[];
  confirmReadOnly: boolean;
  onToggle: (connectionId: string, on: boolean) => void;
  onConfirmReadOnly: (on: boolean) => void;
  /** Revokes the tool's allowance on `endpoint`. */
  onRevoke: (serverId: string, tool: string, endpoint: string) => Promise<void>;
  onRetry: () => void;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const allowanceKey = (a: AlwaysAllowedTool) => `${a.server_id}/${a.tool}/${a.endpoint}`;

/** The "changed" mark of an allowance whose tool no longer matches what was allowed; '' when it matches. */
export function allowanceChanged(changed: readonly string[]): string {
  if (changed.length === 0) return '';
  if (changed.includes('unrecorded')) return 'allowed before changes were tracked: asks again';
  return 'changed since allowed: asks again';
}

export function ToolsControl(props: ToolsControlProps) {
  const { data, toolsOff } = props;
  const [open, setOpen] = useState(false);
  const servers = data?.servers ?? [];
  const on = servers.filter((s) => !toolsOff.includes(s.connection_id)).length;
  return (
    <div className="chat-toolsctl">
      <button
        type="button"
        className="chat-button chat-toolsctl__button"
        aria-haspopup="dialog"
        aria-expanded={open}
        data-testid="tools-button"
        data-count={on}
        onClick={() => setOpen(true)}
      >
        Tools
        <span className={`chat-toolsctl__count${on > 0 ? ' chat-toolsctl__count--on' : ''}`} aria-hidden="true">
          {on}
        </span>
        <span className="chat-sr-only">, {plural(on, 'server', 'servers')} on</span>
      </button>
      {open ? <ToolsDialog {...props} onClose={() => setOpen(false)} /> : null}
    </div>
  );
}

function ToolsDialog({
  data,
  loading,
  error,
  toolsOff,
  confirmReadOnly,
  onToggle,
  onConfirmReadOnly,
  onRevoke,
  onRetry,
  onClose,
}: ToolsControlProps & { onClose: () => void }) {
  const titleId = useId();
  const readOnlyId = useId();
  const readOnlyHintId = useId();
  const [revoking, setRevoking] = useState<string | null>(null);
  const servers = data?.servers ?? [];
  const enabled = servers.filter((s) => !toolsOff.includes(s.connection_id)).length;
  const nameOf = (serverId: string) => servers.find((s) => s.server_id === serverId)?.server_name || serverId;

  const revoke = async (a: AlwaysAllowedTool) => {
    setRevoking(allowanceKey(a));
    try {
      await onRevoke(a.server_id, a.tool, a.endpoint);
      toast.success(`${a.tool} will ask again before it runs`);
    } catch (err) {
      toast.error(errorMessage(err, REVOKE_FAILED));
    } finally {
      setRevoking(null);
    }
  };

  let serverList;
  if (!data && loading) {
    serverList = (
      <p className="chat-toolsctl__status" role="status">
        Loading your MCP servers...
      </p>
    );
  } else if (!data && error) {
    serverList = (
      <div className="chat-toolsctl__status" role="alert">
        <p>Could not load your MCP servers: {errorMessage(error, 'Request failed')}</p>
        <button type="button" className="chat-button chat-button--small" onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  } else if (servers.length === 0) {
    serverList = (
      <p className="chat-toolsctl__empty" data-testid="tools-empty">
        {NO_SERVERS_TEXT} Connect one in the <Link to="/registry">MCP Registry</Link>.
      </p>
    );
  } else {
    serverList = (
      <ul className="chat-toolsctl__servers" aria-label="Connected MCP servers">
        {servers.map((s) => {
          const isOn = !toolsOff.includes(s.connection_id);
          return (
            <li key={s.connection_id} className="chat-toolsctl__server" data-testid="tool-server" data-connection-id={s.connection_id}>
              <label className="chat-toolsctl__switch">
                <input type="checkbox" role="switch" checked={isOn} onChange={(e) => onToggle(s.connection_id, e.target.checked)} />
                <span className="chat-toolsctl__server-name">{connectionLabel(s)}</span>
              </label>
              <details className="chat-toolsctl__tools">
                <summary data-testid="tool-count">{plural(s.tools.length, 'tool', 'tools')}</summary>
                <ul>
                  {s.tools.map((t) => (
                    <li key={t.name}>
                      <code>{t.name}</code>
                      {t.read_only ? <span className="chat-toolsctl__hint"> read-only</span> : null}
                      {t.destructive ? <span className="chat-toolsctl__hint chat-toolsctl__hint--danger"> destructive</span> : null}
                    </li>
                  ))}
                </ul>
              </details>
            </li>
          );
        })}
      </ul>
    );
  }

  const always = data?.always_allowed ?? [];
  return (
    <Modal labelledBy={titleId} onClose={onClose} className="chat-modal chat-toolsctl__dialog" testId="tools-dialog">
      <div className="chat-modal__form">
        <header className="chat-modal__head">
          <h2 id={titleId} className="chat-modal__title">
            Tools
          </h2>
          {servers.length > 0 ? (
            <span className="chat-modal__meta">
              {enabled} of {plural(servers.length, 'server', 'servers')} on in this chat tab
            </span>
          ) : null}
        </header>
        <div className="chat-modal__body chat-toolsctl__body">
          <p className="chat-toolsctl__intro">The model may call the tools of the MCP servers turned on here. Tools that may change something ask you first.</p>
          {serverList}
          {enabled > MAX_TOOL_SERVERS ? (
            <p className="chat-toolsctl__note" role="note">
              A message offers the tools of at most {MAX_TOOL_SERVERS} servers: the first {MAX_TOOL_SERVERS} turned on.
            </p>
          ) : null}

          <div className="chat-toolsctl__setting">
            <input
              id={readOnlyId}
              type="checkbox"
              checked={confirmReadOnly}
              aria-describedby={readOnlyHintId}
              onChange={(e) => onConfirmReadOnly(e.target.checked)}
            />
            <div>
              <label htmlFor={readOnlyId}>Ask before read-only tools too</label>
              <p id={readOnlyHintId} className="chat-toolsctl__hint">
                Otherwise tools that say they only read run without asking.
              </p>
            </div>
          </div>

          <section className="chat-toolsctl__always" aria-labelledby={`${titleId}-always`}>
            <h3 id={`${titleId}-always`} className="chat-toolsctl__heading">
              Always allowed
            </h3>
            {always.length === 0 ? (
              <p className="chat-toolsctl__hint" data-testid="always-empty">
                No tools run without asking. Choose “Always allow this tool” when a tool asks.
              </p>
            ) : (
              <ul className="chat-toolsctl__allowed">
                {always.map((a) => {
                  const key = allowanceKey(a);
                  const where = a.endpoint_label || 'any address (allowed before addresses were recorded)';
                  const changed = allowanceChanged(a.changed);
                  return (
                    <li key={key} data-testid="always-allowed" data-tool={a.tool} data-server-id={a.server_id} data-endpoint={a.endpoint}>
                      <span className="chat-toolsctl__allowed-text">
                        <code>{a.tool}</code> on {nameOf(a.server_id)}{' '}
                        <span className="chat-toolsctl__endpoint" data-testid="always-endpoint">
                          at {where}
                        </span>
                        {a.destructive ? <span className="chat-toolsctl__hint chat-toolsctl__hint--danger"> destructive</span> : null}
                        {changed ? (
                          <span className="chat-toolsctl__changed" data-testid="always-changed">
                            {' '}
                            {changed}
                          </span>
                        ) : null}
                      </span>
                      <button
                        type="button"
                        className="chat-button chat-button--small"
                        aria-label={`Revoke ${a.tool} on ${nameOf(a.server_id)} at ${where}`}
                        disabled={revoking === key}
                        onClick={() => void revoke(a)}
                      >
                        {revoking === key ? 'Revoking...' : 'Revoke'}
                      </button>
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
        </div>
        <footer className="chat-modal__foot">
          <button type="button" className="chat-button" onClick={onClose}>
            Close
          </button>
        </footer>
      </div>
    </Modal>
  );
}
