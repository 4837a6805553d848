// The MCP server form checks what the API checks (docs/admin.md, MCP
// registry): a name of 1–100 characters, a description of at most 2,000, an
// http(s) endpoint URL of at most 2,000, a model type that is a short
// lower-case word (letters, digits, -) such as `code`, at most 20 features
// of at most 40 characters each. The API's outbound rules may still refuse
// the address: it then saves the server disabled and says why in `warning`.

import type { AdminMcpServer, McpAuth, McpServerDraft } from '../api/types';

export type ServerForm = McpServerDraft;
export type ServerErrors = Partial<Record<'name' | 'description' | 'endpoint_url' | 'model_type' | 'features', string>>;

export const NAME_MAX = 100;
export const DESCRIPTION_MAX = 2_000;
export const URL_MAX = 2_000;
export const FEATURES_MAX = 20;
export const FEATURE_MAX = 40;
const MODEL_TYPE = /^[a-z][a-z0-9-]{0,39}$/;
const CONTROL = /\p{Cc}/u;
const chars = (t: string) => [...t].length;

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

/** Why a feature cannot be added to `features`, or null. */
export function checkFeature(feature: string, features: readonly string[]): string | null {
  if (features.length >= FEATURES_MAX) return `At most ${FEATURES_MAX} features.`;
  if (chars(feature) > FEATURE_MAX) return `A feature must be at most ${FEATURE_MAX} characters.`;
  return null;
}

export function validateServerForm(form: ServerForm): ServerErrors {
  const errors: ServerErrors = {};
  const name = form.name.trim();
  if (!name) errors.name = 'Name is required.';
  else if (chars(name) > NAME_MAX) errors.name = `Name must be at most ${NAME_MAX} characters (now ${chars(name)}).`;
  else if (CONTROL.test(name)) errors.name = 'Name must be one line, without tabs or other control characters.';
  const description = chars(form.description.trim());
  if (description > DESCRIPTION_MAX) errors.description = `Description must be at most 2,000 characters (now ${description.toLocaleString('en-US')}).`;
  const url = form.endpoint_url.trim();
  if (!url) errors.endpoint_url = 'Endpoint URL is required.';
  else if (url.length > URL_MAX) errors.endpoint_url = `The URL must be at most ${URL_MAX.toLocaleString('en-US')} characters.`;
  else if (!isHttpUrl(url)) errors.endpoint_url = 'Enter a full http:// or https:// address.';
  const modelType = form.model_type.trim();
  if (!modelType) errors.model_type = 'Model type is required.';
  else if (!MODEL_TYPE.test(modelType)) errors.model_type = 'One short lower-case word: letters, digits and -, starting with a letter (code, search…).';
  if (form.features.length > FEATURES_MAX) errors.features = `At most ${FEATURES_MAX} features.`;
  else if (form.features.some((f) => chars(f) > FEATURE_MAX)) errors.features = `Each feature must be at most ${FEATURE_MAX} characters.`;
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
