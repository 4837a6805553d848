// The chat function's MCP Apps routes (/api/v1/chat/apps/…). The browser
// never talks to an MCP server: a tool's view (its `ui://` resource) is read
// through the user's connection by the chat function, and every tool call
// a view makes goes through it too, checked like the model's (the server's
// tool list, the user's permissions, the approval).

import { ApiError, apiRequest } from '../../../lib/api-client';
import { isRecord, str, strList } from '../../../lib/api/wire';

export const APP_VIEW_PATH = '/chat/apps/view';
export const APP_CALL_PATH = '/chat/apps/call';

/** The domains a view declared it needs (`_meta.ui.csp`), as the route answers them. */
export interface ViewCsp {
  connectDomains: string[];
  resourceDomains: string[];
  frameDomains: string[];
  baseUriDomains: string[];
}

/** The browser features a view asked for (`_meta.ui.permissions`), in the extension's names. */
export interface ViewPermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/** A tool's view, as POST /chat/apps/view answers it. */
export interface AppView {
  uri: string;
  html: string;
  csp: ViewCsp;
  permissions: ViewPermissions;
  /** The view asks for a border (true), none (false), or leaves it to the host (null). */
  prefersBorder: boolean | null;
}

/** An MCP CallToolResult as the server sent it (content blocks, structuredContent, isError). */
export interface AppToolResult {
  content: { type: string; [field: string]: unknown }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [field: string]: unknown;
}

function readCsp(raw: unknown): ViewCsp {
  const csp = isRecord(raw) ? raw : {};
  return {
    connectDomains: strList(csp.connect_domains),
    resourceDomains: strList(csp.resource_domains),
    frameDomains: strList(csp.frame_domains),
    baseUriDomains: strList(csp.base_uri_domains),
  };
}

function readPermissions(raw: unknown): ViewPermissions {
  const p = isRecord(raw) ? raw : {};
  const out: ViewPermissions = {};
  if (isRecord(p.camera)) out.camera = {};
  if (isRecord(p.microphone)) out.microphone = {};
  if (isRecord(p.geolocation)) out.geolocation = {};
  if (isRecord(p.clipboard_write)) out.clipboardWrite = {};
  return out;
}

/** Reads the view `uri` of a tool on the MCP connection `connectionId` (the user's own). */
export async function fetchAppView(connectionId: string, uri: string, signal?: AbortSignal): Promise<AppView> {
  const raw = await apiRequest(APP_VIEW_PATH, { method: 'POST', body: { connection_id: connectionId, uri }, signal });
  if (!isRecord(raw) || typeof raw.html !== 'string') throw new ApiError(200, 'The server did not answer with a view', { code: 'bad_response' });
  return {
    uri: str(raw.uri) || uri,
    html: raw.html,
    csp: readCsp(raw.csp),
    permissions: readPermissions(raw.permissions),
    prefersBorder: typeof raw.prefers_border === 'boolean' ? raw.prefers_border : null,
  };
}

/** How a view's call is to be checked: the user approved it; the tab asks before read-only tools too. */
export interface AppCallOptions {
  approved: boolean;
  confirmReadOnly: boolean;
}

/**
 * Runs a tool a view asked for on the view's connection. A 409 with code
 * `approval_required` (the tool is not read-only nor always allowed, or the
 * tab asks before read-only tools too) is for the user to decide: the
 * caller asks, then posts again with approved.
 */
export async function callAppTool(connectionId: string, tool: string, args: Record<string, unknown>, options: AppCallOptions): Promise<AppToolResult> {
  const body = { connection_id: connectionId, tool, arguments: args, approved: options.approved, confirm_read_only: options.confirmReadOnly };
  const raw = await apiRequest(APP_CALL_PATH, { method: 'POST', body });
  const result = isRecord(raw) ? raw.result : undefined;
  if (!isRecord(result) || !Array.isArray(result.content)) throw new ApiError(200, 'The server did not answer with a tool result', { code: 'bad_response' });
  return result as AppToolResult;
}

/** The call waits for the user's approval. */
export const needsApproval = (error: unknown): boolean => error instanceof ApiError && error.status === 409 && error.code === 'approval_required';
