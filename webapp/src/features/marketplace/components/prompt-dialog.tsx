// The prompt page (the detail dialog) of whichever card was opened, the
// same on every page that shows marketplace cards: it follows the list (a
// free claim shows the content at once), keeps a prompt that left the list
// open as it was last seen, and reads the whole prompt when the card
// carries only part of it (the description's start; a creator's prompt's
// versions; the content a card of the creator page never carries).

import { useRef, useState } from 'react';
import { trackViewItem } from '../../../lib/analytics';
import type { Prompt } from '../../../lib/api/types';
import { usePromptDetail } from '../api/use-prompt-detail';
import type { PromptEntry } from '../use-prompt-entries';
import type { usePromptActions } from '../use-prompt-actions';
import { creatorOf } from './creator-link';
import { priceOf } from './prompt-card';
import { PromptDetailModal } from './prompt-detail-modal';

/** The card with what only the prompt's own read has: the whole description, the creator's versions, the content. */
export function withDetail(card: Prompt, detail: Prompt | undefined): Prompt {
  if (!detail) return card;
  return {
    ...card,
    description: detail.description,
    description_truncated: false,
    content: typeof card.content === 'string' ? card.content : detail.content,
    creator: card.creator ?? detail.creator,
    current_version: detail.current_version,
    versions: detail.versions,
  };
}

/** Which card is open; `entries` are the cards shown now. */
export function usePromptSelection(entries: readonly PromptEntry[], describe: (p: Prompt) => PromptEntry) {
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const lastSelected = useRef<Prompt | null>(null);
  const entry = selectedId === null ? undefined : entries.find((e) => String(e.prompt.id) === selectedId);
  if (entry) lastSelected.current = entry.prompt;
  const selected = entry ?? (selectedId !== null && lastSelected.current ? describe(lastSelected.current) : null);
  return {
    selected,
    open: (prompt: Prompt) => {
      lastSelected.current = prompt;
      setSelectedId(String(prompt.id));
      trackViewItem({ promptId: String(prompt.id), promptTitle: prompt.title, price: priceOf(prompt) });
    },
    close: () => setSelectedId(null),
  };
}

interface PromptDialogProps {
  selected: PromptEntry;
  signedIn: boolean;
  /** Free uses left; null while unknown. */
  remaining: number | null;
  actions: ReturnType<typeof usePromptActions>;
  onClose: () => void;
}

export function PromptDialog({ selected, signedIn, remaining, actions, onClose }: PromptDialogProps) {
  const card = selected.prompt;
  const needsDetail = card.description_truncated === true || creatorOf(card) !== null;
  const detail = usePromptDetail(needsDetail ? String(card.id) : null, selected.access.hasAccess);
  return (
    <PromptDetailModal
      prompt={withDetail(card, detail)}
      access={selected.access}
      state={selected.state}
      signedIn={signedIn}
      freeRemaining={remaining}
      pending={actions.pending}
      onClose={onClose}
      onCopy={(text) => void actions.copy(text)}
      onUseFree={(p) => void actions.claimFree(p)}
      onPurchase={(p) => void actions.purchase(p, remaining)}
      onUseInChat={actions.openInChat}
    />
  );
}
