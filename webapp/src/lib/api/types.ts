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
  price: number;
  rating_avg?: number | null;
  rating_count?: number | null;
  /** The caller's own rating, 1–5, or null. */
  user_rating?: number | null;
  is_purchased?: boolean;
  category?: Category | null;
  /** RFC 3339. */
  created_at?: string;
}

/** SPEC §3 Free-prompt status (GET /prompts/free-usage-status). */
export interface FreeUsageStatus {
  remaining: number;
  total_allowed: number;
  used: number;
  /** Prompts already claimed free. */
  prompt_ids: (string | number)[];
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

export type SortOption = 'newest' | 'price-low' | 'price-high';
