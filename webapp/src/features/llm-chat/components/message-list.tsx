import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Markdown } from '../../../components/markdown';
import { copyWithToast, formatTime } from '../copy';
import { displayText, holdsMenu } from '../menu';
import { isLongMessage } from '../summary';
import type { ChatMessage } from '../state/types';
import { formatUsage } from '../usage';

/** Within this many pixels of the end, the reader counts as at the bottom. */
export const AT_BOTTOM_PX = 64;

interface MessageItemProps {
  message: ChatMessage;
  assistantName: string;
  summarizing: boolean;
  onViewFull: (message: ChatMessage) => void;
  onShowLess: (message: ChatMessage) => void;
  onOpenMenu: (message: ChatMessage) => void;
}

/** The text a long message shows in its two-line excerpt. */
function excerptOf(message: ChatMessage): string {
  return displayText(message.content, message.role).slice(0, 400);
}

export const MessageItem = memo(function MessageItem({ message, assistantName, summarizing, onViewFull, onShowLess, onOpenMenu }: MessageItemProps) {
  const { role, complete } = message;
  const long = isLongMessage(message);
  const collapsed = long && !message.showFull;
  const streaming = role === 'assistant' && !complete;
  const shown = displayText(message.content, role);

  let body;
  if (streaming && message.content === '') {
    body = (
      <p className="chat-typing" role="status">
        <span className="chat-typing__dots" aria-hidden="true">
          <span />
          <span />
          <span />
        </span>
        <span className="chat-sr-only">{assistantName} is replying</span>
      </p>
    );
  } else if (collapsed) {
    body = (
      <div className="chat-message__long">
        {message.summary ? (
          <p className="chat-message__summary" data-testid="message-summary">
            <strong>Summary:</strong> {message.summary}
          </p>
        ) : summarizing ? (
          <p className="chat-message__summarizing" role="status">
            Summarizing...
          </p>
        ) : null}
        <p className="chat-message__excerpt" data-testid="message-excerpt">
          {excerptOf(message)}
        </p>
      </div>
    );
  } else if (role === 'assistant') {
    body = <Markdown source={shown} className="chat-message__markdown" />;
  } else {
    body = <p className="chat-message__plain">{shown}</p>;
  }

  return (
    <article
      className={`chat-message chat-message--${role}`}
      data-testid="message"
      data-role={role}
      data-complete={String(complete)}
      aria-label={role === 'user' ? 'You' : assistantName}
      aria-busy={streaming || undefined}
    >
      <header className="chat-message__head">
        <span className="chat-message__author">{role === 'user' ? 'You' : assistantName}</span>
        <time className="chat-message__time" dateTime={message.timestamp}>
          {formatTime(message.timestamp)}
        </time>
      </header>
      <div className="chat-message__body">{body}</div>
      {!streaming ? (
        <div className="chat-message__actions">
          <button type="button" className="chat-link-button" onClick={() => void copyWithToast(message.content)}>
            Copy
          </button>
          {long ? (
            <button type="button" className="chat-link-button" onClick={() => onViewFull(message)}>
              View Full
            </button>
          ) : null}
          {long && message.showFull ? (
            <button type="button" className="chat-link-button" onClick={() => onShowLess(message)}>
              Show less
            </button>
          ) : null}
          {holdsMenu(message.content) ? (
            <button type="button" className="chat-link-button" onClick={() => onOpenMenu(message)}>
              Open in Menu
            </button>
          ) : null}
          {role === 'assistant' && message.usage ? (
            <span className="chat-message__usage" data-testid="message-usage" title="Tokens in → out and cost of this reply">
              {formatUsage(message.usage)}
            </span>
          ) : null}
        </div>
      ) : null}
    </article>
  );
});

interface MessageListProps {
  messages: readonly ChatMessage[];
  providerLabel: string;
  model: string;
  connecting: boolean;
  summarizing: ReadonlySet<string>;
  onViewFull: (message: ChatMessage) => void;
  onShowLess: (message: ChatMessage) => void;
  onOpenMenu: (message: ChatMessage) => void;
}

const lastUserId = (messages: readonly ChatMessage[]): string | undefined => messages.findLast((m) => m.role === 'user')?.id;

/**
 * The conversation. It follows new text to the bottom while the reader is
 * there (or has just sent a message); a reader who scrolled up stays put
 * and gets a 'New messages ↓' button instead. Mount one per chat tab (key)
 * so each tab opens at its newest message.
 */
export function MessageList({ messages, providerLabel, model, connecting, summarizing, ...handlers }: MessageListProps) {
  const ref = useRef<HTMLDivElement>(null);
  const itemsRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const seenUser = useRef(lastUserId(messages));
  const [unseen, setUnseen] = useState(false);
  const last = messages[messages.length - 1];
  const streaming = last?.role === 'assistant' && !last.complete;

  const toBottom = useCallback(() => {
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  // New text at the end: follow it, or say it is there.
  const newest = `${messages.length}:${last?.id ?? ''}:${last?.content.length ?? 0}:${String(last?.complete)}`;
  useLayoutEffect(() => {
    const userId = lastUserId(messages);
    if (userId !== seenUser.current) atBottom.current = true; // the reader just sent this
    seenUser.current = userId;
    if (atBottom.current) {
      toBottom();
      setUnseen(false);
    } else {
      setUnseen(true);
    }
    // `newest` stands for the end of `messages`; changes further up (a summary,
    // View Full) are not new messages and do not move the view.
  }, [newest, toBottom]);

  useLayoutEffect(() => {
    if (atBottom.current) toBottom();
  }, [connecting, toBottom]);

  // Content that grows after rendering (markdown, code blocks, View Full) keeps a reader at the bottom there.
  useEffect(() => {
    const items = itemsRef.current;
    if (!items || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (atBottom.current) toBottom();
    });
    observer.observe(items);
    return () => observer.disconnect();
  }, [toBottom, messages.length === 0]);

  return (
    <div className="chat-messages-frame">
      <div
        ref={ref}
        className="chat-messages"
        data-testid="messages"
        role="log"
        aria-label="Conversation"
        aria-busy={streaming || undefined}
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight <= AT_BOTTOM_PX;
          if (atBottom.current) setUnseen(false);
        }}
      >
        {messages.length === 0 ? (
          <div className="chat-empty" data-testid="chat-empty">
            {connecting ? (
              <p className="chat-empty__title" role="status">
                <span className="chat-spinner" aria-hidden="true" />
                Establishing connection to {providerLabel}...
              </p>
            ) : (
              <>
                <p className="chat-empty__title">Start chatting with {providerLabel}</p>
                <p className="chat-empty__model">{model}</p>
              </>
            )}
          </div>
        ) : (
          <div ref={itemsRef} className="chat-messages__items">
            {messages.map((m) => (
              <MessageItem key={m.id} message={m} assistantName={providerLabel} summarizing={summarizing.has(m.id)} {...handlers} />
            ))}
            {connecting ? (
              <p className="chat-connecting" role="status">
                <span className="chat-spinner" aria-hidden="true" />
                Establishing connection to {providerLabel}...
              </p>
            ) : null}
          </div>
        )}
      </div>
      {unseen ? (
        <button
          type="button"
          className="chat-new-messages"
          onClick={() => {
            atBottom.current = true;
            toBottom();
            setUnseen(false);
          }}
        >
          New messages <span aria-hidden="true">↓</span>
        </button>
      ) : null}
    </div>
  );
}
