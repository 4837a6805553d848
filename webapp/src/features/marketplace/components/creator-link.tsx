// "by {creator}" on a creator's prompt, linking to their public page; the
// platform's own prompts (creator null) name nobody.

import { Link } from 'react-router';
import type { Prompt, PromptCreator } from '../../../lib/api/types';

/** The prompt's creator when the answer names a usable one, else null. */
export function creatorOf(prompt: Pick<Prompt, 'creator'>): PromptCreator | null {
  const c = prompt.creator;
  if (!c || typeof c.username !== 'string' || !c.username) return null;
  return { username: c.username, display_name: typeof c.display_name === 'string' && c.display_name ? c.display_name : c.username };
}

/** The creator's public page. */
export function creatorPath(username: string): string {
  return `/creators/${encodeURIComponent(username)}`;
}

export function CreatorLink({ prompt, onFollow }: { prompt: Pick<Prompt, 'creator'>; onFollow?: () => void }) {
  const creator = creatorOf(prompt);
  if (!creator) return null;
  return (
    <Link to={creatorPath(creator.username)} className="prompt-card__creator" data-testid="creator-link" onClick={onFollow}>
      by {creator.display_name}
    </Link>
  );
}
