// What the composer reads from the user's MCP servers (shared/api/mcpapi
// prompts.go, resources.go): their prompts (typing "/"), a prompt filled
// with its arguments, an argument's completions, their resources and
// resource templates (the paperclip). Each list holds one entry per
// server, a server that failed with its `error` and nothing else.

import { apiRequest } from '../../../lib/api-client';
import { isRecord, list, num, str } from '../../../lib/api/wire';
import type { MessageAttachment } from '../state/types';

const BASE = '/mcp-connections';

export interface PromptArgument {
  name: string;
  title: string;
  description: string;
  required: boolean;
}

export interface McpPrompt {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgument[];
}

export interface PromptServer {
  connection_id: string;
  server_id: string;
  server_name: string;
  prompts: McpPrompt[];
  /** Why this server's prompts could not be read ('' when they were). */
  error: string;
}

export interface McpResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mime_type: string;
  /** Bytes, when the server says (0 otherwise). */
  size: number;
}

export interface McpResourceTemplate {
  uri_template: string;
  name: string;
  title: string;
  description: string;
  mime_type: string;
}

export interface ResourceServer {
  connection_id: string;
  server_id: string;
  server_name: string;
  resources: McpResource[];
  templates: McpResourceTemplate[];
  error: string;
}

/** A message of a filled prompt: its role and MCP content block as the server sent it. */
export interface PromptMessage {
  role: string;
  content: Record<string, unknown>;
}

/**
 * A filled prompt: its messages, and the resources they refer to without
 * their contents (resource links), which the server has read once and the
 * composer attaches to the message.
 */
export interface FilledPrompt {
  messages: PromptMessage[];
  attachments: MessageAttachment[];
}

/** The largest resource a message may attach (the server refuses more). */
export const MAX_RESOURCE_BYTES = 4 << 20;
/** At most this many resources go with one message. */
export const MAX_ATTACHMENTS = 10;

const idsQuery = (ids: readonly string[]) => `?connection_ids=${ids.map(encodeURIComponent).join(',')}`;

function serverOf(raw: Record<string, unknown>) {
  return {
    connection_id: str(raw.connection_id),
    server_id: str(raw.server_id),
    server_name: str(raw.server_name) || str(raw.server_id),
    error: str(raw.error),
  };
}

export function normalisePrompts(raw: unknown): PromptServer[] {
  return list(raw)
    .filter(isRecord)
    .map((s) => ({
      ...serverOf(s),
      prompts: list(s.prompts)
        .filter(isRecord)
        .filter((p) => str(p.name))
        .map((p) => ({
          name: str(p.name),
          title: str(p.title),
          description: str(p.description),
          arguments: list(p.arguments)
            .filter(isRecord)
            .filter((a) => str(a.name))
            .map((a) => ({ name: str(a.name), title: str(a.title), description: str(a.description), required: a.required === true })),
        })),
    }))
    .filter((s) => s.connection_id);
}

export function normaliseResources(raw: unknown): ResourceServer[] {
  return list(raw)
    .filter(isRecord)
    .map((s) => ({
      ...serverOf(s),
      resources: list(s.resources)
        .filter(isRecord)
        .filter((r) => str(r.uri))
        .map((r) => ({
          uri: str(r.uri),
          name: str(r.name) || str(r.uri),
          title: str(r.title),
          description: str(r.description),
          mime_type: str(r.mime_type),
          size: num(r.size),
        })),
      templates: list(s.templates)
        .filter(isRecord)
        .filter((t) => str(t.uri_template))
        .map((t) => ({
          uri_template: str(t.uri_template),
          name: str(t.name) || str(t.uri_template),
          title: str(t.title),
          description: str(t.description),
          mime_type: str(t.mime_type),
        })),
    }))
    .filter((s) => s.connection_id);
}

/** The prompts of the servers `ids` names (the tab's enabled ones). */
export async function fetchPrompts(ids: readonly string[], signal?: AbortSignal): Promise<PromptServer[]> {
  return normalisePrompts(await apiRequest(`${BASE}/prompts${idsQuery(ids)}`, { signal }));
}

/** The resources and templates of the servers `ids` names. */
export async function fetchResources(ids: readonly string[], signal?: AbortSignal): Promise<ResourceServer[]> {
  return normaliseResources(await apiRequest(`${BASE}/resources${idsQuery(ids)}`, { signal }));
}

/** Fills a prompt with its arguments; a resource it refers to that the server will not read refuses it, saying so. */
export async function getPrompt(connectionId: string, name: string, args: Record<string, string>): Promise<FilledPrompt> {
  const raw = await apiRequest(`${BASE}/${encodeURIComponent(connectionId)}/prompts/get`, { method: 'POST', body: { name, arguments: args } });
  const body = isRecord(raw) ? raw : {};
  return {
    messages: list(body.messages)
      .filter(isRecord)
      .map((m) => ({ role: str(m.role), content: isRecord(m.content) ? m.content : {} })),
    attachments: list(body.attachments)
      .filter(isRecord)
      .filter((a) => str(a.uri))
      .map((a) => ({
        connection_id: str(a.connection_id) || connectionId,
        uri: str(a.uri),
        name: str(a.name) || str(a.uri).split('/').pop() || str(a.uri),
        mime_type: str(a.mime_type),
        size: num(a.size),
      })),
  };
}

export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** The server's completions of an argument's value (none when it offers none). */
export async function complete(
  connectionId: string,
  ref: CompletionRef,
  argument: { name: string; value: string },
  context: Record<string, string>,
  signal?: AbortSignal,
): Promise<string[]> {
  const raw = await apiRequest(`${BASE}/${encodeURIComponent(connectionId)}/complete`, {
    method: 'POST',
    body: { ref, argument, context: { arguments: context } },
    signal,
  });
  return list(isRecord(raw) ? raw.values : []).filter((v): v is string => typeof v === 'string');
}

/**
 * A filled prompt as the composer takes it: its text parts joined; a
 * resource it refers to that goes with the message as an attachment
 * (`attached` lists their URIs) left out; the other parts (images, audio,
 * other resources) named in brackets, since a message is text.
 */
export function promptText(messages: readonly PromptMessage[], attached: readonly string[] = []): string {
  return messages
    .map(({ content: c }) => {
      switch (str(c.type)) {
        case 'text':
          return str(c.text);
        case 'resource': {
          const r = isRecord(c.resource) ? c.resource : {};
          if (str(r.text)) return str(r.text);
          return attached.includes(str(r.uri).trim()) ? '' : `[resource: ${str(r.uri)}]`;
        }
        case 'resource_link':
          return attached.includes(str(c.uri).trim()) ? '' : `[resource: ${str(c.uri)}]`;
        case 'image':
          return `[image: ${str(c.mimeType) || 'image'}]`;
        case 'audio':
          return `[audio: ${str(c.mimeType) || 'audio'}]`;
        default:
          return '';
      }
    })
    .filter((t) => t.trim() !== '')
    .join('\n\n');
}

/** The variables of a URI template ('{resourceId}', '{+path}', '{?q}' → their names). */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const m of template.matchAll(/\{([^}]+)\}/g)) {
    for (const part of m[1].replace(/^[+#./;?&]/, '').split(',')) {
      const name = part.replace(/[*]$|:\d+$/, '').trim();
      if (name && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

/** A URI template filled with values (simple expansion; reserved '{+x}' keeps slashes). */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([+#]?)([^}]+)\}/g, (_, op: string, names: string) =>
    names
      .split(',')
      .map((n) => {
        const v = values[n.replace(/[*]$|:\d+$/, '').trim()] ?? '';
        return op ? encodeURI(v) : encodeURIComponent(v);
      })
      .join(','),
  );
}

/** Bytes as people read them: '512 bytes', '12.3 KB', '5.0 MB'. */
export function humanSize(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
