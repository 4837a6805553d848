// SPEC §4: a visitor whose prompt-list call answers 401 sees these five
// built-in samples (demo mode). Previews only: samples have no content, so
// they can be browsed but never used, copied or sent to chat.

import type { Category, Prompt } from '../../lib/api/types';
import { cutAtWord } from './prompt-text';

const CATEGORIES: Record<string, Category> = {
  business: { id: 'business', name: 'Business' },
  writing: { id: 'writing', name: 'Writing' },
  productivity: { id: 'productivity', name: 'Productivity' },
  'content-creation': { id: 'content-creation', name: 'Content Creation' },
};

/** Like the server's answer: the preview cut at a word boundary within 200 characters, and whether text goes on. */
function sample({ fullText, ...p }: Omit<Prompt, 'content' | 'is_purchased' | 'user_rating' | 'preview' | 'preview_truncated'> & { fullText: string }): Prompt {
  const preview = cutAtWord(fullText);
  return { ...p, preview, preview_truncated: preview !== fullText, is_purchased: false, user_rating: null };
}

export const SAMPLE_PROMPTS: readonly Prompt[] = Object.freeze([
  sample({
    id: 'sample-launch-plan',
    title: 'Product Launch Plan in One Page',
    description: 'Turns a product idea into a one-page launch plan: audience, message, channels, a two-week timeline and the three numbers to watch.',
    fullText: 'Act as a launch strategist for small software teams. Build a one-page launch plan for [PRODUCT NAME], aimed at [TARGET AUDIENCE]. Start with the single problem it solves in the customer\'s words, then list the channels worth testing.',
    price: 9.99,
    rating_avg: 4.6,
    rating_count: 38,
    category: CATEGORIES.business,
    created_at: '2026-05-20T10:00:00Z',
  }),
  sample({
    id: 'sample-blog-outline',
    title: 'SEO Blog Post Outline',
    description: 'A search-friendly outline with a working title, reader questions, H2/H3 structure and a call to action, ready to draft from.',
    fullText: 'You are a senior content editor. Outline a blog post on [MAIN TOPIC] for [AUDIENCE] targeting the keyword [PRIMARY KEYWORD].',
    price: 4.99,
    rating_avg: 4.3,
    rating_count: 21,
    category: CATEGORIES.writing,
    created_at: '2026-05-18T09:30:00Z',
  }),
  sample({
    id: 'sample-weekly-review',
    title: 'Weekly Review and Priorities',
    description: 'A guided weekly review that sorts open loops, picks three priorities and blocks time for them on your calendar.',
    fullText: 'Act as my chief of staff. Here are my notes from this week: [PASTE NOTES HERE]. Sort every open item into done, delegate, schedule or drop, then choose the three priorities that move [PROJECT NAME] forward the most next week.',
    price: 5.99,
    rating_avg: 4.8,
    rating_count: 52,
    category: CATEGORIES.productivity,
    created_at: '2026-05-15T08:00:00Z',
  }),
  sample({
    id: 'sample-video-script',
    title: 'Short Video Script with Hook',
    description: 'A 60-second vertical video script: a three-second hook, one idea, on-screen text cues and a closing prompt to comment.',
    fullText: 'Write a 60-second script for a vertical video about [VIDEO TOPIC] for [NICHE, WHO WATCHES]. Open with a hook that works with the sound off.',
    price: 6.49,
    rating_avg: 4.1,
    rating_count: 17,
    category: CATEGORIES['content-creation'],
    created_at: '2026-05-12T16:45:00Z',
  }),
  sample({
    id: 'sample-meeting-notes',
    title: 'Meeting Notes to Action Items',
    description: 'Turns raw meeting notes or a transcript into decisions, owners, deadlines and a short follow-up email.',
    fullText: 'You are an executive assistant. From the notes below, list every decision made, every action item with an owner and a due date, and the open questions. Then draft a five-line follow-up email. Notes: [PASTE NOTES OR TRANSCRIPT HERE]',
    price: 3.99,
    rating_avg: 4.5,
    rating_count: 29,
    category: CATEGORIES.productivity,
    created_at: '2026-05-10T11:20:00Z',
  }),
]);

/** The samples matching the page's search and category, like the server's list filter. */
export function filterSamplePrompts(
  samples: readonly Prompt[],
  { search = '', categoryId = '' }: { search?: string; categoryId?: string },
): Prompt[] {
  const needle = search.trim().toLowerCase();
  return samples.filter((p) => {
    if (categoryId && String(p.category?.id ?? '') !== categoryId) return false;
    if (!needle) return true;
    return [p.title, p.description, p.category?.name ?? ''].some((s) => s.toLowerCase().includes(needle));
  });
}
