// The admin lists, one hook per GET endpoint (docs/admin.md).

import { adminPath } from './paths';
import { readAuditEntry } from './read-audit';
import { readAgent, readCreator, readReview } from './read-creator';
import { readOrder, readOrderDetail } from './read-order';
import { readCategory, readPrompt } from './read-prompt';
import { readProbes, readServer } from './read-mcp';
import { readUser } from './read-user';
import { useAdminRead } from './use-admin-read';
import { usePagedList } from './use-paged-list';
import type { McpServerState, OrderFilters, PromptState, ReviewKind } from './types';

export const PROMPTS_PATH = adminPath('prompts');
export const CATEGORIES_PATH = adminPath('categories');
export const MCP_SERVERS_PATH = adminPath('mcp-servers');
export const ORDERS_PATH = adminPath('orders');
export const USERS_PATH = adminPath('users');
export const AUDIT_PATH = adminPath('audit');
export const REVIEWS_PATH = adminPath('reviews');
export const CREATORS_PATH = adminPath('creators');
export const AGENTS_PATH = adminPath('agents');

/** The largest page the API gives (limit 1–100). */
const WHOLE_LIST = 100;

export function useAdminPrompts(filters: { q: string; category: string; state: PromptState }) {
  return usePagedList(PROMPTS_PATH, filters, readPrompt);
}

/** Few enough to take whole: the category filter and select need them all. */
export function useAdminCategories() {
  return usePagedList(CATEGORIES_PATH, {}, readCategory, WHOLE_LIST);
}

export function useAdminMcpServers(filters: { q: string; state: McpServerState }) {
  return usePagedList(MCP_SERVERS_PATH, filters, readServer);
}

/** The last 50 probes of one server; null: none asked for. */
export function useMcpProbes(serverId: string | null) {
  return useAdminRead(serverId === null ? null : adminPath('mcp-servers', serverId, 'probes'), readProbes);
}

export function useAdminOrders(filters: OrderFilters) {
  return usePagedList(ORDERS_PATH, { ...filters }, readOrder);
}

/** One order with its payment events; null: none open. */
export function useAdminOrder(orderId: string | null) {
  return useAdminRead(orderId === null ? null : adminPath('orders', orderId), readOrderDetail);
}

export function useAdminUsers(q: string) {
  return usePagedList(USERS_PATH, { q }, readUser);
}

export function useAuditLog(filters: { actor: string; target: string }) {
  return usePagedList(AUDIT_PATH, filters, readAuditEntry);
}

/** The review queue of prompts or of agents, oldest submitted first; one list, not paged. */
export function useReviewQueue(kind: ReviewKind = 'prompt') {
  return usePagedList(REVIEWS_PATH, { kind }, readReview, WHOLE_LIST);
}

export function useAdminCreators() {
  return usePagedList(CREATORS_PATH, {}, readCreator);
}

/** Every agent, newest first: q on name and description, state one of the review states or 'suspended'. */
export function useAdminAgents(filters: { q: string; state: string }) {
  return usePagedList(AGENTS_PATH, filters, readAgent);
}
