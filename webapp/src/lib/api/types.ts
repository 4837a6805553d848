// Wire types of the reads more than one feature uses (lib/api/use-*.ts),
// exactly as the Go handlers send them.

export interface Category {
  id: string | number;
  name: string;
}

/**
 * SPEC §3 Prompt as GET /api/v1/prompts/ sends it. `content` is present only
 * when the caller has access (purchased or claimed free); `preview` is its
 * start, cut at the last word boundary within 200 characters, and
 * `preview_truncated` says whether the content goes on (promptsapi/view.go).
 */
export interface Prompt {
  id: string | number;
  title: string;
  description: string;
  content?: string | null;
  preview?: string | null;
  preview_truncated?: boolean;
  /** A list's card carries the description's start only; GET /prompts/{id} has all of it. */
  description_truncated?: boolean;
  price: number;
  rating_avg?: number | null;
  rating_count?: number | null;
  /** The caller's own rating, 1–5, or null. */
  user_rating?: number | null;
  is_purchased?: boolean;
  category?: Category | null;
  /** RFC 3339. */
  created_at?: string;
  /** Who sells it; null (or absent) for the platform's own prompts. */
  creator?: PromptCreator | null;
  /** GET /prompts/{id} of a creator's prompt: the number of the version live now. */
  current_version?: number;
  /** GET /prompts/{id} of a creator's prompt: every version that went live, oldest first. */
  versions?: PromptVersion[];
}

/** The creator of a prompt, as the marketplace names them (their page is /creators/{username}). */
export interface PromptCreator {
  username: string;
  display_name: string;
}

/** One version of a creator's prompt that went live, with its "what changed" note. */
export interface PromptVersion {
  number: number;
  change_note: string;
  price: number;
  /** RFC 3339. */
  published_at: string;
}

export type SortOption = 'newest' | 'price-low' | 'price-high';

/** GET /api/v1/payments/owned-prompts: the caller's purchased prompts. */
export interface OwnedPromptsResponse {
  owned_prompt_ids: (string | number)[];
}

export type ActivityType = 'account_created' | 'free_prompt_used' | 'purchase' | 'login' | 'other';

/** SPEC §3 Activity. */
export interface Activity {
  id: string;
  type: ActivityType;
  title: string;
  description: string;
  /** RFC 3339. */
  created_at: string;
  amount?: number | null;
  prompt_title?: string | null;
}

/** The transport a remote MCP server speaks (domain.Transport*). */
export type McpTransport = 'streamable-http' | 'sse';

/** One item of GET /api/v1/mcp-connections/ (the caller's, newest first). */
export interface McpConnection {
  connection_id: string;
  server_id: string;
  server_name: string;
  endpoint_url: string;
  model_type: string;
  transport: McpTransport;
  protocol_version: string;
  tools_count: number;
  has_api_key: boolean;
  api_key_last4: string;
  /** RFC 3339. */
  connected_at: string;
  /** Signed in with the server's OAuth (no API key). */
  oauth: boolean;
  /** The server no longer accepts the sign-in: offer Sign in again. */
  needs_sign_in: boolean;
  /** The host reached when the user's endpoint was not on the entry's default host, else "". */
  endpoint_host: string;
}
