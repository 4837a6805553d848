export interface Category {
  id: string | number;
  name: string;
}

/** SPEC §3 Prompt. */
export interface Prompt {
  id: string | number;
  title: string;
  description: string;
  content?: string | null;
  preview?: string | null;
  price: number;
  rating_avg?: number | null;
  rating_count?: number | null;
  user_rating?: number | null;
  is_purchased?: boolean;
  category?: Category | null;
  created_at?: string;
}
