// A fake of the admin API (docs/admin.md) for the admin page tests, on
// the route table of src/test/fake-api.ts (passed in: a non-test module may
// not import src/test). State lives in memory and the tests may change it
// ("another admin edits the prompt"). Lists page with `limit` and an
// opaque cursor and answer total, except the audit log, which has none.

export interface RouteTable {
  route(key: string, handler: (req: { url: URL; body: unknown }) => Response | Promise<Response>): void;
}

const BASE = '/api/v1/admin';

export const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const noContent = () => new Response(null, { status: 204 });
const refuse = (status: number, detail: string, code: string) => json(status, { detail, code });

export const ADMIN_FORBIDDEN = { detail: 'Admin access required.', code: 'forbidden' };

type Json = Record<string, unknown>;

export interface WirePrompt extends Json {
  id: string;
  title: string;
  description: string;
  content: string;
  price: number;
  category_id: string;
  category_name: string;
  featured: boolean;
  published: boolean;
  created_at: string;
  updated_at: string;
  version: number;
  stats: { free_uses: number; purchases: number; revenue: number; rating_avg: number; rating_count: number };
}

export interface WireCategory extends Json {
  id: string;
  name: string;
}

export interface WireHealth extends Json {
  status: string;
  checked_at: string;
  latency_ms: number;
  tools_count: number;
  error: string;
}

export interface WireServer extends Json {
  id: string;
  name: string;
  registry_name: string;
  description: string;
  endpoint_url: string;
  model_type: string;
  auth: string;
  features: string[];
  enabled: boolean;
  listed: boolean;
  source: string;
  health: WireHealth;
  updated_at: string;
  version: number;
  oauth_client: { client_id: string; has_secret: boolean; issuer: string } | null;
}

export interface WireOrder extends Json {
  id: string;
  user_id: string;
  user_email: string;
  prompt_id: string;
  prompt_title: string;
  amount: number;
  status: string;
  created_at: string;
  paid_at?: string;
  refunded_at?: string;
  payment_intent?: string;
  refund_reason?: string;
  /** A creator's sale: who sold it, the platform's fee and the creator's share (USD). */
  creator?: { username: string; display_name: string } | null;
  fee?: number;
  net?: number;
  events: { id: string; type: string; received_at: string }[];
}

export interface WireUser extends Json {
  id: string;
  email: string;
  username: string;
  full_name: string;
  is_verified: boolean;
  is_superuser: boolean;
  disabled: boolean;
  locked_until?: string;
  created_at: string;
  purchases: number;
  connections: number;
  chat_tokens_today: number;
}

export interface WireAudit extends Json {
  id: string;
  at: string;
  actor_id: string;
  actor_email: string;
  action: string;
  target_type: string;
  target_id: string;
  before: unknown;
  after: unknown;
  pending?: boolean;
}

export interface WireReview extends Json {
  id: string;
  kind: string;
  title: string;
  description: string;
  content: string;
  price: number;
  category_id: string;
  category_name: string;
  version: number;
  change_note: string;
  live_version: number;
  submitted_at: string;
  creator: { user_id: string; username: string; display_name: string; payouts_status: string };
  decisions: { at: string; decision: string; reason: string }[];
  /** kind agent: what it runs with. */
  agent?: { provider: string; model: string; servers: { server_id: string; name: string; tools: string[] }[]; starters: string[] };
}

export interface WireAgent extends Json {
  id: string;
  name: string;
  description: string;
  provider: string;
  model: string;
  price: number;
  is_free: boolean;
  category_id: string;
  category_name: string;
  state: string;
  version: number;
  published_versions: number;
  suspended: boolean;
  creator_suspended: boolean;
  withdrawn: boolean;
  on_sale: boolean;
  creator: { user_id: string; username: string; display_name: string };
  rating_avg: number;
  rating_count: number;
  created_at: string;
}

export interface WireCreator extends Json {
  id: string;
  username: string;
  display_name: string;
  country: string;
  suspended: boolean;
  payouts_status: string;
  charges_enabled: boolean;
  payouts_enabled: boolean;
  prompts: { draft: number; in_review: number; published: number; rejected: number };
  sales?: number;
  net?: number;
  created_at: string;
}

const T0 = '2026-03-07T10:00:00Z';

export const CATEGORIES: WireCategory[] = [
  { id: 'marketing', name: 'Marketing' },
  { id: 'sales', name: 'Sales' },
  { id: 'empty', name: 'Empty shelf' },
];

export function prompt(over: Partial<WirePrompt> & { id: string }): WirePrompt {
  return {
    title: `Prompt ${over.id}`,
    description: `About ${over.id}`,
    content: `Write about [TOPIC] for ${over.id}.`,
    price: 9.99,
    category_id: 'marketing',
    category_name: 'Marketing',
    featured: false,
    published: true,
    created_at: T0,
    updated_at: T0,
    version: 1,
    stats: { free_uses: 0, purchases: 0, revenue: 0, rating_avg: 0, rating_count: 0 },
    ...over,
  };
}

export function server(over: Partial<WireServer> & { id: string }): WireServer {
  return {
    name: `Server ${over.id}`,
    registry_name: '',
    description: `About ${over.id}`,
    endpoint_url: `https://${over.id}.example.com/mcp`,
    model_type: 'code',
    auth: 'none',
    features: ['tools'],
    enabled: true,
    listed: over.enabled ?? true,
    source: 'registry',
    health: { status: 'up', checked_at: T0, latency_ms: 12, tools_count: 3, error: '' },
    updated_at: T0,
    version: 1,
    oauth_client: null,
    ...over,
  };
}

/**
 * The operator's client after a save's `oauth_client` (as the API applies
 * it): null clears it; an absent secret keeps the stored one, null or ''
 * clears it; the secret itself is kept nowhere the answer could show it.
 */
function applyOAuthClient(current: WireServer['oauth_client'], input: unknown): WireServer['oauth_client'] {
  if (input === null || typeof input !== 'object') return null;
  const c = input as { client_id?: string; client_secret?: string | null; issuer?: string };
  const hasSecret = 'client_secret' in c ? Boolean(c.client_secret) : (current?.has_secret ?? false);
  return { client_id: String(c.client_id ?? ''), has_secret: hasSecret, issuer: 'issuer' in c ? String(c.issuer ?? '') : (current?.issuer ?? '') };
}

export function order(over: Partial<WireOrder> & { id: string }): WireOrder {
  return {
    user_id: 'u2',
    user_email: 'bob@example.com',
    prompt_id: 'p1',
    prompt_title: 'Cold email',
    amount: 9.99,
    status: 'paid',
    created_at: T0,
    paid_at: '2026-03-07T10:01:00Z',
    payment_intent: 'pi_123',
    events: [{ id: 'evt_1', type: 'checkout.session.completed', received_at: '2026-03-07T10:01:02Z' }],
    ...over,
  };
}

export function user(over: Partial<WireUser> & { id: string; email: string }): WireUser {
  return {
    username: over.email.split('@')[0],
    full_name: '',
    is_verified: true,
    is_superuser: false,
    disabled: false,
    created_at: T0,
    purchases: 0,
    connections: 0,
    chat_tokens_today: 0,
    ...over,
  };
}

export function review(over: Partial<WireReview> & { id: string }): WireReview {
  return {
    kind: 'prompt',
    title: `Review ${over.id}`,
    description: `About ${over.id}`,
    content: `Write about [TOPIC] for ${over.id}.`,
    price: 4.99,
    category_id: 'marketing',
    category_name: 'Marketing',
    version: 2,
    change_note: '',
    live_version: 0,
    submitted_at: T0,
    creator: { user_id: 'c1', username: 'grace', display_name: 'Grace Hopper', payouts_status: 'enabled' },
    decisions: [],
    ...over,
  };
}

/** An agent in the review queue: kind agent, its instructions as the content. */
export function agentReview(over: Partial<WireReview> & { id: string }): WireReview {
  return review({
    kind: 'agent',
    title: `Agent ${over.id}`,
    content: `You help with ${over.id}.`,
    price: 0,
    agent: { provider: 'openai', model: 'gpt-4o-mini', servers: [], starters: [] },
    ...over,
  });
}

export function agent(over: Partial<WireAgent> & { id: string }): WireAgent {
  return {
    name: `Agent ${over.id}`,
    description: `About ${over.id}`,
    provider: 'openai',
    model: 'gpt-4o-mini',
    price: 0,
    is_free: true,
    category_id: 'sales',
    category_name: 'Sales',
    state: 'published',
    version: 3,
    published_versions: 1,
    suspended: false,
    creator_suspended: false,
    withdrawn: false,
    on_sale: true,
    creator: { user_id: 'c1', username: 'grace', display_name: 'Grace Hopper' },
    rating_avg: 0,
    rating_count: 0,
    created_at: T0,
    ...over,
  };
}

export function creator(over: Partial<WireCreator> & { id: string; username: string }): WireCreator {
  return {
    display_name: over.username,
    country: 'US',
    suspended: false,
    payouts_status: 'enabled',
    charges_enabled: true,
    payouts_enabled: true,
    prompts: { draft: 0, in_review: 0, published: 1, rejected: 0 },
    created_at: T0,
    ...over,
  };
}

export interface AdminSeed {
  prompts?: WirePrompt[];
  categories?: WireCategory[];
  servers?: WireServer[];
  probes?: Record<string, WireHealth[]>;
  orders?: WireOrder[];
  users?: WireUser[];
  audit?: WireAudit[];
  reviews?: WireReview[];
  creators?: WireCreator[];
  agents?: WireAgent[];
}

function pageOf<T>(all: T[], url: URL, withTotal = true) {
  const limit = Number(url.searchParams.get('limit') ?? '25');
  const from = Number(url.searchParams.get('cursor') || '0');
  const items = all.slice(from, from + limit);
  const next = from + limit < all.length ? String(from + limit) : '';
  return withTotal ? { items, next_cursor: next, total: all.length } : { items, next_cursor: next };
}

const has = (text: string, q: string) => text.toLowerCase().includes(q.toLowerCase());

/** The admin API over `api`, backed by `seed`; returns the live state. */
export function fakeAdminApi(api: RouteTable, seed: AdminSeed = {}) {
  // Copies: the fake changes its records, the tests' constants stay as written.
  const copy = <T>(v: T): T => structuredClone(v);
  const state = {
    prompts: copy(seed.prompts ?? []),
    categories: copy(seed.categories ?? CATEGORIES),
    servers: copy(seed.servers ?? []),
    probes: copy(seed.probes ?? {}) as Record<string, WireHealth[]>,
    orders: copy(seed.orders ?? []),
    users: copy(seed.users ?? []),
    audit: copy(seed.audit ?? []),
    reviews: copy(seed.reviews ?? []),
    creators: copy(seed.creators ?? []),
    agents: copy(seed.agents ?? []),
    /** The decisions POSTed, in order. */
    decided: [] as { id: string; decision: string; reason: string }[],
    /** What the next probe finds. */
    probeResult: { status: 'up', checked_at: '2026-03-08T09:00:00Z', latency_ms: 42, tools_count: 7, error: '' } as WireHealth,
    sync: { upserted: 7, deactivated: 1, skipped: 2, pages: 3, registry: true } as Json,
  };
  let n = 0;
  const body = (b: unknown): Json => (b && typeof b === 'object' ? (b as Json) : {});
  const categoryName = (id: string) => state.categories.find((c) => c.id === id)?.name ?? '';
  const promptCount = (id: string) => state.prompts.filter((p) => p.category_id === id).length;
  const categoryView = (c: WireCategory) => ({ ...c, prompt_count: promptCount(c.id) });

  // ---- prompts
  const checkPrompt = (p: WirePrompt): string | null => {
    if (!p.title.trim()) return 'title is required';
    if ([...p.title].length > 200) return 'title must be at most 200 characters';
    if (!p.content.trim()) return 'content is required';
    if ([...p.content].length > 50_000) return `content must be at most 50000 characters (it has ${[...p.content].length})`;
    if (!(p.price > 0) || p.price > 999.99) return 'price must be more than 0 and at most 999.99';
    if (!state.categories.some((c) => c.id === p.category_id)) return `category "${p.category_id}" does not exist`;
    return null;
  };
  const routePrompt = (id: string) => {
    api.route(`PATCH ${BASE}/prompts/${id}`, ({ body: b }) => {
      const p = state.prompts.find((x) => x.id === id);
      if (!p) return refuse(404, 'Prompt not found.', 'not_found');
      const input = body(b);
      if (input.version !== p.version) return json(409, { detail: 'This prompt changed since you opened it; here it is as it is now.', code: 'conflict', current: p });
      const next: WirePrompt = { ...p };
      for (const k of ['title', 'description', 'content', 'price', 'category_id', 'featured', 'published'] as const) {
        if (k in input) Object.assign(next, { [k]: input[k] });
      }
      const problem = checkPrompt(next);
      if (problem) return refuse(400, problem, 'invalid');
      Object.assign(p, next, { version: p.version + 1, category_name: categoryName(next.category_id), updated_at: '2026-03-08T09:00:00Z' });
      return json(200, p);
    });
    api.route(`DELETE ${BASE}/prompts/${id}`, ({ url }) => {
      const at = state.prompts.findIndex((x) => x.id === id);
      if (at === -1) return refuse(404, 'Prompt not found.', 'not_found');
      const p = state.prompts[at];
      const v = url.searchParams.get('version');
      if (v && v !== String(p.version)) return json(409, { detail: 'This prompt changed since you opened it.', code: 'conflict', current: p });
      if (p.stats.purchases > 0 || p.stats.free_uses > 0)
        return refuse(409, 'Users bought or used this prompt, so it cannot be deleted: unpublish it instead (its owners keep it).', 'conflict');
      state.prompts.splice(at, 1);
      return noContent();
    });
  };
  state.prompts.forEach((p) => routePrompt(p.id));
  api.route(`GET ${BASE}/prompts`, ({ url }) => {
    const q = url.searchParams.get('q') ?? '';
    const category = url.searchParams.get('category') ?? '';
    const st = url.searchParams.get('state') ?? 'all';
    const matching = state.prompts.filter(
      (p) => (!q || has(`${p.title} ${p.description}`, q)) && (!category || p.category_id === category) && (st === 'all' || p.published === (st === 'published')),
    );
    return json(200, pageOf(matching, url));
  });
  api.route(`POST ${BASE}/prompts`, ({ body: b }) => {
    const input = body(b);
    const p = prompt({ id: `p-new-${++n}`, ...(input as Partial<WirePrompt>), version: 1 });
    p.category_name = categoryName(p.category_id);
    const problem = checkPrompt(p);
    if (problem) return refuse(400, problem, 'invalid');
    state.prompts.unshift(p);
    routePrompt(p.id);
    return json(201, p);
  });

  // ---- categories
  const routeCategory = (id: string) => {
    api.route(`PATCH ${BASE}/categories/${id}`, ({ body: b }) => {
      const c = state.categories.find((x) => x.id === id);
      if (!c) return refuse(404, 'Category not found.', 'not_found');
      const name = String(body(b).name ?? '').trim();
      if (state.categories.some((x) => x.id !== id && x.name.toLowerCase() === name.toLowerCase())) return refuse(409, `A category named "${name}" exists already.`, 'conflict');
      c.name = name;
      return json(200, categoryView(c));
    });
    api.route(`DELETE ${BASE}/categories/${id}`, () => {
      const at = state.categories.findIndex((x) => x.id === id);
      if (at === -1) return refuse(404, 'Category not found.', 'not_found');
      const count = promptCount(id);
      if (count > 0) return refuse(409, `"${state.categories[at].name}" has ${count} prompts; move them to another category first.`, 'conflict');
      state.categories.splice(at, 1);
      return noContent();
    });
  };
  state.categories.forEach((c) => routeCategory(c.id));
  api.route(`GET ${BASE}/categories`, () => json(200, { items: state.categories.map(categoryView) }));
  api.route(`POST ${BASE}/categories`, ({ body: b }) => {
    const name = String(body(b).name ?? '').trim();
    if (state.categories.some((x) => x.name.toLowerCase() === name.toLowerCase())) return refuse(409, `A category named "${name}" exists already.`, 'conflict');
    const c = { id: `cat-${++n}`, name };
    state.categories.push(c);
    routeCategory(c.id);
    return json(201, categoryView(c));
  });

  // ---- MCP servers
  const refusedEndpoint = (url: string) => /\/\/(localhost|127\.|10\.)/.test(url);
  const routeServer = (id: string) => {
    api.route(`PATCH ${BASE}/mcp-servers/${id}`, ({ body: b }) => {
      const s = state.servers.find((x) => x.id === id);
      if (!s) return refuse(404, 'Server not found.', 'not_found');
      const input = body(b);
      if (input.version !== s.version) return json(409, { detail: 'This server changed since you opened it; here it is as it is now.', code: 'conflict', current: s });
      for (const k of ['name', 'description', 'endpoint_url', 'model_type', 'auth', 'features', 'enabled'] as const) {
        if (k in input) Object.assign(s, { [k]: input[k] });
      }
      if ('oauth_client' in input) s.oauth_client = applyOAuthClient(s.oauth_client, input.oauth_client);
      s.version += 1;
      const warning = refusedEndpoint(s.endpoint_url) ? 'The outbound rules refuse this endpoint: it is a private address.' : undefined;
      if (warning) s.enabled = false;
      s.listed = s.enabled;
      return json(200, { server: s, ...(warning ? { warning } : {}) });
    });
    api.route(`POST ${BASE}/mcp-servers/${id}/probe`, () => {
      const s = state.servers.find((x) => x.id === id);
      if (!s) return refuse(404, 'Server not found.', 'not_found');
      s.health = { ...state.probeResult };
      (state.probes[id] ??= []).unshift({ ...state.probeResult });
      return json(200, { health: s.health });
    });
    api.route(`GET ${BASE}/mcp-servers/${id}/probes`, () =>
      json(200, { items: (state.probes[id] ?? []).map((h) => ({ at: h.checked_at, status: h.status, latency_ms: h.latency_ms, tools_count: h.tools_count, error: h.error })) }),
    );
  };
  state.servers.forEach((s) => routeServer(s.id));
  api.route(`GET ${BASE}/mcp-servers`, ({ url }) => {
    const q = url.searchParams.get('q') ?? '';
    const st = url.searchParams.get('state') ?? 'all';
    const matching = state.servers.filter((s) => (!q || has(`${s.name} ${s.description}`, q)) && (st === 'all' || s.enabled === (st === 'enabled')));
    return json(200, pageOf(matching, url));
  });
  api.route(`POST ${BASE}/mcp-servers`, ({ body: b }) => {
    const input = body(b) as Partial<WireServer>;
    if (!/^[a-z][a-z0-9-]{0,39}$/.test(String(input.model_type))) return refuse(400, 'model_type must be a short lower-case word (letters, digits, -), such as code or search', 'invalid');
    const warning = refusedEndpoint(String(input.endpoint_url)) ? 'Saved, but disabled: the outbound rules refuse this endpoint. It is a private address.' : undefined;
    const s = server({
      id: `adm-${++n}`,
      ...input,
      source: 'admin',
      enabled: !warning,
      listed: !warning,
      health: { status: 'unknown', checked_at: '', latency_ms: 0, tools_count: 0, error: '' },
      oauth_client: applyOAuthClient(null, input.oauth_client ?? null),
    });
    state.servers.unshift(s);
    routeServer(s.id);
    return json(201, { server: s, ...(warning ? { warning } : {}) });
  });
  api.route(`POST ${BASE}/mcp-sync`, () => json(200, state.sync));

  // ---- orders
  const routeOrder = (id: string) => {
    api.route(`GET ${BASE}/orders/${id}`, () => {
      const o = state.orders.find((x) => x.id === id);
      return o ? json(200, o) : refuse(404, 'Order not found.', 'not_found');
    });
    api.route(`POST ${BASE}/orders/${id}/refund`, ({ body: b }) => {
      const o = state.orders.find((x) => x.id === id);
      if (!o) return refuse(404, 'Order not found.', 'not_found');
      if (o.status === 'refunded') return json(200, o);
      if (o.status !== 'paid') return refuse(409, `Only a paid order can be refunded; this one is ${o.status}.`, 'conflict');
      const reason = body(b).reason;
      Object.assign(o, { status: 'refunded', refunded_at: '2026-03-08T09:00:00Z', ...(typeof reason === 'string' ? { refund_reason: reason } : {}) });
      o.events = [...o.events, { id: `evt_r${++n}`, type: 'charge.refunded', received_at: '2026-03-08T09:00:01Z' }];
      return json(200, o);
    });
  };
  state.orders.forEach((o) => routeOrder(o.id));
  api.route(`GET ${BASE}/orders`, ({ url }) => {
    const p = url.searchParams;
    const day = (iso: string) => iso.slice(0, 10);
    const matching = state.orders.filter(
      (o) =>
        (!p.get('state') || o.status === p.get('state')) &&
        (!p.get('user') || o.user_id === p.get('user') || o.user_email === p.get('user')) &&
        (!p.get('prompt') || o.prompt_id === p.get('prompt')) &&
        (!p.get('from') || day(o.created_at) >= p.get('from')!) &&
        (!p.get('to') || day(o.created_at) <= p.get('to')!),
    );
    return json(200, pageOf(matching, url));
  });

  // ---- users
  const routeUser = (id: string) => {
    for (const action of ['resend-confirmation', 'unlock', 'end-sessions', 'grant-admin', 'revoke-admin', 'disable', 'enable']) {
      api.route(`POST ${BASE}/users/${id}/${action}`, () => {
        const u = state.users.find((x) => x.id === id);
        if (!u) return refuse(404, 'User not found.', 'not_found');
        if (action === 'revoke-admin' && state.users.filter((x) => x.is_superuser).length === 1 && u.is_superuser)
          return refuse(409, 'This is the last admin: grant admin to someone else first.', 'conflict');
        if (action === 'unlock') delete u.locked_until;
        if (action === 'grant-admin') u.is_superuser = true;
        if (action === 'revoke-admin') u.is_superuser = false;
        if (action === 'disable') u.disabled = true;
        if (action === 'enable') u.disabled = false;
        return json(200, u);
      });
    }
  };
  state.users.forEach((u) => routeUser(u.id));
  api.route(`GET ${BASE}/users`, ({ url }) => {
    const q = url.searchParams.get('q') ?? '';
    const matching = state.users.filter((u) => !q || u.email.toLowerCase().startsWith(q.toLowerCase()) || u.username.toLowerCase().startsWith(q.toLowerCase()));
    return json(200, pageOf(matching, url));
  });

  // ---- review queue (one list, not paged) and creators
  const routeReview = (id: string) => {
    api.route(`POST ${BASE}/reviews/${id}`, ({ body: b }) => {
      const at = state.reviews.findIndex((x) => x.id === id);
      if (at === -1) return refuse(404, id.startsWith('a-') ? 'Agent not found.' : 'Prompt not found.', 'not_found');
      const r = state.reviews[at];
      const input = body(b);
      const decision = String(input.decision ?? '');
      const reason = String(input.reason ?? '').trim();
      if (decision !== 'approve' && decision !== 'reject') return refuse(400, 'decision must be approve or reject', 'invalid');
      if (decision === 'reject' && !reason) return refuse(400, 'A rejection needs a reason: the creator reads it.', 'invalid');
      if (decision === 'approve' && r.price > 0 && r.creator.payouts_status !== 'enabled')
        return refuse(409, `Set up payouts before selling a paid ${r.kind === 'agent' ? 'agent' : 'prompt'}.`, 'conflict');
      state.reviews.splice(at, 1);
      state.decided.push({ id, decision, reason });
      const next = decision === 'approve' ? 'published' : 'rejected';
      return json(200, { id, state: next, review_reason: decision === 'reject' ? reason : '', version: r.version + 1 });
    });
  };
  state.reviews.forEach((r) => routeReview(r.id));
  api.route(`GET ${BASE}/reviews`, ({ url }) => {
    const kind = url.searchParams.get('kind') || 'prompt';
    if (kind !== 'prompt' && kind !== 'agent') return refuse(400, 'kind must be prompt or agent', 'invalid');
    return json(200, { items: state.reviews.filter((r) => r.kind === kind) });
  });
  const routeCreator = (id: string) => {
    for (const action of ['suspend', 'unsuspend']) {
      api.route(`POST ${BASE}/creators/${id}/${action}`, () => {
        const c = state.creators.find((x) => x.id === id);
        if (!c) return refuse(404, 'Creator not found.', 'not_found');
        c.suspended = action === 'suspend';
        return json(200, c);
      });
    }
  };
  state.creators.forEach((c) => routeCreator(c.id));
  api.route(`GET ${BASE}/creators`, ({ url }) => json(200, pageOf(state.creators, url)));

  // ---- agents: suspending one is audited, as the API does
  const routeAgent = (id: string) => {
    for (const action of ['suspend', 'unsuspend']) {
      api.route(`POST ${BASE}/agents/${id}/${action}`, () => {
        const a = state.agents.find((x) => x.id === id);
        if (!a) return refuse(404, 'Agent not found.', 'not_found');
        const before = a.suspended;
        a.suspended = action === 'suspend';
        a.on_sale = a.state === 'published' && !a.suspended && !a.creator_suspended && !a.withdrawn;
        a.version += 1;
        state.audit.unshift({
          id: `audit-${++n}`,
          at: '2026-03-08T12:00:00Z',
          actor_id: 'u1',
          actor_email: 'ada@example.com',
          action: `agent.${action}`,
          target_type: 'agent',
          target_id: id,
          before: { suspended: before },
          after: { suspended: a.suspended },
        });
        return json(200, a);
      });
    }
  };
  state.agents.forEach((a) => routeAgent(a.id));
  api.route(`GET ${BASE}/agents`, ({ url }) => {
    const q = url.searchParams.get('q') ?? '';
    const st = url.searchParams.get('state') ?? '';
    const matching = state.agents.filter(
      (a) => (!q || has(a.name, q) || has(a.description, q)) && (!st || (st === 'suspended' ? a.suspended : a.state === st)),
    );
    return json(200, pageOf(matching, url));
  });

  // ---- audit log (no total, as the API sends it)
  api.route(`GET ${BASE}/audit`, ({ url }) => {
    const actor = url.searchParams.get('actor') ?? '';
    const target = url.searchParams.get('target') ?? '';
    const matching = state.audit.filter((e) => (!actor || e.actor_id === actor || e.actor_email === actor) && (!target || e.target_id === target));
    return json(200, pageOf(matching, url, false));
  });

  return state;
}
