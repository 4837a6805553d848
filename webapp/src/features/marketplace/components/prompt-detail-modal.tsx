import { useId } from 'react';
import { Alert, Badge, Button } from '@aws-amplify/ui-react';
import { DetailModal } from '../../../components/detail-modal';
import { formatUsd } from '../../../lib/format';
import type { Prompt } from '../../../lib/api/types';
import { freeUseNote, type CardState, type PromptAccess } from '../prompt-access';
import { cardPreview, categoryLabel } from '../prompt-text';
import type { PendingAction } from '../use-prompt-actions';
import { CreatorLink } from './creator-link';
import { HighlightedText } from './highlighted-text';
import { priceOf, type PromptHandlers } from './prompt-card';
import { PromptVersions } from './prompt-versions';

interface PromptDetailModalProps extends Omit<PromptHandlers, 'onView' | 'onRate'> {
  prompt: Prompt;
  access: PromptAccess;
  state: CardState;
  signedIn: boolean;
  /** Free uses left; null while unknown. */
  freeRemaining: number | null;
  pending: PendingAction;
  onCopy: (text: string) => void;
  onClose: () => void;
}

export const WHAT_YOU_GET: readonly string[] = [
  'The complete prompt text, ready to paste into any AI model',
  'Highlighted placeholders to fill in with your own details',
  'One-click hand-off to LLM Chat',
  'Lifetime access, no expiry',
];

function accessList(access: PromptAccess): string[] {
  return [
    'The complete prompt text',
    'Copy to clipboard',
    'Use in Chat with one click',
    access.purchased ? 'Rating this prompt' : 'Lifetime access through your free use',
  ];
}

export function PromptDetailModal({
  prompt,
  access,
  state,
  signedIn,
  freeRemaining,
  pending,
  onCopy,
  onClose,
  onUseFree,
  onPurchase,
  onUseInChat,
}: PromptDetailModalProps) {
  const titleId = useId();
  const descriptionId = useId();
  const content = access.hasAccess && typeof prompt.content === 'string' && prompt.content ? prompt.content : null;
  const price = formatUsd(priceOf(prompt));
  const busy = pending !== null && pending.promptId === String(prompt.id) && pending.kind !== 'rate';
  // SPEC §8: while free uses remain, Purchase becomes a free use; say so before the click.
  const purchaseNote = state.action === 'use-free' ? freeUseNote(freeRemaining) : null;
  const notice = signedIn
    ? state.action === 'use-free'
      ? 'This is a preview. Purchase this prompt or use one of your free prompts to see the full text.'
      : 'This is a preview. Purchase this prompt to see the full text.'
    : 'This is a preview. Log in to purchase this prompt or use one of your free prompts.';

  return (
    <DetailModal
      titleId={titleId}
      descriptionId={descriptionId}
      title={prompt.title}
      meta={
        <div className="prompt-detail__meta">
          <CreatorLink prompt={prompt} onFollow={onClose} />
          <span className="prompt-card__category">{categoryLabel(prompt.category?.name)}</span>
          <span className="prompt-detail__price">{price}</span>
          {state.usedFreeBadge ? (
            <Badge variation="success" size="small">
              Used Free
            </Badge>
          ) : null}
          {access.purchased ? (
            <Badge variation="info" size="small">
              Purchased
            </Badge>
          ) : null}
        </div>
      }
      onClose={onClose}
      className="prompt-detail"
      testId="prompt-detail"
      footer={
        <>
          <Button onClick={onClose}>Close</Button>
          {state.action === 'use-free' ? (
            <Button variation="primary" isDisabled={busy} onClick={() => onUseFree(prompt)}>
              {busy && pending?.kind === 'use-free' ? 'Processing...' : 'Use Free'}
            </Button>
          ) : null}
          {!access.hasAccess ? (
            <Button variation="primary" isDisabled={busy} onClick={() => onPurchase(prompt)}>
              {busy && pending?.kind === 'purchase'
                ? 'Processing...'
                : `Purchase Now - ${price}${purchaseNote ? ` (${purchaseNote})` : ''}`}
            </Button>
          ) : (
            <Button variation="primary" onClick={() => onUseInChat(prompt)}>
              Use in Chat
            </Button>
          )}
        </>
      }
    >
      <div className="detail-modal__body">
        <p id={descriptionId} className="detail-modal__description">
          {prompt.description}
        </p>

        {content !== null ? (
          <section className="detail-modal__section" aria-label="Full prompt">
            <div className="prompt-detail__section-head">
              <h3 className="detail-modal__section-title">Full prompt</h3>
              <Button size="small" onClick={() => onCopy(content)}>
                Copy
              </Button>
            </div>
            <div className="prompt-text prompt-detail__text" data-testid="prompt-content">
              <HighlightedText text={content} />
            </div>
          </section>
        ) : (
          <section className="detail-modal__section" aria-label="Preview">
            <h3 className="detail-modal__section-title">Preview</h3>
            <div className="prompt-text prompt-detail__text" data-testid="prompt-preview">
              <HighlightedText text={cardPreview({ preview: prompt.preview, preview_truncated: prompt.preview_truncated }).text} />
            </div>
            <Alert variation="info" className="prompt-detail__notice">
              {notice}
            </Alert>
          </section>
        )}

        {prompt.versions?.length ? (
          <PromptVersions
            promptId={String(prompt.id)}
            versions={prompt.versions}
            current={prompt.current_version ?? 0}
            canRead={signedIn && access.hasAccess}
          />
        ) : null}

        <section className="detail-modal__section" aria-label={access.hasAccess ? 'You have access to' : "What you'll get"}>
          <h3 className="detail-modal__section-title">{access.hasAccess ? 'You have access to' : "What you'll get"}</h3>
          <ul className="prompt-detail__list">
            {(access.hasAccess ? accessList(access) : WHAT_YOU_GET).map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </section>
      </div>
    </DetailModal>
  );
}
