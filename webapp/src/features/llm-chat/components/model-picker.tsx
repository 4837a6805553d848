import { useId, type ReactNode } from 'react';
import { STATUS_TEXT, type ConnectionStatus } from '../connection';
import { getProvider, PROVIDERS, type ProviderId } from '../providers';
import type { MessageUsage } from '../state/types';
import { formatUsage } from '../usage';

interface ModelPickerProps {
  provider: ProviderId;
  model: string;
  status: ConnectionStatus;
  /** The tab's running total of tokens and cost; hidden until there is one. */
  usageTotal?: MessageUsage | null;
  onChange: (provider: ProviderId, model: string) => void;
  onConnect: () => void;
  onReconnect: () => void;
  /** Shown beside the model select (the Tools control). */
  tools?: ReactNode;
  /** The tab's agent's name: its provider and model are the agent's and cannot be changed. */
  lockedBy?: string;
}

/** Provider and model selects, the tab's usage so far, the connection status, and Connect / Reconnect. */
export function ModelPicker({ provider, model, status, usageTotal, onChange, onConnect, onReconnect, tools, lockedBy }: ModelPickerProps) {
  const providerId = useId();
  const modelId = useId();
  const lockId = useId();
  const locked = lockedBy !== undefined;
  const models = getProvider(provider).models;
  return (
    <div className="chat-picker">
      <div className="chat-field">
        <label htmlFor={providerId}>Provider</label>
        <select id={providerId} value={provider} disabled={locked} aria-describedby={locked ? lockId : undefined} onChange={(e) => onChange(e.target.value as ProviderId, model)}>
          {PROVIDERS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      <div className="chat-field">
        <label htmlFor={modelId}>Model</label>
        <select id={modelId} value={model} disabled={locked} aria-describedby={locked ? lockId : undefined} onChange={(e) => onChange(provider, e.target.value)}>
          {models.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </div>
      {locked ? (
        <p id={lockId} className="chat-picker__agent" data-testid="agent-model-note">
          {lockedBy} runs on this model.
        </p>
      ) : null}
      {tools}
      <div className="chat-picker__end">
        {usageTotal ? (
          <p className="chat-picker__usage" data-testid="tab-usage" title="Tokens in → out and cost of every reply in this chat tab">
            <span className="chat-picker__usage-label">This chat:</span> {formatUsage(usageTotal)}
          </p>
        ) : null}
        <div className="chat-picker__status">
          <span className={`chat-status chat-status--${status}`} data-testid="connection-status" data-status={status} role="status">
            <span className="chat-status__dot" aria-hidden="true" />
            {STATUS_TEXT[status]}
          </span>
          <button
            type="button"
            className="chat-button"
            disabled={status === 'connecting'}
            onClick={status === 'connected' ? onReconnect : onConnect}
          >
            {status === 'connected' ? 'Reconnect' : 'Connect'}
          </button>
        </div>
      </div>
    </div>
  );
}
