// The agent marketplace's API (docs/agents.md), read by the /agents pages
// and by the chat tab bound to an agent:
//   GET  /agents/?search=&category=&sort=&limit=&cursor= → {items: [card], next_cursor, total}
//   GET  /agents/{id}          → the agent (its servers with the caller's connection to each)
//   GET  /agents/{id}/export   → the agent file (a free agent: anyone)
//   POST /agents/{id}/rate     {rating} → the agent's rating
//   POST /agents/{id}/checkout → {checkout_url, session_id}
// Answers are read field by field (the Go side sends nil lists as null).

import { useMemo, useRef } from 'react';
import useSWR from 'swr';
import useSWRInfinite from 'swr/infinite';
import { API_BASE, apiRequest } from '../api-client';
import { safeHref } from '../safe-href';
import { useAuth } from '../use-auth';
import { bool, isRecord, list, num, str, strList } from './wire';

export const AGENTS_PATH = '/agents/';
/** As the prompt list: the marketplace's cards are cached 5 minutes. */
export const AGENTS_CACHE_MS = 5 * 60_000;

/** How a user connects to one of an agent's servers. */
export type AgentAuth = 'none' | 'key' | 'oauth';

export interface AgentCreator {
  username: string;
  display_name: string;
}

export interface AgentCardServer {
  server_id: string;
  name: string;
  auth: AgentAuth;
}

/** One card of the marketplace's list. */
export interface AgentCard {
  id: string;
  name: string;
  description: string;
  /** null: one of the platform's own agents. */
  creator: AgentCreator | null;
  provider: string;
  model: string;
  servers: AgentCardServer[];
  price: number;
  is_free: boolean;
  rating_avg: number;
  rating_count: number;
  category_id: string;
  category_name: string;
  created_at: string;
}

export interface AgentServer extends AgentCardServer {
  /** The tools the agent may call on it (the only ones offered to the model). */
  tools: string[];
  /** The signed-in caller's connection to this server; null when not connected (always for visitors). */
  connection_id: string | null;
}

/** GET /agents/{id}. */
export interface Agent extends Omit<AgentCard, 'servers'> {
  servers: AgentServer[];
  starters: string[];
  /** The caller bought it or made it. */
  owned: boolean;
  version: number;
  /** Only a free agent's: a paid agent's instructions never reach a browser. */
  instructions?: string;
}

export type AgentSort = 'newest' | 'price-low' | 'price-high' | 'rating';

export const AGENT_SORTS: readonly { value: AgentSort; label: string }[] = [
  { value: 'newest', label: 'Newest First' },
  { value: 'rating', label: 'Top Rated' },
  { value: 'price-low', label: 'Price: Low to High' },
  { value: 'price-high', label: 'Price: High to Low' },
];

export function isAgentSort(value: unknown): value is AgentSort {
  return AGENT_SORTS.some((o) => o.value === value);
}

export interface AgentQuery {
  search?: string;
  category?: string;
  /** Omitted for 'newest', the server's default. */
  sort?: AgentSort;
  limit?: number;
  cursor?: string;
}

export interface AgentPage {
  items: AgentCard[];
  /** null on the last page. */
  next_cursor: string | null;
  /** How many agents the list has. */
  total: number;
}

const AUTHS: readonly AgentAuth[] = ['none', 'key', 'oauth'];

function authOf(v: unknown): AgentAuth {
  return AUTHS.find((a) => a === v) ?? 'none';
}

function readCreator(v: unknown): AgentCreator | null {
  if (!isRecord(v) || !str(v.username)) return null;
  return { username: str(v.username), display_name: str(v.display_name) || str(v.username) };
}

function readCardServer(v: unknown): AgentCardServer | null {
  if (!isRecord(v) || !str(v.server_id)) return null;
  return { server_id: str(v.server_id), name: str(v.name) || str(v.server_id), auth: authOf(v.auth) };
}

function readServer(v: unknown): AgentServer | null {
  const base = readCardServer(v);
  if (!base || !isRecord(v)) return null;
  return { ...base, tools: strList(v.tools), connection_id: str(v.connection_id) || null };
}

function readCardFields(v: Record<string, unknown>): Omit<AgentCard, 'servers'> {
  const price = Math.max(0, num(v.price));
  return {
    id: str(v.id),
    name: str(v.name) || str(v.id),
    description: str(v.description),
    creator: readCreator(v.creator),
    provider: str(v.provider),
    model: str(v.model),
    price,
    is_free: typeof v.is_free === 'boolean' ? v.is_free : price === 0,
    rating_avg: num(v.rating_avg),
    rating_count: Math.max(0, Math.floor(num(v.rating_count))),
    category_id: str(v.category_id),
    category_name: str(v.category_name),
    created_at: str(v.created_at),
  };
}

export function readAgentCard(v: unknown): AgentCard | null {
  if (!isRecord(v) || !str(v.id)) return null;
  return {
    ...readCardFields(v),
    servers: list(v.servers)
      .map(readCardServer)
      .filter((s): s is AgentCardServer => s !== null),
  };
}

export function readAgent(v: unknown): Agent | null {
  if (!isRecord(v) || !str(v.id)) return null;
  const agent: Agent = {
    ...readCardFields(v),
    servers: list(v.servers)
      .map(readServer)
      .filter((s): s is AgentServer => s !== null),
    starters: strList(v.starters),
    owned: bool(v.owned),
    version: Math.floor(num(v.version)),
  };
  if (typeof v.instructions === 'string') agent.instructions = v.instructions;
  return agent;
}

export function readAgentPage(v: unknown): AgentPage {
  const body = isRecord(v) ? v : {};
  const items = list(body.items)
    .map(readAgentCard)
    .filter((a): a is AgentCard => a !== null);
  const next = str(body.next_cursor) || null;
  return { items, next_cursor: next, total: typeof body.total === 'number' ? Math.max(items.length, Math.floor(num(body.total))) : items.length };
}

export function agentsUrl(query: AgentQuery = {}): string {
  const params = new URLSearchParams();
  const search = query.search?.trim();
  if (search) params.set('search', search);
  if (query.category) params.set('category', query.category);
  if (query.sort && query.sort !== 'newest') params.set('sort', query.sort);
  if (query.limit) params.set('limit', String(query.limit));
  if (query.cursor) params.set('cursor', query.cursor);
  const qs = params.toString();
  return qs ? `${AGENTS_PATH}?${qs}` : AGENTS_PATH;
}

export const agentPath = (id: string): string => `${AGENTS_PATH}${encodeURIComponent(id)}`;

/** The agent file's address, for a plain download link (a free agent's needs no sign-in). */
export const agentExportHref = (id: string): string => `${API_BASE}${agentPath(id)}/export`;

/** The agent's own page in the web app. */
export const agentPagePath = (id: string): string => `/agents/${encodeURIComponent(id)}`;

/** The chat tab bound to the agent: /llm-chat?agent={id} opens one. */
export const agentChatPath = (id: string): string => `/llm-chat?agent=${encodeURIComponent(id)}`;

/** The creator's public page. */
export const creatorPagePath = (username: string): string => `/creators/${encodeURIComponent(username)}`;

async function agentAt(path: string, signal?: AbortSignal): Promise<Agent> {
  const agent = readAgent(await apiRequest(path, { signal }));
  if (!agent) throw new Error('The server did not answer with an agent');
  return agent;
}

export function fetchAgent(id: string, signal?: AbortSignal): Promise<Agent> {
  return agentAt(agentPath(id), signal);
}

/** POST …/rate: the agent's rating after it. */
export async function rateAgent(id: string, rating: number): Promise<{ rating_avg: number; rating_count: number }> {
  const raw = await apiRequest(`${agentPath(id)}/rate`, { method: 'POST', body: { rating } });
  const o = isRecord(raw) ? raw : {};
  return { rating_avg: num(o.rating_avg), rating_count: Math.max(0, Math.floor(num(o.rating_count))) };
}

/** POST …/checkout: the checkout page to send the browser to; null when the answer names none that is safe to follow. */
export async function checkoutAgent(id: string): Promise<string | null> {
  const raw = await apiRequest(`${agentPath(id)}/checkout`, { method: 'POST' });
  const url = isRecord(raw) ? str(raw.checkout_url) : '';
  if (url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\')) return url;
  return safeHref(url);
}

/** A page's cache key: per query, cursor and user (a buyer's `owned` is not a visitor's). */
function pageKey(query: AgentQuery, userId: string | null): readonly [string, string, string] {
  return [agentsUrl(query), userId ?? 'visitor', 'agents-page'];
}

async function fetchAgentPage([url]: readonly [string, string, string]): Promise<AgentPage> {
  return readAgentPage(await apiRequest(url));
}

/**
 * The marketplace's agents, a page at a time; while a new query's first
 * page loads, the previous query's pages of the same user stay shown.
 * Pass null to skip the request.
 */
export function useAgentPages(query: AgentQuery | null) {
  const { user } = useAuth();
  const userId = user?.id ?? null;
  const scope = userId ?? 'visitor';
  const swr = useSWRInfinite<AgentPage, unknown>(
    (index, previous: AgentPage | null) => {
      if (!query) return null;
      if (index === 0) return pageKey(query, userId);
      if (!previous?.next_cursor) return null;
      return pageKey({ ...query, cursor: previous.next_cursor }, userId);
    },
    fetchAgentPage,
    { dedupingInterval: AGENTS_CACHE_MS, shouldRetryOnError: false, revalidateFirstPage: false },
  );
  const last = useRef<{ scope: string; data: AgentPage[] } | null>(null);
  if (swr.data !== undefined) last.current = { scope, data: swr.data };
  const pages = swr.data ?? (query && !swr.error && last.current?.scope === scope ? last.current.data : undefined);
  const agents = useMemo(() => {
    const seen = new Set<string>();
    const out: AgentCard[] = [];
    for (const page of pages ?? []) {
      for (const a of page.items) {
        if (seen.has(a.id)) continue;
        seen.add(a.id);
        out.push(a);
      }
    }
    return out;
  }, [pages]);
  const lastPage = pages?.[pages.length - 1];
  const loadingMore = swr.data !== undefined && swr.size > swr.data.length && !swr.error;
  const { setSize, mutate } = swr;
  return {
    pages,
    agents: swr.error && !swr.data ? [] : agents,
    error: swr.error,
    total: Math.max(lastPage?.total ?? 0, agents.length),
    isPrevious: swr.data === undefined && pages !== undefined,
    hasMore: Boolean(lastPage?.next_cursor) && swr.data !== undefined,
    loadingMore,
    loadMore: () => {
      if (!loadingMore && swr.data && lastPage?.next_cursor) void setSize(swr.data.length + 1);
    },
    revalidate: () => mutate(),
  };
}

/** GET /agents/{id}, per user (the caller's connections and ownership are in it); null id: no request. */
export function useAgent(id: string | null) {
  const { user } = useAuth();
  const swr = useSWR<Agent>(id ? [agentPath(id), user?.id ?? 'visitor', 'agent'] : null, ([path]: readonly [string, string, string]) => agentAt(path), {
    shouldRetryOnError: false,
  });
  return { agent: swr.data, error: swr.error as unknown, isLoading: swr.isLoading, mutate: swr.mutate };
}

/** GET /prompts/categories: agents share the prompts' categories (the same cache entry as the marketplace's). */
export function useAgentCategories(): { id: string; name: string }[] {
  const swr = useSWR<unknown>('/prompts/categories', { dedupingInterval: 10 * 60_000, shouldRetryOnError: false });
  return useMemo(
    () =>
      list(swr.data)
        .filter(isRecord)
        .map((c) => ({ id: String(c.id ?? ''), name: str(c.name) }))
        .filter((c) => c.id && c.name),
    [swr.data],
  );
}
