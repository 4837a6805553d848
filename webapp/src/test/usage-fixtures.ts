// The chat usage samples the dashboard's usage tests share (GET /users/usage).

import type { ChatLimits, ModelUsage } from '../features/dashboard/api/types';

/** One model's usage: gpt-4o-mini, 412 in and 1,093 out over 3 requests, unless `over` says otherwise. */
export const modelUsage = (over: Partial<ModelUsage> = {}): ModelUsage => ({
  provider: 'openai',
  model: 'gpt-4o-mini',
  demo: false,
  input_tokens: 412,
  output_tokens: 1093,
  cost_usd: 0.00213,
  requests: 3,
  ...over,
});

/** The limits: 200,000 tokens a day (none used), 3 streams, 20 requests a minute, unless `over` says otherwise. */
export const chatLimits = (over: Partial<ChatLimits> = {}): ChatLimits => ({
  daily_token_budget: 200_000,
  tokens_used_today: 0,
  resets_at: '2026-11-23T00:00:00Z',
  max_concurrent_streams: 3,
  requests_per_minute: 20,
  ...over,
});
