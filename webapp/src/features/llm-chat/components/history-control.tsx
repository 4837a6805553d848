// History, in the tab strip: the conversations whose tabs were
// closed (archived), newest first, searched by title and text as one types,
// each with Reopen (it opens as the first tab) and Delete (after a confirm:
// gone for good). Loading, empty and error states; keyboard-usable (the
// confirm takes focus, Cancel gives it back); fits a 390 px phone.

import { useEffect, useId, useRef, useState } from 'react';
import { Modal } from '../../../components/modal';
import { errorMessage } from '../../../lib/api-client';
import { formatRelativeTime } from '../../../lib/relative-time';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useTimeouts } from '../../../lib/use-timeouts';
import type { ConversationInfo } from '../api/conversations';
import { useConversationHistory } from '../api/history';

/** The search waits this long after the last keystroke. */
export const HISTORY_SEARCH_DELAY_MS = 300;
export const HISTORY_EMPTY = 'No archived conversations yet. Closing a chat tab keeps its conversation here.';
export const REOPEN_FAILED = 'Failed to reopen the conversation';
export const DELETE_FAILED = 'Failed to delete the conversation';

interface HistoryControlProps {
  /** Reopens an archived conversation as the active tab; rejects with the server's refusal. */
  onReopen: (conversationId: string) => Promise<void>;
  /** Deletes a conversation for good; rejects with the server's refusal. */
  onDelete: (conversationId: string) => Promise<void>;
}

export function HistoryControl({ onReopen, onDelete }: HistoryControlProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="chat-tabs__history"
        aria-label="History"
        title="History: closed chats"
        aria-haspopup="dialog"
        aria-expanded={open}
        data-testid="history-button"
        onClick={() => setOpen(true)}
      >
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
          <path
            fill="currentColor"
            d="M13 3a9 9 0 0 0-9 9H1l3.9 3.9.1.1L9 12H6a7 7 0 1 1 2.05 4.95l-1.42 1.42A9 9 0 1 0 13 3zm-1 5v5l4.25 2.52.77-1.28-3.52-2.09V8H12z"
          />
        </svg>
        <span className="chat-tabs__history-label" aria-hidden="true">
          History
        </span>
      </button>
      {open ? <HistoryDialog onReopen={onReopen} onDelete={onDelete} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function HistoryDialog({ onReopen, onDelete, onClose }: HistoryControlProps & { onClose: () => void }) {
  const titleId = useId();
  const searchId = useId();
  const searchRef = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  const q = useDebouncedValue(query.trim(), HISTORY_SEARCH_DELAY_MS);
  const history = useConversationHistory(q);
  const [busy, setBusy] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // Deleted here: not shown again, even by a list read a moment later that still has it.
  const [deleted, setDeleted] = useState<ReadonlySet<string>>(() => new Set());
  const conversations = history.conversations.filter((c) => !deleted.has(c.id));
  const deleteButtons = useRef(new Map<string, HTMLButtonElement>());
  const searching = query.trim() !== q;
  const timeouts = useTimeouts();

  // The search box has focus on open (after the dialog took it: a child's effect runs first).
  useEffect(() => {
    searchRef.current?.focus();
  }, []);

  const reopen = async (c: ConversationInfo) => {
    setBusy(c.id);
    setFailure(null);
    try {
      await onReopen(c.id);
      void history.refresh();
      onClose();
    } catch (error) {
      setFailure(errorMessage(error, REOPEN_FAILED));
      setBusy(null);
    }
  };

  const remove = async (c: ConversationInfo) => {
    setBusy(c.id);
    setFailure(null);
    try {
      await onDelete(c.id);
      setDeleted((d) => new Set(d).add(c.id));
      await history.refresh();
      setConfirming(null);
      searchRef.current?.focus();
    } catch (error) {
      setFailure(errorMessage(error, DELETE_FAILED));
    } finally {
      setBusy(null);
    }
  };

  const cancel = (id: string) => {
    setConfirming(null);
    timeouts.frame(() => deleteButtons.current.get(id)?.focus());
  };

  let list;
  if (history.loading && conversations.length === 0) {
    list = (
      <p className="chat-history__status" role="status">
        <span className="chat-spinner" aria-hidden="true" /> Loading conversations...
      </p>
    );
  } else if (history.error !== undefined && conversations.length === 0) {
    list = (
      <div className="chat-history__status" role="alert">
        <p>Could not load your conversations: {errorMessage(history.error, 'Request failed')}</p>
        <button type="button" className="chat-button chat-button--small" onClick={() => void history.refresh()}>
          Try again
        </button>
      </div>
    );
  } else if (conversations.length === 0) {
    list = (
      <p className="chat-history__empty" data-testid="history-empty">
        {q ? `No archived conversation matches “${q}”.` : HISTORY_EMPTY}
      </p>
    );
  } else {
    list = (
      <ul className="chat-history__list" aria-label="Archived conversations" aria-busy={searching || history.loading || undefined}>
        {conversations.map((c) => {
          const confirmId = `${titleId}-confirm-${c.id}`;
          return (
            <li key={c.id} className="chat-history__item" data-testid="history-item" data-conversation-id={c.id}>
              <div className="chat-history__text">
                <span className="chat-history__title">{c.title}</span>
                {c.agent ? (
                  <span className="chat-history__agent" data-testid="history-agent">
                    Agent: {c.agent.name}
                  </span>
                ) : null}
                <span className="chat-history__meta">
                  {formatRelativeTime(c.updated_at)} · {plural(c.message_count, 'message', 'messages')}
                </span>
              </div>
              {confirming === c.id ? (
                <div className="chat-history__confirm" role="group" aria-labelledby={confirmId}>
                  <p id={confirmId} className="chat-history__question">
                    Delete “{c.title}” for good? It cannot be undone.
                  </p>
                  <div className="chat-history__actions">
                    <button type="button" className="chat-button chat-button--small chat-button--danger" disabled={busy === c.id} onClick={() => void remove(c)}>
                      {busy === c.id ? 'Deleting...' : 'Delete for good'}
                    </button>
                    <button type="button" className="chat-button chat-button--small" autoFocus disabled={busy === c.id} onClick={() => cancel(c.id)}>
                      Cancel
                    </button>
                  </div>
                </div>
              ) : (
                <div className="chat-history__actions">
                  <button
                    type="button"
                    className="chat-button chat-button--small"
                    aria-label={`Reopen ${c.title}`}
                    disabled={busy !== null}
                    onClick={() => void reopen(c)}
                  >
                    {busy === c.id ? 'Reopening...' : 'Reopen'}
                  </button>
                  <button
                    type="button"
                    ref={(el) => {
                      if (el) deleteButtons.current.set(c.id, el);
                      else deleteButtons.current.delete(c.id);
                    }}
                    className="chat-button chat-button--small"
                    aria-label={`Delete ${c.title}`}
                    disabled={busy !== null}
                    onClick={() => {
                      setFailure(null);
                      setConfirming(c.id);
                    }}
                  >
                    Delete
                  </button>
                </div>
              )}
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <Modal labelledBy={titleId} onClose={onClose} className="chat-modal chat-history__dialog" testId="history-dialog">
      <div className="chat-modal__form">
        <header className="chat-modal__head">
          <h2 id={titleId} className="chat-modal__title">
            History
          </h2>
          <span className="chat-modal__meta">Closed chats, newest first</span>
        </header>
        <div className="chat-modal__body chat-history__body">
          <div className="chat-history__search">
            <label htmlFor={searchId}>Search conversations</label>
            <input
              ref={searchRef}
              id={searchId}
              type="search"
              value={query}
              placeholder="Title or text"
              autoComplete="off"
              onChange={(e) => setQuery(e.target.value)}
            />
          </div>
          {failure ? (
            <p className="chat-history__failure" role="alert">
              {failure}
            </p>
          ) : null}
          {list}
          {history.hasMore ? (
            <button type="button" className="chat-button chat-button--small chat-history__more" disabled={history.loadingMore} onClick={history.loadMore}>
              {history.loadingMore ? 'Loading...' : 'Load more'}
            </button>
          ) : null}
        </div>
        <footer className="chat-modal__foot">
          <button type="button" className="chat-button" onClick={onClose}>
            Close
          </button>
        </footer>
      </div>
    </Modal>
  );
}
