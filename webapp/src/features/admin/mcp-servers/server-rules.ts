// The MCP server form. The contract names the fields, not their limits:
// the form asks for a name and an absolute http(s) endpoint URL (the API's
// outbound rules may still refuse the address: it then saves the server
// disabled and says why in `warning`).

import type { AdminMcpServer, McpAuth, McpServerDraft } from '../api/types';

export type ServerForm = McpServerDraft;
export type ServerErrors = Partial<Record<'name' | 'endpoint_url', string>>;

export const AUTH_OPTIONS: readonly { value: McpAuth; label: string }[] = [
  { value: 'none', label: 'None' },
  { value: 'api_key', label: 'API key' },
  { value: 'oauth', label: 'OAuth' },
];

export const EMPTY_SERVER_FORM: ServerForm = { name: '', description: '', endpoint_url: '', model_type: '', auth: 'none', features: [] };

export function authLabel(auth: McpAuth): string {
  return AUTH_OPTIONS.find((a) => a.value === auth)?.label ?? auth;
}

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export function validateServerForm(form: ServerForm): ServerErrors {
  const errors: ServerErrors = {};
  if (!form.name.trim()) errors.name = 'Name is required.';
  if (!form.endpoint_url.trim()) errors.endpoint_url = 'Endpoint URL is required.';
  else if (!isHttpUrl(form.endpoint_url)) errors.endpoint_url = 'Enter a full http:// or https:// address.';
  return errors;
}

export function serverDraftOf(form: ServerForm): McpServerDraft {
  return {
    name: form.name.trim(),
    description: form.description.trim(),
    endpoint_url: form.endpoint_url.trim(),
    model_type: form.model_type.trim(),
    auth: form.auth,
    features: form.features,
  };
}

export function serverFormOf(s: AdminMcpServer): ServerForm {
  return { name: s.name, description: s.description, endpoint_url: s.endpoint_url, model_type: s.model_type, auth: s.auth, features: [...s.features] };
}

/** The fields that differ from the server as it was read (an edit sends only these). */
export function changedServerFields(s: AdminMcpServer, draft: McpServerDraft): Partial<McpServerDraft> {
  const changes: Partial<McpServerDraft> = {};
  for (const key of Object.keys(draft) as (keyof McpServerDraft)[]) {
    const was = s[key];
    const now = draft[key];
    const same = Array.isArray(now) && Array.isArray(was) ? now.length === was.length && now.every((f, i) => f === was[i]) : now === was;
    if (!same) Object.assign(changes, { [key]: now });
  }
  return changes;
}
