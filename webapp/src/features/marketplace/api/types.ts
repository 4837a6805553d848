// The marketplace's own wire types; the prompt itself is shared (lib/api/types.ts).

import type { Prompt } from '../../../lib/api/types';

/** SPEC §3 Free-prompt status (GET /prompts/free-usage-status). */
export interface FreeUsageStatus {
  remaining: number;
  total_allowed: number;
  used: number;
  /** Prompts already claimed free. */
  prompt_ids: (string | number)[];
  /** Another account on the same email address spent some of the uses (they count per address). */
  shared_with_other_accounts?: boolean;
}

/** POST /prompts/use-free-prompt/{id}. */
export interface UseFreePromptResponse {
  prompt: Prompt;
  status: FreeUsageStatus;
  already_claimed: boolean;
}

/** POST /prompts/{id}/rate. */
export interface RateResponse {
  rating_avg: number;
  rating_count: number;
  user_rating: number | null;
}

/** POST /api/v1/payments/create-checkout-session. */
export interface CheckoutSessionResponse {
  checkout_url: string;
  session_id?: string;
}
