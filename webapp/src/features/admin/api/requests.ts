// The admin API's writes (docs/admin.md). Each throws ApiError on a
// refusal; an answer that cannot be read gives null (the write happened:
// the caller reads the list again).

import { apiRequest } from '../../../lib/api-client';
import { adminPath, withQuery } from './paths';
import { readAgent, readCreator } from './read-creator';
import { readOrder } from './read-order';
import { readCategory, readPrompt } from './read-prompt';
import { readHealth, readServerSaved, readSyncResult } from './read-mcp';
import { readUser } from './read-user';
import type {
  AdminAgent,
  AdminCategory,
  AdminCreator,
  AdminOrder,
  AdminPrompt,
  AdminUser,
  McpHealth,
  McpServerDraft,
  McpServerSaved,
  PromptDraft,
  ReviewDecisionKind,
  SyncResult,
  UserAction,
  Version,
} from './types';

// Prompts

export async function createPrompt(draft: PromptDraft): Promise<AdminPrompt | null> {
  return readPrompt(await apiRequest(adminPath('prompts'), { method: 'POST', body: draft }));
}

export async function updatePrompt(id: string, version: Version, changes: Partial<PromptDraft>): Promise<AdminPrompt | null> {
  return readPrompt(await apiRequest(adminPath('prompts', id), { method: 'PATCH', body: { version, ...changes } }));
}

/** Deletes the prompt as read at `version` (a newer one is 409 with `current`). */
export function deletePrompt(id: string, version: Version): Promise<void> {
  return apiRequest<void>(withQuery(adminPath('prompts', id), { version }), { method: 'DELETE' });
}

// Categories

export async function createCategory(name: string): Promise<AdminCategory | null> {
  return readCategory(await apiRequest(adminPath('categories'), { method: 'POST', body: { name } }));
}

export async function renameCategory(id: string, name: string): Promise<AdminCategory | null> {
  return readCategory(await apiRequest(adminPath('categories', id), { method: 'PATCH', body: { name } }));
}

export function deleteCategory(id: string): Promise<void> {
  return apiRequest<void>(adminPath('categories', id), { method: 'DELETE' });
}

// MCP servers

export async function createMcpServer(draft: McpServerDraft): Promise<McpServerSaved | null> {
  // No client: the field is left out rather than sent as null.
  const { oauth_client, ...rest } = draft;
  return readServerSaved(await apiRequest(adminPath('mcp-servers'), { method: 'POST', body: oauth_client ? draft : rest }));
}

export async function updateMcpServer(id: string, version: Version, changes: Partial<McpServerDraft> & { enabled?: boolean }): Promise<McpServerSaved | null> {
  return readServerSaved(await apiRequest(adminPath('mcp-servers', id), { method: 'PATCH', body: { version, ...changes } }));
}

/** Runs the probe job on the server now; its resulting health. */
export async function probeMcpServer(id: string): Promise<McpHealth> {
  const answer = await apiRequest<{ health?: unknown } | undefined>(adminPath('mcp-servers', id, 'probe'), { method: 'POST' });
  return readHealth(answer?.health);
}

export async function syncMcpRegistry(): Promise<SyncResult> {
  return readSyncResult(await apiRequest(adminPath('mcp-sync'), { method: 'POST' }));
}

// Orders

/** Refunds a paid order (a second call answers the refunded order again, with no second refund). */
export async function refundOrder(id: string, reason: string): Promise<AdminOrder | null> {
  const body = reason.trim() ? { reason: reason.trim() } : {};
  return readOrder(await apiRequest(adminPath('orders', id, 'refund'), { method: 'POST', body }));
}

// Users

export async function runUserAction(id: string, action: UserAction): Promise<AdminUser | null> {
  return readUser(await apiRequest(adminPath('users', id, action), { method: 'POST' }));
}

// Reviews

/** Approves or rejects a prompt or an agent in review (a rejection needs its reason, which the creator reads). */
export function decideReview(id: string, decision: ReviewDecisionKind, reason: string): Promise<unknown> {
  return apiRequest(adminPath('reviews', id), { method: 'POST', body: { decision, reason: reason.trim() } });
}

// Creators

/** Suspends (their prompts leave the marketplace at once; buyers keep them) or unsuspends a creator. */
export async function setCreatorSuspended(id: string, suspended: boolean): Promise<AdminCreator | null> {
  return readCreator(await apiRequest(adminPath('creators', id, suspended ? 'suspend' : 'unsuspend'), { method: 'POST' }));
}

// Agents

/** Suspends an agent (off the marketplace at once; its buyers keep it) or unsuspends it. Audited as agent.suspend / agent.unsuspend. */
export async function setAgentSuspended(id: string, suspended: boolean): Promise<AdminAgent | null> {
  return readAgent(await apiRequest(adminPath('agents', id, suspended ? 'suspend' : 'unsuspend'), { method: 'POST' }));
}
