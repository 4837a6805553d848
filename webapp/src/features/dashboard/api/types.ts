/** One provider's model in GET /api/v1/users/usage (usersapi modelView). */
export interface ModelUsage {
  /** Catalogue provider id: openai, meta, anthropic, google. */
  provider: string;
  /** Catalogue model name: gpt-4o-mini … */
  model: string;
  /** The local demo model standing in for the provider: estimated tokens, no cost. */
  demo: boolean;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  requests: number;
}

/** A period's totals and its models, costliest first (usersapi totalsView). */
export interface UsageTotals {
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  requests: number;
  by_model: ModelUsage[];
}

/** The chat limits; 0 means no limit (usersapi limitsView). */
export interface ChatLimits {
  daily_token_budget: number;
  tokens_used_today: number;
  /** The next 00:00 UTC, RFC 3339. */
  resets_at: string;
  max_concurrent_streams: number;
  requests_per_minute: number;
}

/** GET /api/v1/users/usage: the caller's chat usage today and this month (UTC), and the limits. */
export interface ChatUsage {
  /** date: 2006-01-02 (UTC). */
  today: UsageTotals & { date: string };
  /** month: 2006-01 (UTC). */
  month: UsageTotals & { month: string };
  limits: ChatLimits;
}
