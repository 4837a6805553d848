// Typing "/" at the start of the composer lists the prompts of the servers
// enabled in the tab, filtered as the user types; arrows move, Enter
// chooses, Escape closes. A prompt with arguments opens its fill-in
// dialog; one without is put in the composer at once. The resources a
// prompt refers to go with the message as chips, as the paperclip's do.

import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { fetchPrompts, getPrompt, promptText, type McpPrompt, type PromptServer } from '../api/mcp-composer';
import type { MessageAttachment } from '../state/types';
import { promptAttachmentsRefusal } from './attachments';
import { promptFailure, PromptRefusedError } from './prompt-arguments-modal';
import './composer.css';

export const NO_PROMPTS = 'No prompts on the enabled servers.';
export const NO_MATCHING_PROMPTS = 'No prompt matches.';
export const PROMPTS_LOADING = 'Loading prompts...';
export const PROMPTS_FAILED = 'The prompts could not be loaded.';

/** A listing is read again when older than this. */
const FRESH_MS = 60_000;

export interface PromptChoice {
  connectionId: string;
  serverName: string;
  prompt: McpPrompt;
}

type Listing =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; servers: PromptServer[]; key: string; at: number };

/** The query of a draft that opens the menu ("/sum" → "sum"), or null. */
export function slashQuery(draft: string): string | null {
  const m = /^\/(\S*)$/.exec(draft);
  return m ? m[1] : null;
}

function matches(choice: PromptChoice, q: string): boolean {
  if (!q) return true;
  const needle = q.toLowerCase();
  return [choice.prompt.name, choice.prompt.title].some((s) => s.toLowerCase().includes(needle));
}

interface PromptMenuOptions {
  draft: string;
  /** The connections enabled in the tab. */
  connectionIds: readonly string[];
  /** The resources attached to the next message already. */
  attached: readonly MessageAttachment[];
  /** Puts a filled prompt's text in the composer and attaches the resources it refers to. */
  onApply: (text: string, attachments: MessageAttachment[]) => void;
}

/** The "/" menu's state and handlers, for the composer. */
export function usePromptMenu({ draft, connectionIds, attached, onApply }: PromptMenuOptions) {
  const listId = useId();
  const query = slashQuery(draft);
  const [dismissed, setDismissed] = useState(false);
  const [active, setActive] = useState(0);
  const [listing, setListing] = useState<Listing>({ status: 'idle' });
  const [chosen, setChosen] = useState<PromptChoice | null>(null);
  const [applyError, setApplyError] = useState('');
  const key = connectionIds.join(',');
  const open = query !== null && !dismissed && chosen === null;

  // A draft that no longer starts the menu lets the next "/" open it again.
  useEffect(() => {
    if (query === null) {
      setDismissed(false);
      setApplyError('');
    }
  }, [query]);
  useEffect(() => setActive(0), [query]);

  const listingRef = useRef(listing);
  listingRef.current = listing;
  useEffect(() => {
    if (!open) return;
    const cur = listingRef.current;
    if (cur.status === 'loading' || (cur.status === 'ready' && cur.key === key && Date.now() - cur.at < FRESH_MS)) return;
    if (connectionIds.length === 0) {
      setListing({ status: 'ready', servers: [], key, at: Date.now() });
      return;
    }
    const controller = new AbortController();
    setListing({ status: 'loading' });
    fetchPrompts(connectionIds, controller.signal)
      .then((servers) => setListing({ status: 'ready', servers, key, at: Date.now() }))
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setListing({ status: 'error', message: errorMessage(err, PROMPTS_FAILED) });
      });
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read again when opened or the servers change
  }, [open, key]);

  const choices = useMemo<PromptChoice[]>(() => {
    if (listing.status !== 'ready') return [];
    return listing.servers.flatMap((s) => s.prompts.map((prompt) => ({ connectionId: s.connection_id, serverName: s.server_name, prompt })));
  }, [listing]);
  const shown = useMemo(() => choices.filter((c) => matches(c, query ?? '')), [choices, query]);
  const failures = listing.status === 'ready' ? listing.servers.filter((s) => s.error) : [];

  const apply = useCallback(
    async (choice: PromptChoice, args: Record<string, string>) => {
      const { messages, attachments } = await getPrompt(choice.connectionId, choice.prompt.name, args);
      // Nothing is put in the composer unless all its resources can go with the message.
      const refusal = promptAttachmentsRefusal(attached, attachments);
      if (refusal) throw new PromptRefusedError(refusal);
      onApply(promptText(messages, attachments.map((a) => a.uri)), attachments);
    },
    [attached, onApply],
  );

  const choose = useCallback(
    (choice: PromptChoice) => {
      if (choice.prompt.arguments.length > 0) {
        setChosen(choice);
        return;
      }
      setApplyError('');
      apply(choice, {}).catch((err: unknown) => setApplyError(promptFailure(err)));
    },
    [apply],
  );

  /** The composer's keys while the menu is open; true when the menu took the key. */
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    switch (e.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (shown.length === 0) return false;
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : -1;
        setActive((i) => (i + step + shown.length) % shown.length);
        return true;
      }
      case 'Enter':
        if (e.shiftKey || shown.length === 0) return false;
        e.preventDefault();
        choose(shown[Math.min(active, shown.length - 1)]);
        return true;
      case 'Escape':
        e.preventDefault();
        setDismissed(true);
        return true;
    }
    return false;
  };

  const optionId = (i: number) => `${listId}-option-${i}`;
  const activeId = open && shown.length > 0 ? optionId(Math.min(active, shown.length - 1)) : undefined;

  const popup = open ? (
    <div className="chat-prompts" data-testid="prompt-menu">
      {listing.status === 'loading' || listing.status === 'idle' ? (
        <p className="chat-prompts__status" role="status">
          {PROMPTS_LOADING}
        </p>
      ) : null}
      {listing.status === 'error' ? (
        <p className="chat-prompts__status" role="alert">
          {listing.message}
        </p>
      ) : null}
      {listing.status === 'ready' && choices.length === 0 && failures.length === 0 ? (
        <p className="chat-prompts__status" role="status">
          {NO_PROMPTS}
        </p>
      ) : null}
      {listing.status === 'ready' && choices.length > 0 && shown.length === 0 ? (
        <p className="chat-prompts__status" role="status">
          {NO_MATCHING_PROMPTS}
        </p>
      ) : null}
      {failures.map((s) => (
        <p key={s.connection_id} className="chat-prompts__status" role="alert">
          {s.server_name}: {s.error}
        </p>
      ))}
      {applyError ? (
        <p className="chat-prompts__status" role="alert">
          {applyError}
        </p>
      ) : null}
      <ul id={listId} role="listbox" aria-label="Prompts" hidden={shown.length === 0}>
        {shown.map((c, i) => (
          <li
            key={`${c.connectionId} ${c.prompt.name}`}
            id={optionId(i)}
            role="option"
            aria-selected={optionId(i) === activeId}
            className="chat-prompts__item"
            data-testid="prompt-option"
            // The composer keeps the focus: a click must not take it.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose(c)}
          >
            <span className="chat-prompts__name">
              /{c.prompt.name}
              {c.prompt.title ? ` · ${c.prompt.title}` : ''}
            </span>
            <span className="chat-prompts__desc">
              {c.prompt.description ? `${c.prompt.description} · ` : ''}
              {c.serverName}
            </span>
          </li>
        ))}
      </ul>
    </div>
  ) : null;

  return {
    open,
    popup,
    onKeyDown,
    /** What the composer's textbox says of the menu (ARIA). */
    inputAria: open
      ? { 'aria-autocomplete': 'list' as const, 'aria-controls': listId, 'aria-activedescendant': activeId }
      : { 'aria-autocomplete': 'list' as const },
    chosen,
    closeChosen: () => setChosen(null),
    applyChosen: async (args: Record<string, string>) => {
      if (!chosen) return;
      await apply(chosen, args);
      setChosen(null);
    },
  };
}
