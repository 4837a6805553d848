import { useId } from 'react';
import { Badge, Button } from '@aws-amplify/ui-react';
import { CardSkeleton } from '../../../components/listing/listing';
import { formatUsd } from '../../../lib/format';
import type { Prompt } from '../../../lib/api/types';
import { ACTION_LABELS, isActionDisabled, type CardState, type PromptAccess } from '../prompt-access';
import { cardPreview, categoryLabel } from '../prompt-text';
import type { PendingAction } from '../use-prompt-actions';
import { CreatorLink } from './creator-link';
import { HighlightedText } from './highlighted-text';
import { StarRating } from '../../../components/star-rating';

export interface PromptHandlers {
  onView: (prompt: Prompt) => void;
  onUseInChat: (prompt: Prompt) => void;
  onUseFree: (prompt: Prompt) => void;
  onPurchase: (prompt: Prompt) => void;
  onRate: (prompt: Prompt, rating: number) => void;
}

interface PromptCardProps extends PromptHandlers {
  prompt: Prompt;
  access: PromptAccess;
  state: CardState;
  /** Why this prompt cannot be rated; null when it can. */
  ratingBlockedReason: string | null;
  pending: PendingAction;
}

export function priceOf(prompt: Pick<Prompt, 'price'>): number {
  return typeof prompt.price === 'number' && Number.isFinite(prompt.price) ? prompt.price : 0;
}

export function PromptCard({ prompt, state, ratingBlockedReason, pending, onView, onUseInChat, onUseFree, onPurchase, onRate }: PromptCardProps) {
  const titleId = useId();
  const preview = cardPreview(prompt);
  const busy = pending !== null && pending.promptId === String(prompt.id);
  const actionBusy = busy && (pending?.kind === 'use-free' || pending?.kind === 'purchase');
  const action = state.action;

  return (
    <article className="prompt-card" data-testid="prompt-card" data-prompt-id={String(prompt.id)} aria-labelledby={titleId}>
      <div className="prompt-card__top">
        <span className="prompt-card__category">{categoryLabel(prompt.category?.name)}</span>
        <StarRating
          title={prompt.title}
          average={prompt.rating_avg ?? 0}
          count={prompt.rating_count ?? 0}
          userRating={prompt.user_rating ?? null}
          blockedReason={ratingBlockedReason}
          busy={busy && pending?.kind === 'rate'}
          onRate={(n) => onRate(prompt, n)}
        />
      </div>
      <h3 id={titleId} className="prompt-card__title">
        {prompt.title}
      </h3>
      <CreatorLink prompt={prompt} />
      <p className="prompt-card__description">{prompt.description}</p>
      <div className="prompt-card__preview prompt-text" data-testid="prompt-preview">
        <HighlightedText text={preview.text} />
      </div>
      {preview.truncated ? <p className="prompt-card__hint">Click {state.viewLabel} to see the full prompt.</p> : null}
      <div className="prompt-card__meta">
        <span className="prompt-card__price">{formatUsd(priceOf(prompt))}</span>
        {state.usedFreeBadge ? (
          <Badge variation="success" size="small" className="prompt-card__badge">
            Used Free
          </Badge>
        ) : null}
      </div>
      <div className="prompt-card__actions">
        <Button size="small" onClick={() => onView(prompt)} aria-describedby={titleId}>
          {state.viewLabel}
        </Button>
        {state.useInChat ? (
          <Button size="small" onClick={() => onUseInChat(prompt)} aria-describedby={titleId}>
            Use in Chat
          </Button>
        ) : null}
        <Button
          size="small"
          variation={isActionDisabled(action) ? undefined : 'primary'}
          isDisabled={isActionDisabled(action) || actionBusy}
          aria-describedby={titleId}
          onClick={() => (action === 'use-free' ? onUseFree(prompt) : action === 'purchase' ? onPurchase(prompt) : undefined)}
          data-action={action}
        >
          {actionBusy ? 'Processing...' : ACTION_LABELS[action]}
        </Button>
      </div>
    </article>
  );
}

/** One loading placeholder in the card's shape: category, title, description, preview, price. */
export function PromptCardSkeleton() {
  return (
    <CardSkeleton
      className="prompt-card prompt-card--skeleton"
      testId="prompt-card-skeleton"
      parts={['short', 'title', 'line', 'line', 'block', 'short']}
    />
  );
}
