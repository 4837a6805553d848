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
