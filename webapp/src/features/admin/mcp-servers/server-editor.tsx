// Add or edit an MCP server (saving and conflicts: use-editor-submit.ts).
// The API's `warning` (endpoint refused by the outbound rules: saved,
// disabled) is shown by the section after the save.

import { SelectField, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { readServer } from '../api/read-mcp';
import { createMcpServer, updateMcpServer } from '../api/requests';
import type { AdminMcpServer, McpAuth, McpServerDraft, McpServerSaved } from '../api/types';
import { EditorDialog } from '../components/editor-dialog';
import { useEditorSubmit, type EditorRules } from '../components/use-editor-submit';
import { yesNo } from '../format';
import { FeaturesField } from './features-field';
import { OAuthClientFields } from './oauth-client-fields';
import { AUTH_OPTIONS, authLabel, EMPTY_SERVER_FORM, serverDraftOf, serverFormOf, validateServerForm, type ServerErrors, type ServerForm } from './server-rules';

const RULES: EditorRules<AdminMcpServer, ServerForm, McpServerDraft, McpServerSaved | null, ServerErrors> = {
  empty: EMPTY_SERVER_FORM,
  formOf: serverFormOf,
  draftOf: serverDraftOf,
  validate: validateServerForm,
  create: createMcpServer,
  update: updateMcpServer,
  readCurrent: readServer,
  createFailed: 'The server could not be added. Please try again.',
  updateFailed: 'The server could not be saved. Please try again.',
};

interface ServerEditorProps {
  server: AdminMcpServer | null;
  onClose: () => void;
  /** After a save; null when the answer could not be read. */
  onSaved: (saved: McpServerSaved | null, created: boolean) => void;
}

export function ServerEditor({ server, onClose, onSaved }: ServerEditorProps) {
  const editor = useEditorSubmit(server, RULES, { onClose, onSaved });
  const { form, set, shown, textField } = editor;

  return (
    <EditorDialog
      title={server ? `Edit “${server.name}”` : 'Add an MCP server'}
      saveLabel={server ? 'Save changes' : 'Add server'}
      editor={editor}
      conflictValues={conflictValues}
      onClose={onClose}
      testId="server-editor"
      failureTestId="server-save-error"
    >
      <TextField label="Name" isRequired descriptiveText="1–100 characters." {...textField('name')} />
      <TextAreaField label="Description" rows={3} {...textField('description')} />
      <TextField
        label="Endpoint URL"
        isRequired
        type="url"
        placeholder="https://mcp.example.com/mcp"
        {...textField('endpoint_url')}
        autoComplete="off"
        spellCheck={false}
      />
      <div className="admin-form__row">
        <TextField label="Model type" isRequired placeholder="code, search, productivity…" {...textField('model_type')} autoComplete="off" />
        <SelectField label="Authentication" value={form.auth} onChange={(e) => set('auth', e.target.value as McpAuth)}>
          {AUTH_OPTIONS.map((a) => (
            <option key={a.value} value={a.value}>
              {a.label}
            </option>
          ))}
        </SelectField>
      </div>
      <FeaturesField features={form.features} onChange={(features) => set('features', features)} error={shown('features')} />
      {form.auth === 'oauth' || form.oauth_base ? <OAuthClientFields form={form} set={set} textField={textField} shown={shown} /> : null}
    </EditorDialog>
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
    { label: 'OAuth client', value: oauthClientLabel(s) },
    { label: 'Description', value: s.description },
  ];
}

function oauthClientLabel(s: AdminMcpServer): string {
  const c = s.oauth_client;
  if (!c) return 'None';
  return [c.client_id, c.has_secret ? 'secret set' : 'no secret', c.issuer || 'issuer not recorded yet'].join(' · ');
}
