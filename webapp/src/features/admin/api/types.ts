// Wire types of the admin API (docs/admin.md), as the readers in this
// folder hand them to the pages: every field present, optional ones empty.

/** A write to a prompt or an MCP server carries the version it was read at. */
export type Version = number | string;

/** One page of a list: `next_cursor` is '' on the last page. */
export interface Page<T> {
  items: T[];
  next_cursor: string;
  /** Everything matching, across pages; null when the list does not say (the audit log). */
  total: number | null;
}

export interface PromptStats {
  free_uses: number;
  purchases: number;
  revenue: number;
  rating_avg: number;
  rating_count: number;
}

export interface AdminPrompt {
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
  version: Version;
  stats: PromptStats;
}

export type PromptState = 'published' | 'unpublished' | 'all';

/** What POST /admin/prompts takes (PATCH takes any of it plus `version`). */
export interface PromptDraft {
  title: string;
  description: string;
  content: string;
  price: number;
  category_id: string;
  featured: boolean;
  published: boolean;
}

export interface AdminCategory {
  id: string;
  name: string;
  prompt_count: number;
}

export type McpAuth = 'none' | 'api_key' | 'oauth';
export type McpServerState = 'enabled' | 'disabled' | 'all';

export interface McpHealth {
  /** As the probe job wrote it ('up', 'down', 'auth_required', …); '' when never probed. */
  status: string;
  checked_at: string;
  latency_ms: number;
  tools_count: number;
  error: string;
}

/** Where an entry came from: the committed seed, the MCP registry, a local run, or an admin. */
export type McpSource = 'seed' | 'registry' | 'local' | 'admin';

export interface AdminMcpServer {
  id: string;
  name: string;
  /** The registry's name for it ('io.github/…'); '' for an admin's own. */
  registry_name: string;
  description: string;
  endpoint_url: string;
  model_type: string;
  auth: McpAuth;
  features: string[];
  /** The admin's switch. */
  enabled: boolean;
  /** Users see it: enabled, and not retired by the registry. */
  listed: boolean;
  source: McpSource;
  health: McpHealth;
  updated_at: string;
  version: Version;
  /** The operator's pre-registered OAuth client; null when none. */
  oauth_client: McpOAuthClient | null;
}

/** An operator's OAuth client as the API shows it: never its secret, only whether there is one. */
export interface McpOAuthClient {
  client_id: string;
  has_secret: boolean;
  /** The authorization server it is for; '' until the first sign-in records it. */
  issuer: string;
}

/**
 * An operator's OAuth client as a save sends it: `client_secret` absent
 * keeps the stored one, null clears it, a string sets or replaces it;
 * `issuer` '' clears it.
 */
export interface McpOAuthClientInput {
  client_id: string;
  client_secret?: string | null;
  issuer?: string;
}

/** What POST /admin/mcp-servers takes (`oauth_client` null: none, or cleared on an edit). */
export interface McpServerDraft {
  name: string;
  description: string;
  endpoint_url: string;
  model_type: string;
  auth: McpAuth;
  features: string[];
  oauth_client: McpOAuthClientInput | null;
}

/** A save's answer: the server, and why it was saved disabled when the outbound rules refuse its endpoint. */
export interface McpServerSaved {
  server: AdminMcpServer;
  warning: string;
}

export interface ProbeRecord {
  at: string;
  status: string;
  latency_ms: number;
  tools_count: number;
  error: string;
}

export interface SyncResult {
  /** Entries written (added or refreshed). */
  upserted: number;
  /** Entries the registry no longer lists. */
  deactivated: number;
  skipped: number;
  pages: number;
  /** False: no registry is set up (MCP_REGISTRY_URL), only the committed seed was written again. */
  registry: boolean;
}

export type OrderStatus = 'pending' | 'paid' | 'refunded' | 'expired' | 'failed';

export interface AdminOrder {
  id: string;
  user_id: string;
  user_email: string;
  prompt_id: string;
  prompt_title: string;
  amount: number;
  /** One of OrderStatus, or whatever newer state the API sends. */
  status: string;
  created_at: string;
  paid_at: string;
  refunded_at: string;
  payment_intent: string;
  refund_reason: string;
  /** A creator's sale: who sold it; null for the platform's own prompts. */
  creator: OrderCreator | null;
  /** A creator's sale: the platform's fee and the creator's share, in USD; null otherwise. */
  fee: number | null;
  net: number | null;
}

export interface OrderCreator {
  username: string;
  display_name: string;
}

export interface OrderEvent {
  id: string;
  type: string;
  received_at: string;
}

export interface AdminOrderDetail extends AdminOrder {
  events: OrderEvent[];
}

export interface OrderFilters {
  state: OrderStatus | '';
  /** An id or an email. */
  user: string;
  prompt: string;
  /** YYYY-MM-DD, UTC. */
  from: string;
  to: string;
}

export interface AdminUser {
  id: string;
  email: string;
  username: string;
  full_name: string;
  is_verified: boolean;
  is_superuser: boolean;
  disabled: boolean;
  /** RFC 3339; '' when not locked. */
  locked_until: string;
  created_at: string;
  purchases: number;
  connections: number;
  chat_tokens_today: number;
}

export type UserAction = 'resend-confirmation' | 'unlock' | 'end-sessions' | 'grant-admin' | 'revoke-admin' | 'disable' | 'enable';

export interface AuditEntry {
  id: string;
  at: string;
  actor_id: string;
  actor_email: string;
  action: string;
  target_type: string;
  target_id: string;
  /** The target before and after the change, as JSON (null when it did not exist). */
  before: unknown;
  after: unknown;
  /** Written ahead of its change, which never confirmed: it may not have happened. */
  pending: boolean;
}

/** A decision taken on a prompt in review before. */
export interface ReviewDecision {
  at: string;
  decision: string;
  reason: string;
}

/** The creator of a prompt in review, with their payout status (none, details_needed, pending, enabled). */
export interface ReviewCreator {
  user_id: string;
  username: string;
  display_name: string;
  payouts_status: string;
}

/** What the queue's kinds are: prompts, or agents. */
export type ReviewKind = 'prompt' | 'agent';

/** A registry server an agent in review uses, with the tools it may call there. */
export interface ReviewAgentServer {
  server_id: string;
  name: string;
  tools: string[];
}

/** What an agent in review runs with (kind agent only). */
export interface ReviewAgent {
  provider: string;
  model: string;
  servers: ReviewAgentServer[];
  starters: string[];
}

/** One prompt or agent in the review queue (GET /admin/reviews?kind=prompt|agent), as submitted; an agent's content is its instructions. */
export interface AdminReview {
  id: string;
  kind: string;
  title: string;
  description: string;
  content: string;
  price: number;
  category_id: string;
  category_name: string;
  version: Version;
  /** An edit of a published prompt: its "what changed" note, and the version live now (0: a first publication). */
  change_note: string;
  live_version: number;
  submitted_at: string;
  creator: ReviewCreator;
  decisions: ReviewDecision[];
  /** An agent's model, servers and starters; null for a prompt. */
  agent: ReviewAgent | null;
}

export type ReviewDecisionKind = 'approve' | 'reject';

/** A creator as GET /admin/creators lists them. */
export interface AdminCreator {
  id: string;
  username: string;
  display_name: string;
  country: string;
  suspended: boolean;
  payouts_status: string;
  charges_enabled: boolean;
  payouts_enabled: boolean;
  /** Their prompts per state. */
  prompts: { draft: number; in_review: number; published: number; rejected: number };
  /** Paid sales and the creator's net in USD, when the answer has them; null otherwise. */
  sales: number | null;
  net: number | null;
  created_at: string;
}

/** An agent as GET /admin/agents lists it (shared/api/adminapi/agents.go). */
export interface AdminAgent {
  id: string;
  name: string;
  description: string;
  provider: string;
  model: string;
  /** 0: free. */
  price: number;
  category_id: string;
  category_name: string;
  /** draft, in_review, published, rejected. */
  state: string;
  version: Version;
  published_versions: number;
  /** Taken off the marketplace by an admin. */
  suspended: boolean;
  creator_suspended: boolean;
  withdrawn: boolean;
  on_sale: boolean;
  creator: { user_id: string; username: string; display_name: string };
  rating_avg: number;
  rating_count: number;
  created_at: string;
}
