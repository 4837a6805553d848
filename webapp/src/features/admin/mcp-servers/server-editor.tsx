// Add or edit an MCP server. An edit sends the version it was read at with
// the changed fields; a 409 shows the server as it stands now and can load
// it into the form. The API's `warning` (endpoint refused by the outbound
// rules: saved, disabled) is shown by the section after the save.

import { useState } from 'react';
import { Alert, SelectField, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { errorMessage } from '../../../lib/api-client';
import { readConflict, type Conflict } from '../api/conflict';
import { readServer } from '../api/read-mcp';
import { createMcpServer, updateMcpServer } from '../api/requests';
import type { AdminMcpServer, McpAuth, McpServerSaved } from '../api/types';
import { ConflictNotice } from '../components/conflict-notice';
import { FormDialog } from '../components/form-dialog';
import { useAdminWrite } from '../components/use-admin-write';
import { useFocusFirstInvalid } from '../components/use-focus-first-invalid';
import { yesNo } from '../format';
import { FeaturesField } from './features-field';
import { AUTH_OPTIONS, authLabel, changedServerFields, EMPTY_SERVER_FORM, serverDraftOf, serverFormOf, validateServerForm, type ServerForm } from './server-rules';

interface ServerEditorProps {
  server: AdminMcpServer | null;
  onClose: () => void;
  /** After a save; null when the answer could not be read. */
  onSaved: (saved: McpServerSaved | null, created: boolean) => void;
}

export function ServerEditor({ server, onClose, onSaved }: ServerEditorProps) {
  const [base, setBase] = useState<AdminMcpServer | null>(server);
  const [form, setForm] = useState<ServerForm>(server ? serverFormOf(server) : EMPTY_SERVER_FORM);
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [conflict, setConflict] = useState<Conflict<AdminMcpServer> | null>(null);
  const { run, pending } = useAdminWrite();
  const { ref: fieldsRef, focusFirstInvalid } = useFocusFirstInvalid();

  const errors = validateServerForm(form);
  const shown = (field: keyof typeof errors) => (submitted ? errors[field] : undefined);
  const set = <K extends keyof ServerForm>(key: K, value: ServerForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  const save = async () => {
    setSubmitted(true);
    setFailure(null);
    if (Object.keys(errors).length > 0) {
      focusFirstInvalid();
      return;
    }
    const draft = serverDraftOf(form);
    if (base) {
      const changes = changedServerFields(base, draft);
      if (Object.keys(changes).length === 0) return onClose();
      const outcome = await run(() => updateMcpServer(base.id, base.version, changes));
      if (!outcome) return;
      if (outcome.ok) return onSaved(outcome.value, false);
      const stale = readConflict(outcome.error, readServer);
      if (stale) setConflict(stale);
      else setFailure(errorMessage(outcome.error, 'The server could not be saved. Please try again.'));
      return;
    }
    const outcome = await run(() => createMcpServer(draft));
    if (!outcome) return;
    if (outcome.ok) onSaved(outcome.value, true);
    else setFailure(errorMessage(outcome.error, 'The server could not be added. Please try again.'));
  };

  const reload = () => {
    if (!conflict) return;
    setBase(conflict.current);
    setForm(serverFormOf(conflict.current));
    setConflict(null);
  };

  return (
    <FormDialog
      title={server ? `Edit “${server.name}”` : 'Add an MCP server'}
      saveLabel={server ? 'Save changes' : 'Add server'}
      savingLabel="Saving…"
      saving={pending}
      onSubmit={() => void save()}
      onClose={onClose}
      testId="server-editor"
    >
      {conflict ? <ConflictNotice detail={conflict.detail} current={conflictValues(conflict.current)} onReload={reload} /> : null}
      {failure ? (
        <Alert variation="error" heading="Not saved" data-testid="server-save-error">
          {failure}
        </Alert>
      ) : null}
      <div ref={fieldsRef} className="admin-form__fields">
        <TextField label="Name" isRequired descriptiveText="1–100 characters." value={form.name} onChange={(e) => set('name', e.target.value)} hasError={Boolean(shown('name'))} errorMessage={shown('name')} />
        <TextAreaField
          label="Description"
          rows={3}
          value={form.description}
          onChange={(e) => set('description', e.target.value)}
          hasError={Boolean(shown('description'))}
          errorMessage={shown('description')}
        />
        <TextField
          label="Endpoint URL"
          isRequired
          type="url"
          placeholder="https://mcp.example.com/mcp"
          value={form.endpoint_url}
          onChange={(e) => set('endpoint_url', e.target.value)}
          hasError={Boolean(shown('endpoint_url'))}
          errorMessage={shown('endpoint_url')}
          autoComplete="off"
          spellCheck={false}
        />
        <div className="admin-form__row">
          <TextField
            label="Model type"
            isRequired
            placeholder="code, search, productivity…"
            value={form.model_type}
            onChange={(e) => set('model_type', e.target.value)}
            hasError={Boolean(shown('model_type'))}
            errorMessage={shown('model_type')}
            autoComplete="off"
          />
          <SelectField label="Authentication" value={form.auth} onChange={(e) => set('auth', e.target.value as McpAuth)}>
            {AUTH_OPTIONS.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
              </option>
            ))}
          </SelectField>
        </div>
        <FeaturesField features={form.features} onChange={(features) => set('features', features)} error={shown('features')} />
      </div>
    </FormDialog>
  );
}

function conflictValues(s: AdminMcpServer) {
  return [
    { label: 'Name', value: s.name },
    { label: 'Endpoint URL', value: s.endpoint_url },
    { label: 'Model type', value: s.model_type },
    { label: 'Authentication', value: authLabel(s.auth) },
    { label: 'Features', value: s.features.join(', ') },
    { label: 'Enabled', value: yesNo(s.enabled) },
    { label: 'Description', value: s.description },
  ];
}
