// An in-memory stand-in for the creators API in page tests
// (docs/creators.md): the profile, onboarding, the prompts and the agents
// with their versions and states, agent import and export, the registry
// servers an agent picks from, and the dashboard. Tests change `state` directly to
// set the scene, and replace a route to make the API refuse.

import type { FakeApi } from './fake-api';
import { jsonResponse } from './jwt-fixtures';
import type { CreatorDashboard, CreatorProfile } from '../lib/api/use-creator';
import type { CreatorPrompt } from '../features/creators/api/types';
import type { CreatorAgent } from '../features/creators/api/agent-types';

/** A registry server as GET /api/v1/mcp-servers/ lists it, with the tools its probe found. */
export interface FakeRegistryServer {
  id: string;
  name: string;
  description: string;
  api_key_required: boolean;
  oauth_required: boolean;
  is_active: boolean;
  tools: { name: string; title?: string; description: string }[];
}

export interface CreatorsState {
  profile: CreatorProfile | null;
  prompts: CreatorPrompt[];
  dashboard: CreatorDashboard;
  onboardingUrl: string;
  agents: CreatorAgent[];
  registry: FakeRegistryServer[];
}

export const CATEGORIES = [
  { id: 'writing', name: 'Writing' },
  { id: 'sales', name: 'Sales' },
];

export function creatorProfile(extra: Partial<CreatorProfile> = {}): CreatorProfile {
  return {
    username: 'ada',
    display_name: 'Ada L.',
    bio: 'I write prompts.',
    country: 'GB',
    suspended: false,
    payouts: { status: 'none', charges_enabled: false, payouts_enabled: false },
    ...extra,
  };
}

export function creatorPrompt(extra: Partial<CreatorPrompt> = {}): CreatorPrompt {
  return {
    id: 'p-1',
    title: 'Cold email',
    description: 'Writes a cold email.',
    content: 'Write a cold email to [name].',
    price: 9.99,
    category_id: 'sales',
    category_name: 'Sales',
    state: 'draft',
    review_reason: null,
    version: 1,
    created_at: '2026-11-01T10:00:00Z',
    updated_at: '2026-11-01T10:00:00Z',
    purchases: 0,
    free_uses: 0,
    rating_avg: 0,
    rating_count: 0,
    published_versions: 0,
    pending: null,
    ...extra,
  };
}

export function creatorAgent(extra: Partial<CreatorAgent> = {}): CreatorAgent {
  return {
    id: 'a-000000000001',
    name: 'Sales coach',
    description: 'Coaches your sales calls.',
    instructions: 'You are a sales coach.',
    provider: 'openai',
    model: 'gpt-4o-mini',
    servers: [],
    starters: [],
    price: 0,
    is_free: true,
    category_id: 'sales',
    category_name: 'Sales',
    state: 'draft',
    review_reason: null,
    version: 1,
    created_at: '2026-11-01T10:00:00Z',
    updated_at: '2026-11-01T10:00:00Z',
    purchases: 0,
    rating_avg: 0,
    rating_count: 0,
    published_versions: 0,
    suspended: false,
    withdrawn: false,
    pending: null,
    ...extra,
  };
}

export function registryServer(extra: Partial<FakeRegistryServer> = {}): FakeRegistryServer {
  return {
    id: 'local-everything',
    name: 'Everything',
    description: 'The reference server.',
    api_key_required: false,
    oauth_required: false,
    is_active: true,
    tools: [
      { name: 'echo', title: 'Echo', description: 'Says it back.' },
      { name: 'add', description: 'Adds two numbers.' },
    ],
    ...extra,
  };
}

export const NO_SALES: CreatorDashboard = { sales: 0, gross: 0, fees: 0, net: 0, refunds: 0, prompts: [] };

const BASE = '/api/v1/creators/me';

export function fakeCreatorsApi(api: FakeApi, initial: Partial<CreatorsState> = {}): CreatorsState {
  const state: CreatorsState = {
    profile: null,
    prompts: [],
    dashboard: NO_SALES,
    onboardingUrl: 'https://connect.stripe.test/setup/acct_1',
    agents: [],
    registry: [],
    ...initial,
  };
  let n = state.prompts.length;
  const notCreator = () => jsonResponse(404, { detail: 'You are not a creator yet: save your creator profile first.', code: 'not_found' });
  const notFound = () => jsonResponse(404, { detail: 'Prompt not found.', code: 'not_found' });
  const stale = (p: CreatorPrompt) =>
    jsonResponse(409, { detail: 'This prompt changed since you opened it; here it is as it is now.', code: 'conflict', current: p });
  const categoryName = (id: string) => CATEGORIES.find((c) => c.id === id)?.name ?? '';

  api.route('GET /api/v1/prompts/categories', () => jsonResponse(200, CATEGORIES));
  api.route(`GET ${BASE}`, () => (state.profile ? jsonResponse(200, state.profile) : notCreator()));
  api.route(`PUT ${BASE}`, ({ body }) => {
    const b = body as { display_name: string; bio: string; country: string };
    state.profile = { ...(state.profile ?? creatorProfile()), display_name: b.display_name, bio: b.bio, country: b.country };
    return jsonResponse(200, state.profile);
  });
  api.route(`POST ${BASE}/onboarding`, () => (state.profile ? jsonResponse(200, { url: state.onboardingUrl }) : jsonResponse(409, { detail: 'You are not a creator yet.' })));
  api.route(`GET ${BASE}/dashboard`, () => (state.profile ? jsonResponse(200, state.dashboard) : notCreator()));
  api.route(`GET ${BASE}/prompts`, () => jsonResponse(200, { items: state.prompts }));

  const routePrompt = (id: string) => {
    const find = () => state.prompts.find((p) => p.id === id);
    api.route(`PATCH ${BASE}/prompts/${id}`, ({ body }) => {
      const cur = find();
      if (!cur) return notFound();
      const b = body as Partial<CreatorPrompt> & { version: number; change_note?: string };
      if (b.version !== cur.version) return stale(cur);
      if (cur.state === 'in_review') return jsonResponse(409, { detail: 'This prompt is in review: you can edit it once it is approved or rejected.' });
      const fields = { title: b.title!, description: b.description!, content: b.content!, price: b.price!, category_id: b.category_id! };
      let next: CreatorPrompt;
      if (cur.state === 'published') {
        if (!b.change_note?.trim()) return jsonResponse(400, { detail: 'change_note is required: say what changed, for your buyers.', code: 'invalid' });
        next = { ...cur, version: cur.version + 1, pending: { ...fields, change_note: b.change_note, state: 'draft', review_reason: null } };
      } else next = { ...cur, ...fields, category_name: categoryName(fields.category_id), version: cur.version + 1 };
      state.prompts = state.prompts.map((p) => (p.id === id ? next : p));
      return jsonResponse(200, next);
    });
    api.route(`POST ${BASE}/prompts/${id}/submit`, () => {
      const cur = find();
      if (!cur) return notFound();
      if (cur.state === 'in_review') return jsonResponse(409, { detail: 'This prompt is already in review.' });
      const next: CreatorPrompt =
        cur.state === 'published'
          ? { ...cur, version: cur.version + 1, pending: cur.pending ? { ...cur.pending, state: 'in_review', review_reason: null } : null }
          : { ...cur, state: 'in_review', review_reason: null, version: cur.version + 1 };
      state.prompts = state.prompts.map((p) => (p.id === id ? next : p));
      return jsonResponse(200, next);
    });
    api.route(`DELETE ${BASE}/prompts/${id}`, ({ url }) => {
      const cur = find();
      if (!cur) return notFound();
      if (url.searchParams.get('version') !== String(cur.version)) return stale(cur);
      state.prompts = state.prompts.filter((p) => p.id !== id);
      return new Response(null, { status: 204 });
    });
  };
  for (const p of state.prompts) routePrompt(p.id);

  api.route(`POST ${BASE}/prompts`, ({ body }) => {
    const b = body as CreatorPrompt;
    if (!CATEGORIES.some((c) => c.id === b.category_id)) return jsonResponse(400, { detail: `category "${b.category_id}" does not exist`, code: 'invalid' });
    const p = creatorPrompt({
      id: `p-new-${++n}`,
      title: b.title,
      description: b.description,
      content: b.content,
      price: b.price,
      category_id: b.category_id,
      category_name: categoryName(b.category_id),
    });
    state.prompts = [p, ...state.prompts];
    routePrompt(p.id);
    return jsonResponse(201, p);
  });
  fakeAgentRoutes(api, state, categoryName);
  return state;
}

/** The agent rules the fake holds a write to (the API's words, shared/agents). */
function agentRefusal(state: CreatorsState, b: Partial<CreatorAgent>): string | null {
  if (!b.name?.trim()) return 'name is required';
  if ([...(b.instructions ?? '')].length > 50_000) return 'instructions must be at most 50,000 characters';
  if (!FAKE_AGENT_MODELS[b.provider ?? '']) return `provider: ${b.provider} is not one of openai, meta, anthropic, google`;
  if (!FAKE_AGENT_MODELS[b.provider!].includes(b.model ?? '')) return `model: ${b.model} is not a model of ${b.provider}`;
  if ((b.servers ?? []).length > 10) return 'servers: at most 10';
  for (const s of b.servers ?? []) {
    const srv = state.registry.find((r) => r.id === s.server_id);
    if (!srv) return `servers: no server ${s.server_id} in the registry`;
    if (!srv.is_active) return `servers: ${s.server_id} is disabled`;
  }
  if ((b.starters ?? []).length > 4) return 'starters: at most 4';
  if (!CATEGORIES.some((c) => c.id === b.category_id)) return `category "${b.category_id}" does not exist`;
  return null;
}

const FAKE_AGENT_MODELS: Record<string, string[]> = {
  openai: ['gpt-4o-mini', 'gpt-4o', 'gpt-4-turbo', 'gpt-3.5-turbo'],
  meta: ['llama-3.1-8b-instruct', 'llama-3.1-70b-instruct', 'llama-3.2-1b-instruct'],
  anthropic: ['claude-3-5-sonnet', 'claude-3-opus'],
  google: ['gemini-1.5-pro', 'gemini-1.5-flash'],
};

function fakeAgentRoutes(api: FakeApi, state: CreatorsState, categoryName: (id: string) => string) {
  const AGENTS = `${BASE}/agents`;
  let n = state.agents.length;
  const notFound = () => jsonResponse(404, { detail: 'Agent not found.', code: 'not_found' });
  const stale = (a: CreatorAgent) => jsonResponse(409, { detail: 'This agent changed since you opened it; here it is as it is now.', code: 'conflict', current: a });
  const invalid = (detail: string) => jsonResponse(400, { detail, code: 'invalid' });
  const fieldsOf = (b: Partial<CreatorAgent>) => ({
    name: b.name!,
    description: b.description ?? '',
    instructions: b.instructions!,
    provider: b.provider!,
    model: b.model!,
    servers: b.servers ?? [],
    starters: b.starters ?? [],
    category_id: b.category_id!,
    price: b.price ?? 0,
  });
  const draftOf = (b: Partial<CreatorAgent>): CreatorAgent => {
    const f = fieldsOf(b);
    return creatorAgent({ id: `a-new${String(++n).padStart(9, '0')}`, ...f, is_free: f.price === 0, category_name: categoryName(f.category_id) });
  };
  const put = (next: CreatorAgent) => {
    state.agents = state.agents.map((a) => (a.id === next.id ? next : a));
    return jsonResponse(200, next);
  };

  const routeAgent = (id: string) => {
    const find = () => state.agents.find((a) => a.id === id);
    api.route(`PATCH ${AGENTS}/${id}`, ({ body }) => {
      const cur = find();
      if (!cur) return notFound();
      const b = body as Partial<CreatorAgent> & { version: number; change_note?: string };
      if (b.version !== cur.version) return stale(cur);
      if (cur.withdrawn) return jsonResponse(409, { detail: 'This agent was taken off the marketplace: its buyers keep it, and it can no longer be edited.' });
      if (cur.state === 'in_review') return jsonResponse(409, { detail: 'This agent is in review: you can edit it once it is approved or rejected.' });
      const refused = agentRefusal(state, b);
      if (refused) return invalid(refused);
      const f = fieldsOf(b);
      if (cur.state === 'published') {
        if (!b.change_note?.trim()) return invalid('change_note is required: say what changed, for your buyers.');
        return put({ ...cur, version: cur.version + 1, pending: { ...f, change_note: b.change_note, state: 'draft', review_reason: null } });
      }
      return put({ ...cur, ...f, is_free: f.price === 0, category_name: categoryName(f.category_id), version: cur.version + 1 });
    });
    api.route(`POST ${AGENTS}/${id}/submit`, () => {
      const cur = find();
      if (!cur) return notFound();
      if (cur.state === 'in_review') return jsonResponse(409, { detail: 'This agent is already in review.' });
      return put(
        cur.state === 'published'
          ? { ...cur, version: cur.version + 1, pending: cur.pending ? { ...cur.pending, state: 'in_review', review_reason: null } : null }
          : { ...cur, state: 'in_review', review_reason: null, version: cur.version + 1 },
      );
    });
    api.route(`DELETE ${AGENTS}/${id}`, ({ url }) => {
      const cur = find();
      if (!cur) return notFound();
      if (url.searchParams.get('version') !== String(cur.version)) return stale(cur);
      if (cur.purchases > 0) put({ ...cur, withdrawn: true, version: cur.version + 1 });
      else state.agents = state.agents.filter((a) => a.id !== id);
      return new Response(null, { status: 204 });
    });
    api.route(`GET /api/v1/agents/${id}/export`, () => {
      const a = find();
      if (!a) return notFound();
      const file = {
        format: 'aiwork.agent',
        format_version: 1,
        name: a.name,
        description: a.description,
        instructions: a.instructions,
        provider: a.provider,
        model: a.model,
        servers: a.servers,
        starters: a.starters,
        category_id: a.category_id,
        price: a.price,
      };
      return new Response(JSON.stringify(file), {
        status: 200,
        headers: { 'Content-Type': 'application/json', 'Content-Disposition': `attachment; filename="${id}.agent.json"` },
      });
    });
  };
  for (const a of state.agents) routeAgent(a.id);

  api.route(`GET ${AGENTS}`, () => jsonResponse(200, { items: state.agents }));
  api.route(`POST ${AGENTS}`, ({ body }) => {
    const b = body as Partial<CreatorAgent>;
    const refused = agentRefusal(state, b);
    if (refused) return invalid(refused);
    const a = draftOf(b);
    state.agents = [a, ...state.agents];
    routeAgent(a.id);
    return jsonResponse(201, a);
  });
  // The import reads the two formats as the API does, in short: an agent
  // file as it is; a LobeChat file's meta/config, its other fields listed.
  api.route(`POST ${AGENTS}/import`, ({ body }) => {
    if (typeof body !== 'object' || body === null) return invalid('The file is not JSON.');
    const f = body as Record<string, unknown>;
    let input: Partial<CreatorAgent>;
    const ignored: string[] = [];
    if (f.format === 'aiwork.agent') input = f as Partial<CreatorAgent>;
    else if (typeof (f.config as Record<string, unknown> | undefined)?.systemRole === 'string') {
      const meta = (f.meta ?? {}) as Record<string, unknown>;
      const config = f.config as Record<string, unknown>;
      input = { name: String(meta.title ?? ''), description: String(meta.description ?? ''), instructions: String(config.systemRole), provider: 'openai', model: 'gpt-4o-mini' };
      for (const k of Object.keys(meta)) if (!['title', 'description'].includes(k)) ignored.push(`meta.${k}`);
      for (const k of Object.keys(config)) if (k !== 'systemRole') ignored.push(`config.${k}`);
    } else return invalid('The file is not an agent file: it needs "format": "aiwork.agent", or config.systemRole as a LobeChat agent file has.');
    const a = draftOf({ ...input, category_id: input.category_id || CATEGORIES[0].id });
    state.agents = [a, ...state.agents];
    routeAgent(a.id);
    return jsonResponse(201, { agent: a, ignored });
  });

  const card = (s: FakeRegistryServer) => {
    const { tools, ...rest } = s;
    return { ...rest, tools_count: tools.length };
  };
  api.route('GET /api/v1/mcp-servers/', ({ url }) => {
    const q = (url.searchParams.get('search') ?? '').toLowerCase();
    const items = state.registry.filter((s) => s.is_active && (!q || `${s.name} ${s.description}`.toLowerCase().includes(q)));
    return jsonResponse(200, { items: items.map(card), next_cursor: null, count: items.length, count_exact: true });
  });
  for (const s of state.registry) {
    api.route(`GET /api/v1/mcp-servers/${s.id}`, () => jsonResponse(200, { ...card(s), server_info: null, tools: s.tools }));
  }
}
