// The creator studio's agent requests (docs/creators.md, Agents): the
// creator's agents, their writes, import and export, and the registry
// servers an agent may use. Reads are SWR hooks; writes return the API's
// answer and leave the cache to the caller, as the prompt requests do.

import useSWR from 'swr';
import { ApiError, apiRequest, authorizedFetch } from '../../../lib/api-client';
import { isRecord, list, str } from '../../../lib/api/wire';
import { useUserKey } from '../../../lib/use-user-key';
import type { AgentImport, CreatorAgent, CreatorAgentInput, CreatorAgentPatch, RegistryServer, RegistryTool } from './agent-types';

export const CREATOR_AGENTS_PATH = '/creators/me/agents';
const REGISTRY_PATH = '/mcp-servers/';

const agentPath = (id: string) => `${CREATOR_AGENTS_PATH}/${encodeURIComponent(id)}`;

/** GET /creators/me/agents, once the caller is a creator. */
export function useCreatorAgents(enabled: boolean) {
  const key = useUserKey(CREATOR_AGENTS_PATH);
  const swr = useSWR<{ items: CreatorAgent[] }>(enabled ? key : null, { shouldRetryOnError: false });
  return { ...swr, agents: Array.isArray(swr.data?.items) ? swr.data.items : [] };
}

export function createAgent(input: CreatorAgentInput): Promise<CreatorAgent> {
  return apiRequest<CreatorAgent>(CREATOR_AGENTS_PATH, { method: 'POST', body: input });
}

export function updateAgent(id: string, patch: CreatorAgentPatch): Promise<CreatorAgent> {
  return apiRequest<CreatorAgent>(agentPath(id), { method: 'PATCH', body: patch });
}

export function submitAgent(id: string): Promise<CreatorAgent> {
  return apiRequest<CreatorAgent>(`${agentPath(id)}/submit`, { method: 'POST' });
}

export function deleteAgent(id: string, version: number): Promise<void> {
  return apiRequest<void>(`${agentPath(id)}?version=${version}`, { method: 'DELETE' });
}

/** POST /creators/me/agents/import with the file's text as it is (the API reads either format). */
export async function importAgent(fileText: string): Promise<AgentImport> {
  const answer = await apiRequest<Partial<AgentImport>>(`${CREATOR_AGENTS_PATH}/import`, {
    method: 'POST',
    body: fileText,
    headers: { 'Content-Type': 'application/json' },
  });
  if (!answer?.agent) throw new ApiError(200, 'Unexpected response from server', { code: 'bad_response' });
  return { agent: answer.agent, ignored: Array.isArray(answer.ignored) ? answer.ignored.filter((x) => typeof x === 'string') : [] };
}

/** The file name from a Content-Disposition header, or null. */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition);
  return plain ? plain[1].trim() : null;
}

/** A file name for an agent's export when the answer names none: 'Sales coach' → 'sales-coach.agent.json'. */
export function exportFileName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${slug || 'agent'}.agent.json`;
}

/**
 * GET /agents/{id}/export (the caller's token: a paid agent's file is its
 * creator's only): the agent file, and the name to save it under.
 */
export async function exportAgent(id: string, name: string): Promise<{ blob: Blob; fileName: string }> {
  const res = await authorizedFetch(`/agents/${encodeURIComponent(id)}/export`, { headers: { Accept: 'application/json' } });
  if (!res.ok) {
    let detail = '';
    let body: unknown;
    try {
      body = await res.json();
      detail = isRecord(body) ? str(body.detail) : '';
    } catch {
      // not JSON: the status says it
    }
    throw new ApiError(res.status, detail || `The export failed (${res.status}).`, { fromServer: detail !== '', body });
  }
  return { blob: await res.blob(), fileName: fileNameOf(res.headers.get('Content-Disposition')) ?? exportFileName(name) };
}

function readServer(v: unknown): RegistryServer | null {
  if (!isRecord(v) || typeof v.id !== 'string' || !v.id) return null;
  if (v.is_active === false) return null;
  return {
    id: v.id,
    name: str(v.name) || v.id,
    description: str(v.description),
    auth: v.oauth_required === true ? 'oauth' : v.api_key_required === true ? 'key' : 'none',
  };
}

/** GET /mcp-servers/?search=: the first page of registry servers matching the words (public). */
export function useRegistrySearch(search: string | null) {
  const q = search?.trim() ?? '';
  const key = search === null ? null : q ? `${REGISTRY_PATH}?search=${encodeURIComponent(q)}` : REGISTRY_PATH;
  const swr = useSWR<unknown>(key, { dedupingInterval: 60_000, shouldRetryOnError: false, keepPreviousData: true });
  const o = isRecord(swr.data) ? swr.data : {};
  const servers = list(Array.isArray(swr.data) ? swr.data : o.items)
    .map(readServer)
    .filter((s): s is RegistryServer => s !== null);
  return { servers, error: swr.error as unknown, isLoading: swr.isLoading };
}

function readTool(v: unknown): RegistryTool | null {
  if (!isRecord(v) || typeof v.name !== 'string' || !v.name) return null;
  return { name: v.name, title: str(v.title), description: str(v.description) };
}

/** GET /mcp-servers/{id}: the server and the tools its last probe found (none when never probed). */
export function useRegistryServer(id: string) {
  const swr = useSWR<unknown>(`${REGISTRY_PATH}${encodeURIComponent(id)}`, { dedupingInterval: 60_000, shouldRetryOnError: false });
  const server = readServer(swr.data);
  const tools = isRecord(swr.data)
    ? list(swr.data.tools)
        .map(readTool)
        .filter((t): t is RegistryTool => t !== null)
    : [];
  return { server, tools, error: swr.error as unknown, isLoading: swr.isLoading };
}
