import { useId, useState } from 'react';
import { TextField } from '@aws-amplify/ui-react';
import type { McpTool } from '../../../lib/api/mcp-types';

/** Long lists get a filter box. */
export const TOOL_FILTER_THRESHOLD = 8;

function toolMatches(tool: McpTool, q: string): boolean {
  return [tool.name, tool.title ?? '', tool.description].some((f) => f.toLowerCase().includes(q));
}

/**
 * A server's tools with the read-only / destructive hints from their
 * annotations. The hints are the server's own claims, said so once.
 */
export function ToolList({ tools, label = 'Tools' }: { tools: readonly McpTool[]; label?: string }) {
  const [query, setQuery] = useState('');
  const noteId = useId();
  const q = query.trim().toLowerCase();
  const shown = q ? tools.filter((t) => toolMatches(t, q)) : tools;
  const hinted = tools.some((t) => t.read_only || t.destructive);

  return (
    <div className="tool-list">
      {tools.length > TOOL_FILTER_THRESHOLD ? (
        <TextField
          label="Filter tools"
          size="small"
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          autoComplete="off"
        />
      ) : null}
      {hinted ? (
        <p id={noteId} className="tool-list__note">
          Read-only and destructive hints come from the server’s own annotations.
        </p>
      ) : null}
      <ul className="tool-list__items" aria-label={label} aria-describedby={hinted ? noteId : undefined}>
        {shown.map((t) => (
          <li key={t.name} className="tool-list__item" data-testid="tool" data-tool-name={t.name}>
            <div className="tool-list__head">
              <code className="tool-list__name">{t.name}</code>
              {t.title && t.title !== t.name ? <span className="tool-list__title">{t.title}</span> : null}
              {t.read_only ? <span className="server-chip server-chip--readonly">Read-only</span> : null}
              {t.destructive ? <span className="server-chip server-chip--destructive">Destructive</span> : null}
            </div>
            {t.description ? <p className="tool-list__description">{t.description}</p> : null}
          </li>
        ))}
      </ul>
      {q && shown.length === 0 ? <p className="tool-list__empty">No tools match “{query.trim()}”.</p> : null}
    </div>
  );
}
