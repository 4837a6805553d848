// An agent's MCP servers: registry servers found by search (as the
// registry page searches), and per chosen server a fieldset named by it
// with a checkbox per tool its last probe found. Only the tools checked
// are offered to the model. A server the registry has not probed yet lists
// no tools: its tool names can be typed instead (the API checks them
// against the registry once it knows them). At most 10 servers and 100
// tools in all.

import { useId, useState } from 'react';
import { Button, CheckboxField, Loader, TextField } from '@aws-amplify/ui-react';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useRegistrySearch, useRegistryServer } from '../api/agent-requests';
import type { RegistryServer } from '../api/agent-types';
import { SERVERS_MAX, TOOLS_MAX, toolCount, type ChosenServer } from '../agent-rules';

interface AgentServersFieldProps {
  servers: ChosenServer[];
  onChange: (servers: ChosenServer[]) => void;
  error?: string;
}

const AUTH_WORDS: Record<RegistryServer['auth'], string> = { none: 'no sign-in', key: 'API key', oauth: 'OAuth sign-in' };

export function AgentServersField({ servers, onChange, error }: AgentServersFieldProps) {
  const legendId = useId();
  const errorId = useId();
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search, 250);
  const found = useRegistrySearch(query);
  const chosenIds = new Set(servers.map((s) => s.server_id));
  const full = servers.length >= SERVERS_MAX;
  const tools = toolCount(servers);

  const update = (id: string, change: (s: ChosenServer) => ChosenServer) => onChange(servers.map((s) => (s.server_id === id ? change(s) : s)));
  const add = (s: RegistryServer) => {
    if (chosenIds.has(s.id) || full) return;
    onChange([...servers, { server_id: s.id, name: s.name, tools: [] }]);
  };

  return (
    <fieldset className="agent-servers" aria-labelledby={legendId} aria-describedby={error ? errorId : undefined} aria-invalid={error ? true : undefined} tabIndex={error ? -1 : undefined}>
      <legend id={legendId} className="agent-servers__legend">
        MCP servers
      </legend>
      <p className="creator-muted">
        Up to {SERVERS_MAX} servers from the registry; for each, check the tools the agent may use: no other tool is offered to the model.{' '}
        <span data-testid="agent-tool-count">
          {servers.length} of {SERVERS_MAX} servers, {tools} of {TOOLS_MAX} tools.
        </span>
      </p>
      {servers.map((s) => (
        <ServerTools
          key={s.server_id}
          server={s}
          onTools={(next) => update(s.server_id, (x) => ({ ...x, tools: next }))}
          onRemove={() => onChange(servers.filter((x) => x.server_id !== s.server_id))}
        />
      ))}
      {error ? (
        <p id={errorId} className="agent-servers__error" data-testid="agent-servers-error">
          {error}
        </p>
      ) : null}
      <TextField
        label="Search MCP servers"
        type="search"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        placeholder="Name or description"
        autoComplete="off"
        descriptiveText={full ? `This agent has ${SERVERS_MAX} servers, the most it can have: remove one to add another.` : undefined}
      />
      {/* The last results stay while the next search loads: the list does not jump. */}
      {found.isLoading && found.servers.length === 0 ? (
        <Loader ariaLabel="Searching the registry" />
      ) : found.error ? (
        <p className="creator-muted">The registry could not be searched. Please try again.</p>
      ) : (
        <ul className="agent-servers__results" aria-label="Registry servers" data-testid="agent-server-results">
          {found.servers.filter((s) => !chosenIds.has(s.id)).length === 0 ? <li className="creator-muted">No server matches.</li> : null}
          {found.servers
            .filter((s) => !chosenIds.has(s.id))
            .slice(0, 8)
            .map((s) => (
              <li key={s.id} className="agent-servers__result">
                <span>
                  <strong>{s.name}</strong> <span className="creator-muted">({AUTH_WORDS[s.auth]})</span>
                  {s.description ? <span className="creator-muted agent-servers__description"> {s.description}</span> : null}
                </span>
                <Button size="small" onClick={() => add(s)} isDisabled={full} aria-label={`Add ${s.name}`}>
                  Add
                </Button>
              </li>
            ))}
        </ul>
      )}
    </fieldset>
  );
}

interface ServerToolsProps {
  server: ChosenServer;
  onTools: (tools: string[]) => void;
  onRemove: () => void;
}

/** One chosen server: a fieldset named by it, a checkbox per tool. */
function ServerTools({ server, onTools, onRemove }: ServerToolsProps) {
  const detail = useRegistryServer(server.server_id);
  const [typed, setTyped] = useState('');
  const name = detail.server?.name ?? server.name;
  const probed = detail.tools.map((t) => t.name);
  // Tools chosen but not (or no longer) in the probe's list stay shown, so they can be unchecked.
  const shown = [...detail.tools, ...server.tools.filter((t) => !probed.includes(t)).map((t) => ({ name: t, title: '', description: '' }))];
  const chosen = new Set(server.tools);
  const toggle = (tool: string, on: boolean) => onTools(on ? [...server.tools, tool] : server.tools.filter((t) => t !== tool));
  const addTyped = () => {
    const t = typed.trim();
    if (t && !chosen.has(t)) onTools([...server.tools, t]);
    setTyped('');
  };

  return (
    <fieldset className="agent-server" data-testid="agent-server" data-server-id={server.server_id}>
      <legend className="agent-server__name">{name}</legend>
      {detail.isLoading ? <Loader ariaLabel={`Loading the tools of ${name}`} /> : null}
      {!detail.isLoading && detail.tools.length === 0 ? (
        <p className="creator-muted">The registry has not listed this server’s tools yet: type the names of the tools the agent may use.</p>
      ) : null}
      {shown.length ? (
        <div className="agent-server__tools">
          {shown.map((t) => (
            <CheckboxField
              key={t.name}
              name={`tool-${server.server_id}`}
              value={t.name}
              label={t.title && t.title !== t.name ? `${t.name} (${t.title})` : t.name}
              checked={chosen.has(t.name)}
              onChange={(e) => toggle(t.name, e.target.checked)}
            />
          ))}
        </div>
      ) : null}
      <div className="creator-actions">
        {detail.tools.length > 0 ? (
          <>
            <Button size="small" variation="link" onClick={() => onTools([...new Set([...server.tools, ...probed])])}>
              Allow all
            </Button>
            <Button size="small" variation="link" onClick={() => onTools([])}>
              Allow none
            </Button>
          </>
        ) : (
          <>
            <TextField
              label={`Tool name for ${name}`}
              labelHidden
              placeholder="Tool name"
              size="small"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  addTyped();
                }
              }}
            />
            <Button size="small" onClick={addTyped}>
              Add tool
            </Button>
          </>
        )}
        <Button size="small" onClick={onRemove} aria-label={`Remove ${name}`}>
          Remove
        </Button>
      </div>
    </fieldset>
  );
}
