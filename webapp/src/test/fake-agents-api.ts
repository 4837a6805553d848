// An in-memory stand-in for the agent marketplace's API in page tests
// (docs/agents.md): the list (search, category, sort, paging), an agent's
// page, rating and checkout. Tests pass the agents (or add() them), change
// an agent in place to set the scene, and replace a route to make the API
// refuse.

import type { FakeApi } from './fake-api';
import { jsonResponse } from './jwt-fixtures';
import type { Agent, AgentCard } from '../lib/api/agents';

export interface AgentsState {
  agents: Agent[];
  /** Page size the list answers with. */
  pageSize: number;
  /** Agent id → the ratings POSTed. */
  ratings: Record<string, number[]>;
  checkoutUrl: string;
}

export function fakeAgent(extra: Partial<Agent> = {}): Agent {
  return {
    id: 'a-000000000001',
    name: 'Inbox helper',
    description: 'Sorts your inbox and drafts replies.',
    creator: { username: 'ada', display_name: 'Ada L.' },
    provider: 'openai',
    model: 'gpt-4o',
    servers: [
      { server_id: 'local-everything', name: 'Everything', auth: 'none', tools: ['echo', 'get-sum'], connection_id: null },
      { server_id: 'com.notion--mcp', name: 'Notion', auth: 'oauth', tools: ['search'], connection_id: null },
    ],
    starters: ['Summarise my unread mail', 'Draft a polite no'],
    price: 0,
    is_free: true,
    owned: false,
    rating_avg: 4.5,
    rating_count: 2,
    version: 3,
    category_id: 'writing',
    category_name: 'Writing',
    created_at: '2026-11-01T10:00:00Z',
    instructions: 'You sort mail.',
    ...extra,
  };
}

/** The card the list answers for an agent. */
export function cardOf(a: Agent): AgentCard {
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    creator: a.creator,
    provider: a.provider,
    model: a.model,
    servers: a.servers.map((s) => ({ server_id: s.server_id, name: s.name, auth: s.auth })),
    price: a.price,
    is_free: a.is_free,
    rating_avg: a.rating_avg,
    rating_count: a.rating_count,
    category_id: a.category_id,
    category_name: a.category_name,
    created_at: a.created_at,
  };
}

const BASE = '/api/v1/agents';

export function fakeAgentsApi(api: FakeApi, initial: Partial<AgentsState> = {}): AgentsState & { add: (agent: Agent) => Agent } {
  const state: AgentsState = { agents: [], pageSize: 24, ratings: {}, checkoutUrl: 'http://localhost:12111/checkout/cs_agent_1', ...initial };
  const find = (id: string) => state.agents.find((a) => a.id === id);
  const notFound = () => jsonResponse(404, { detail: 'Agent not found.', code: 'not_found' });

  api.route(`GET ${BASE}/`, ({ url }) => {
    const words = (url.searchParams.get('search') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const category = url.searchParams.get('category') ?? '';
    const sort = url.searchParams.get('sort') ?? 'newest';
    const limit = Number(url.searchParams.get('limit') ?? state.pageSize) || state.pageSize;
    const from = Number(url.searchParams.get('cursor') || '0');
    const matching = state.agents
      .filter((a) => words.every((w) => `${a.name} ${a.description}`.toLowerCase().includes(w)))
      .filter((a) => !category || a.category_id === category)
      .sort((a, b) => {
        if (sort === 'price-low') return a.price - b.price;
        if (sort === 'price-high') return b.price - a.price;
        if (sort === 'rating') return b.rating_avg - a.rating_avg;
        return b.created_at.localeCompare(a.created_at);
      });
    const page = matching.slice(from, from + limit);
    return jsonResponse(200, { items: page.map(cardOf), next_cursor: from + limit < matching.length ? String(from + limit) : '', total: matching.length });
  });

  // Routes are exact paths: each agent's are set when it is added.
  const routeAgent = (id: string) => {
    api.route(`GET ${BASE}/${id}`, ({ headers }) => {
      const a = find(id);
      if (!a) return notFound();
      // Visitors are never connected.
      const view = headers.Authorization ? a : { ...a, owned: false, servers: a.servers.map((s) => ({ ...s, connection_id: null })) };
      const body: Record<string, unknown> = { ...view };
      if (!a.is_free) delete body.instructions;
      return jsonResponse(200, body);
    });
    api.route(`POST ${BASE}/${id}/rate`, ({ body }) => {
      const a = find(id);
      if (!a) return notFound();
      const rating = (body as { rating: number }).rating;
      (state.ratings[id] ??= []).push(rating);
      a.rating_avg = Math.round(((a.rating_avg * a.rating_count + rating) / (a.rating_count + 1)) * 10) / 10;
      a.rating_count += 1;
      return jsonResponse(200, { rating_avg: a.rating_avg, rating_count: a.rating_count });
    });
    api.route(`POST ${BASE}/${id}/checkout`, () => {
      const a = find(id);
      if (!a) return notFound();
      if (a.is_free) return jsonResponse(400, { detail: 'This agent is free: start a chat.', code: 'invalid' });
      if (a.owned) return jsonResponse(409, { detail: 'You already own this agent.', code: 'conflict' });
      return jsonResponse(200, { checkout_url: state.checkoutUrl, session_id: 'cs_agent_1' });
    });
  };

  for (const a of state.agents) routeAgent(a.id);
  const add = (agent: Agent): Agent => {
    state.agents.push(agent);
    routeAgent(agent.id);
    return agent;
  };
  return Object.assign(state, { add });
}
