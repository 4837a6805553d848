// The creators API's answers (shared/api/creatorsapi/prompts.go, docs/creators.md).

export type CreatorPromptState = 'draft' | 'in_review' | 'published' | 'rejected';

/** The next version of a published prompt, saved but not live yet. */
export interface PendingVersion {
  title: string;
  description: string;
  content: string;
  price: number;
  category_id: string;
  change_note: string;
  state: Exclude<CreatorPromptState, 'published'>;
  review_reason: string | null;
}

/** A creator's own prompt, as GET/POST/PATCH /creators/me/prompts… answer it. */
export interface CreatorPrompt {
  id: string;
  title: string;
  description: string;
  content: string;
  price: number;
  category_id: string;
  category_name: string;
  state: CreatorPromptState;
  review_reason: string | null;
  version: number;
  created_at: string;
  updated_at: string;
  purchases: number;
  free_uses: number;
  rating_avg: number;
  rating_count: number;
  published_versions: number;
  pending: PendingVersion | null;
  /** Deleted by its creator after it sold: off the marketplace, its buyers keep it, no longer editable. */
  withdrawn?: boolean;
}

/** What POST takes, and PATCH with the version read (and, on a published prompt, what changed). */
export interface CreatorPromptInput {
  title: string;
  description: string;
  content: string;
  price: number;
  category_id: string;
}

export interface CreatorPromptPatch extends CreatorPromptInput {
  version: number;
  change_note?: string;
}
