// The MCP server form checks what the API checks (docs/admin.md, MCP
// registry): a name of 1–100 characters, a description of at most 2,000, an
// http(s) endpoint URL of at most 2,000, a model type that is a short
// lower-case word (letters, digits, -) such as `code`, at most 20 features
// of at most 40 characters each. The API's outbound rules may still refuse
// the address: it then saves the server disabled and says why in `warning`.
// An operator's OAuth client: an id of at most 200 characters and a secret
// of at most 1,000, without spaces; its authorization server an http(s)
// issuer URL without query or fragment. The secret is write-only: the form
// sets, replaces or clears it, and never shows it.

import type { AdminMcpServer, McpAuth, McpOAuthClient, McpOAuthClientInput, McpServerDraft } from '../api/types';

/** What Save does with the stored client secret. */
export type SecretAction = 'keep' | 'set' | 'clear';

export interface ServerForm extends Omit<McpServerDraft, 'oauth_client'> {
  oauth_client_id: string;
  oauth_issuer: string;
  oauth_secret_action: SecretAction;
  /** The new secret, when the action is 'set'. */
  oauth_secret: string;
  /** The client as read (null: none): an unchanged client is sent as it was, so the edit leaves it out. */
  oauth_base: McpOAuthClient | null;
}
export type ServerErrors = Partial<Record<'name' | 'description' | 'endpoint_url' | 'model_type' | 'features' | 'oauth_client_id' | 'oauth_secret' | 'oauth_issuer', string>>;

export const NAME_MAX = 100;
export const DESCRIPTION_MAX = 2_000;
export const URL_MAX = 2_000;
export const FEATURES_MAX = 20;
export const FEATURE_MAX = 40;
export const CLIENT_ID_MAX = 200;
export const CLIENT_SECRET_MAX = 1_000;
const MODEL_TYPE = /^[a-z][a-z0-9-]{0,39}$/;
const CONTROL = /\p{Cc}/u;
const SPACE_OR_CONTROL = /[\p{Cc}\s]/u;
const chars = (t: string) => [...t].length;

export const AUTH_OPTIONS: readonly { value: McpAuth; label: string }[] = [
  { value: 'none', label: 'None' },
  { value: 'api_key', label: 'API key' },
  { value: 'oauth', label: 'OAuth' },
];

export const EMPTY_SERVER_FORM: ServerForm = {
  name: '',
  description: '',
  endpoint_url: '',
  model_type: '',
  auth: 'none',
  features: [],
  oauth_client_id: '',
  oauth_issuer: '',
  oauth_secret_action: 'keep',
  oauth_secret: '',
  oauth_base: null,
};

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
  Object.assign(errors, validateOAuthClient(form));
  return errors;
}

/** The operator's OAuth client fields, as the API checks them. */
function validateOAuthClient(form: ServerForm): ServerErrors {
  const errors: ServerErrors = {};
  const id = form.oauth_client_id.trim();
  const issuer = form.oauth_issuer.trim();
  if (!id && (form.oauth_secret_action === 'set' || issuer)) errors.oauth_client_id = 'Enter the OAuth client id the secret and the authorization server go with.';
  else if (chars(id) > CLIENT_ID_MAX) errors.oauth_client_id = `The client id must be at most ${CLIENT_ID_MAX} characters.`;
  else if (SPACE_OR_CONTROL.test(id)) errors.oauth_client_id = 'The client id must not contain spaces.';
  if (form.oauth_secret_action === 'set') {
    const secret = form.oauth_secret;
    if (!secret) errors.oauth_secret = 'Enter the client secret, or cancel.';
    else if (chars(secret) > CLIENT_SECRET_MAX) errors.oauth_secret = `The secret must be at most ${CLIENT_SECRET_MAX.toLocaleString('en-US')} characters.`;
    else if (SPACE_OR_CONTROL.test(secret)) errors.oauth_secret = 'The secret must not contain spaces.';
  }
  if (issuer && !isIssuer(issuer)) errors.oauth_issuer = 'Enter the issuer URL from the authorization server’s metadata (https://…, without ? or #).';
  return errors;
}

/** An authorization server's issuer: an http(s) URL without query or fragment (RFC 8414). */
export function isIssuer(text: string): boolean {
  if (text.length > URL_MAX || text.includes('?') || text.includes('#')) return false;
  return isHttpUrl(text);
}

/**
 * What a save sends of the client: the client as read when nothing changed
 * (so an edit leaves it out), null for none (clearing one that was set),
 * else the id and issuer with the secret's action.
 */
export function oauthClientDraftOf(form: ServerForm): McpOAuthClientInput | null {
  const id = form.oauth_client_id.trim();
  const issuer = form.oauth_issuer.trim();
  const base = form.oauth_base;
  if (!id) return null;
  if (base && id === base.client_id && issuer === base.issuer && form.oauth_secret_action === 'keep') return base;
  const input: McpOAuthClientInput = { client_id: id, issuer };
  if (form.oauth_secret_action === 'set') input.client_secret = form.oauth_secret;
  if (form.oauth_secret_action === 'clear') input.client_secret = null;
  return input;
}

export function serverDraftOf(form: ServerForm): McpServerDraft {
  return {
    name: form.name.trim(),
    description: form.description.trim(),
    endpoint_url: form.endpoint_url.trim(),
    model_type: form.model_type.trim(),
    auth: form.auth,
    features: form.features,
    oauth_client: oauthClientDraftOf(form),
  };
}

export function serverFormOf(s: AdminMcpServer): ServerForm {
  return {
    name: s.name,
    description: s.description,
    endpoint_url: s.endpoint_url,
    model_type: s.model_type,
    auth: s.auth,
    features: [...s.features],
    oauth_client_id: s.oauth_client?.client_id ?? '',
    oauth_issuer: s.oauth_client?.issuer ?? '',
    oauth_secret_action: 'keep',
    oauth_secret: '',
    oauth_base: s.oauth_client,
  };
}
