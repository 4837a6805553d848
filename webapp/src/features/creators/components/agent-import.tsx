// Import agent: an agent file (this site's export) or a LobeChat agent
// file becomes a draft. The file is checked here first for what the
// browser can tell (over 1 MB, not JSON), so nothing is sent in vain; the
// API says what else is wrong with it. The draft made is shown with the
// fields the file had that were not imported.

import { useId, useRef, useState } from 'react';
import { Alert, Button, Heading } from '@aws-amplify/ui-react';
import { errorMessage } from '../../../lib/api-client';
import { importAgent } from '../api/agent-requests';
import type { AgentImport, CreatorAgent } from '../api/agent-types';

/** The largest file the API takes. */
export const IMPORT_MAX_BYTES = 1024 * 1024;

/** Why the file cannot be imported, as far as the browser can tell; null when it may be. */
export function checkImportFile(file: { size: number }, text: string | null): string | null {
  if (file.size > IMPORT_MAX_BYTES) return 'The file is larger than 1 MB: an agent file is much smaller.';
  if (text === null) return null;
  try {
    JSON.parse(text);
  } catch {
    return 'The file is not JSON.';
  }
  return null;
}

interface AgentImportProps {
  onImported: (agent: CreatorAgent) => void;
  onEdit: (agent: CreatorAgent) => void;
  onClose: () => void;
}

export function AgentImport({ onImported, onEdit, onClose }: AgentImportProps) {
  const headingId = useId();
  const inputId = useId();
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [result, setResult] = useState<AgentImport | null>(null);

  const read = async (file: File) => {
    setFailure(null);
    setResult(null);
    const tooBig = checkImportFile(file, null);
    if (tooBig) return setFailure(tooBig);
    setBusy(true);
    try {
      const text = await file.text();
      const notJson = checkImportFile(file, text);
      if (notJson) return setFailure(notJson);
      const answer = await importAgent(text);
      setResult(answer);
      onImported(answer.agent);
    } catch (err) {
      setFailure(errorMessage(err, 'The file could not be imported. Please try again.'));
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <section className="creator-editor" aria-labelledby={headingId} data-testid="agent-import">
      <Heading level={3} id={headingId} className="creator-editor__title">
        Import an agent
      </Heading>
      <p id={hintId} className="creator-muted">
        An agent file exported here, or a LobeChat agent file (.json, up to 1 MB). It becomes a draft you can edit before submitting it.
      </p>
      <div className="agent-import__field">
        <label htmlFor={inputId} className="agent-import__label">
          Agent file
        </label>
        <input
          ref={input}
          id={inputId}
          type="file"
          accept=".json,application/json"
          aria-describedby={hintId}
          disabled={busy}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void read(file);
          }}
        />
      </div>
      {busy ? <p role="status">Importing…</p> : null}
      {failure ? (
        <Alert variation="error" heading="Not imported" data-testid="agent-import-error">
          {failure}
        </Alert>
      ) : null}
      {result ? (
        <Alert variation="success" heading={`Imported “${result.agent.name}” as a draft`} data-testid="agent-import-result">
          {result.ignored.length ? <p data-testid="agent-import-ignored">Not imported: {result.ignored.join(', ')}</p> : <p>Everything in the file was imported.</p>}
          <Button size="small" onClick={() => onEdit(result.agent)}>
            Edit the draft
          </Button>
        </Alert>
      ) : null}
      <div className="creator-actions">
        <Button variation="link" onClick={onClose} isDisabled={busy}>
          Close
        </Button>
      </div>
    </section>
  );
}
