import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, type HTMLAttributes, type KeyboardEvent, type ReactNode, type RefObject, type UIEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Markdown } from '../../../components/markdown';
import type { ApprovalDecision } from '../api/chat-stream';
import { AttachmentChips } from '../composer/attachment-chips';
import { copyWithToast, formatTime } from '../copy';
import { displayText, holdsMenu } from '../menu';
import { isLongMessage } from '../summary';
import { isPaused, messageParts } from '../state/message-parts';
import type { ChatMessage, MessagePart } from '../state/types';
import { formatUsage } from '../usage';
import { chatStore } from '../store/chat-store';
import { ElicitationCard } from './elicitation-card';
import { ApprovalCard, NoticeNote, ToolCallBlock } from './tool-block';
import { SignInCard } from './signin-card';

/** Within this many pixels of the end, the reader counts as at the bottom. */
export const AT_BOTTOM_PX = 64;

interface MessageItemProps {
  message: ChatMessage;
  /** Its place in the conversation (from 1) and the conversation's length: with only a window of messages in the page, they tell a screen reader (and a test) where it is. */
  position: number;
  total: number;
  assistantName: string;
  summarizing: boolean;
  /** A message or a decision is on its way in this tab (approval buttons wait). */
  busy: boolean;
  onViewFull: (message: ChatMessage) => void;
  onShowLess: (message: ChatMessage) => void;
  onOpenMenu: (message: ChatMessage) => void;
  onDecision: (message: ChatMessage, decision: ApprovalDecision) => void;
  /** Retry for this failed reply (only the last message, while nothing is sent); absent: none offered. */
  onRetry?: (message: ChatMessage) => void;
}

interface PartProps {
  part: Exclude<MessagePart, { kind: 'text' }>;
  message: ChatMessage;
  busy: boolean;
  onDecision: (message: ChatMessage, decision: ApprovalDecision) => void;
}

/** A tool call (the approval card while the reply waits on it, or its server's question) or a note. */
function BlockPart({ part, message, busy, onDecision }: PartProps) {
  if (part.kind === 'notice') return <NoticeNote text={part.text} />;
  const { approval, elicitation, signin } = message;
  if (signin?.callId === part.id && (part.state === 'signin' || signin.status === 'failed')) {
    return (
      <SignInCard
        block={part}
        signin={signin}
        busy={busy}
        onSignIn={() => void chatStore.signIn(message.id)}
        onContinue={() => void chatStore.resumeSignIn(message.id)}
      />
    );
  }
  if (part.state === 'waiting' && approval?.status === 'pending' && approval.callId === part.id) {
    return <ApprovalCard block={part} approval={approval} busy={busy} onDecision={(d) => onDecision(message, d)} />;
  }
  if (elicitation?.callId === part.id && (part.state === 'asking' || elicitation.status !== 'pending')) {
    // The store answers it (the reply in this tab streams on, or its open stream is told).
    return <ElicitationCard block={part} question={elicitation} onAnswer={(action, content) => void chatStore.answerElicitation(message.id, action, content)} />;
  }
  return <ToolCallBlock block={part} messageId={message.id} />;
}

/** The text a long message shows in its two-line excerpt. */
function excerptOf(message: ChatMessage): string {
  return displayText(message.content, message.role).slice(0, 400);
}

export const MessageItem = memo(function MessageItem({ message, position, total, assistantName, summarizing, busy, onViewFull, onShowLess, onOpenMenu, onDecision, onRetry }: MessageItemProps) {
  const { role, complete } = message;
  const long = isLongMessage(message);
  const collapsed = long && !message.showFull;
  const paused = isPaused(message);
  const streaming = role === 'assistant' && !complete && !paused;
  const shown = displayText(message.content, role);
  const hasBlocks = role === 'assistant' && (message.blocks?.length ?? 0) > 0;
  const parts = hasBlocks ? messageParts(message) : [];
  const blockParts = parts.filter((p): p is PartProps['part'] => p.kind !== 'text');
  const last = parts[parts.length - 1];

  let body;
  if (streaming && message.content === '' && !hasBlocks) {
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
        {blockParts.map((p, i) => (
          <BlockPart key={p.kind === 'tool' ? p.id : `notice-${i}`} part={p} message={message} busy={busy} onDecision={onDecision} />
        ))}
      </div>
    );
  } else if (hasBlocks) {
    body = (
      <div className="chat-message__parts">
        {parts.map((p, i) =>
          p.kind === 'text' ? (
            <Markdown key={`text-${i}`} source={displayText(p.text, role)} className="chat-message__markdown" keep={!streaming} />
          ) : (
            <BlockPart key={p.kind === 'tool' ? p.id : `notice-${i}`} part={p} message={message} busy={busy} onDecision={onDecision} />
          ),
        )}
        {streaming && last?.kind === 'tool' && last.state !== 'running' ? (
          <p className="chat-typing" role="status">
            <span className="chat-typing__dots" aria-hidden="true">
              <span />
              <span />
              <span />
            </span>
            <span className="chat-sr-only">{assistantName} is replying</span>
          </p>
        ) : null}
      </div>
    );
  } else if (role === 'assistant') {
    body = <Markdown source={shown} className="chat-message__markdown" keep={!streaming} />;
  } else {
    body = <p className="chat-message__plain">{shown}</p>;
  }

  return (
    <article
      className={`chat-message chat-message--${role}`}
      data-testid="message"
      data-role={role}
      data-complete={String(complete)}
      data-paused={paused || undefined}
      aria-posinset={position}
      aria-setsize={total}
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
      {message.attachments?.length ? <AttachmentChips attachments={message.attachments} label="Attached resources" /> : null}
      {message.error ? (
        <p className="chat-message__error" data-testid="message-error">
          <span aria-hidden="true">⚠ </span>
          {message.content || message.blocks?.length ? 'The reply broke off: ' : 'No reply: '}
          {message.error}
        </p>
      ) : null}
      {message.cut ? <p className="chat-message__note">The rest of this reply was too long to keep.</p> : null}
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
          {onRetry ? (
            <button type="button" className="chat-link-button" onClick={() => onRetry(message)}>
              Retry
            </button>
          ) : null}
          {message.stopped ? (
            <span className="chat-message__stopped" data-testid="message-stopped">
              Stopped
            </span>
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
  /** The empty state's line naming the tools the model may call ('' for none). */
  toolsLine?: string;
  busy: boolean;
  onViewFull: (message: ChatMessage) => void;
  onShowLess: (message: ChatMessage) => void;
  onOpenMenu: (message: ChatMessage) => void;
  onDecision: (message: ChatMessage, decision: ApprovalDecision) => void;
  /** Retry of a failed last reply; absent while a message is on its way. */
  onRetry?: (message: ChatMessage) => void;
}

const lastUserId = (messages: readonly ChatMessage[]): string | undefined => messages.findLast((m) => m.role === 'user')?.id;

/** Messages rendered beyond each edge of the view, so keyboard scrolling and a quick wheel meet messages already there. */
export const OVERSCAN = 6;
/** A message's height before it is measured (about a two-paragraph reply). */
const ESTIMATED_PX = 140;
/** The list's space above its first message and below its last (each message keeps 12 px below it). */
const PAD_START_PX = 14;
const PAD_END_PX = 2;

/**
 * Whether the list can be windowed: measuring messages needs
 * ResizeObserver (every browser the app supports has it; jsdom has not,
 * and there every message is rendered).
 */
const canWindow = (): boolean => typeof ResizeObserver === 'function';

function LegacyNote() {
  return (
    <p className="chat-legacy-note" role="note" data-testid="legacy-note">
      These messages are from before chats were kept with your account and could not be uploaded yet. They stay in this browser and are uploaded
      the next time the chat opens.
    </p>
  );
}

function Connecting({ providerLabel }: { providerLabel: string }) {
  return (
    <p className="chat-connecting" role="status">
      <span className="chat-spinner" aria-hidden="true" />
      Establishing connection to {providerLabel}...
    </p>
  );
}

interface WindowedProps {
  messages: readonly ChatMessage[];
  scroller: RefObject<HTMLElement | null>;
  /** Set by the list: how to bring the newest message into view. */
  toEnd: RefObject<(() => void) | null>;
  scrollerProps: HTMLAttributes<HTMLDivElement> & { 'data-testid': string };
  legacy: boolean;
  footer: ReactNode;
  item: (index: number, message: ChatMessage) => ReactNode;
}

/**
 * The messages in view and OVERSCAN around them, placed by
 * @tanstack/react-virtual, which measures each as it renders. Anchored to
 * the end, as a chat is: it opens at the newest message, a reader at the
 * end (within AT_BOTTOM_PX) stays there as a reply grows or a message is
 * added, and one who scrolled up keeps what they read in place.
 */
function WindowedMessages({ messages, scroller, toEnd, scrollerProps, legacy, footer, item }: WindowedProps) {
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATED_PX,
    getItemKey: (i) => messages[i].id,
    overscan: OVERSCAN,
    paddingStart: PAD_START_PX,
    paddingEnd: PAD_END_PX,
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: AT_BOTTOM_PX,
    // The first render already lays out the newest messages, not the oldest.
    initialOffset: () => messages.length * ESTIMATED_PX,
  });
  useLayoutEffect(() => {
    toEnd.current = () => virtualizer.scrollToEnd();
    return () => {
      toEnd.current = null;
    };
  }, [virtualizer, toEnd]);
  useLayoutEffect(() => {
    virtualizer.scrollToEnd(); // each tab opens at its newest message
  }, [virtualizer]);

  // Home, End and the page keys go to a message through the virtualizer: the browser's own
  // animated scroll stops short when a message measured on the way makes it correct the position.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    if (e.target !== el || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const page = Math.max(el.clientHeight - 40, 40);
    if (e.key === 'Home') virtualizer.scrollToIndex(0, { align: 'start' });
    else if (e.key === 'End') virtualizer.scrollToEnd();
    else if (e.key === 'PageUp') el.scrollTop -= page;
    else if (e.key === 'PageDown') el.scrollTop += page;
    else return;
    e.preventDefault();
  };

  return (
    <div ref={scroller as RefObject<HTMLDivElement>} {...scrollerProps} className="chat-messages chat-messages--windowed" onKeyDown={onKeyDown}>
      <div className="chat-messages__list" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((v) => (
          <div
            key={v.key}
            ref={virtualizer.measureElement}
            data-index={v.index}
            className="chat-messages__item"
            style={{ transform: `translateY(${v.start}px)` }}
          >
            {v.index === 0 && legacy ? <LegacyNote /> : null}
            {item(v.index, messages[v.index])}
          </div>
        ))}
      </div>
      {footer}
    </div>
  );
}

/**
 * The conversation. It follows new text to the bottom while the reader is
 * there (or has just sent a message); a reader who scrolled up stays put
 * and gets a 'New messages ↓' button instead. Mount one per chat tab (key)
 * so each tab opens at its newest message.
 *
 * Only the messages in view and a few around them are in the page
 * (WindowedMessages), so a conversation of thousands of messages opens and
 * streams as fast as a short one; each message re-renders only when it
 * changes (MessageItem is memoised).
 */
export function MessageList({ messages, providerLabel, model, connecting, summarizing, toolsLine, busy, onRetry, ...handlers }: MessageListProps) {
  const [windowed] = useState(canWindow);
  const ref = useRef<HTMLElement | null>(null);
  const toEnd = useRef<(() => void) | null>(null);
  const itemsRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const seenUser = useRef(lastUserId(messages));
  const [unseen, setUnseen] = useState(false);
  const last = messages[messages.length - 1];
  const streaming = last?.role === 'assistant' && !last.complete && !isPaused(last);

  const toBottom = useCallback(() => {
    if (toEnd.current) return toEnd.current();
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  // New text at the end: follow it, or say it is there. (Windowed, the
  // virtualizer follows it itself while the reader is at the end.)
  const lastBlock = last?.blocks?.[last.blocks.length - 1];
  const newest = `${messages.length}:${last?.id ?? ''}:${last?.content.length ?? 0}:${String(last?.complete)}:${last?.blocks?.length ?? 0}:${lastBlock?.kind === 'tool' ? lastBlock.state : ''}:${last?.approval?.status ?? ''}:${last?.elicitation?.status ?? ''}`;
  useLayoutEffect(() => {
    const userId = lastUserId(messages);
    const sent = userId !== seenUser.current;
    seenUser.current = userId;
    if (sent) atBottom.current = true; // the reader just sent this
    if (atBottom.current) {
      if (sent || !toEnd.current) toBottom();
      setUnseen(false);
    } else {
      setUnseen(true);
    }
    // `newest` stands for the end of `messages`; changes further up (a summary,
    // View Full) are not new messages and do not move the view.
  }, [newest, toBottom]);

  // The connecting line below the messages.
  useLayoutEffect(() => {
    const el = ref.current;
    if (atBottom.current && el) el.scrollTop = el.scrollHeight;
  }, [connecting]);

  // Content that grows after rendering (markdown, code blocks, View Full) keeps a reader at the bottom there.
  // (Windowed, the virtualizer measures each message and does so.)
  useEffect(() => {
    const items = itemsRef.current;
    if (windowed || !items || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (atBottom.current) toBottom();
    });
    observer.observe(items);
    return () => observer.disconnect();
  }, [toBottom, windowed, messages.length === 0]);

  const onScroll = (e: UIEvent<HTMLElement>) => {
    const el = e.currentTarget;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight <= AT_BOTTOM_PX;
    if (atBottom.current) setUnseen(false);
  };

  const item = (i: number, m: ChatMessage) => (
    <MessageItem
      key={m.id}
      message={m}
      position={i + 1}
      total={messages.length}
      assistantName={providerLabel}
      summarizing={summarizing.has(m.id)}
      // Only a paused reply's card waits on it: the other messages need not render again when it changes.
      busy={busy && Boolean(m.approval || m.signin)}
      onRetry={onRetry && m.error && i === messages.length - 1 && !busy ? onRetry : undefined}
      {...handlers}
    />
  );
  const log = {
    'data-testid': 'messages',
    role: 'log',
    'aria-label': 'Conversation',
    'aria-busy': streaming || undefined,
    tabIndex: 0,
    onScroll,
  };
  const legacy = messages.some((m) => m.legacy);
  const connectingLine = connecting ? <Connecting providerLabel={providerLabel} /> : null;

  let body;
  if (messages.length === 0) {
    body = (
      <div ref={(el) => void (ref.current = el)} {...log} className="chat-messages">
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
              {toolsLine ? (
                <p className="chat-empty__tools" data-testid="chat-empty-tools">
                  {toolsLine}
                </p>
              ) : null}
            </>
          )}
        </div>
      </div>
    );
  } else if (windowed) {
    body = (
      <WindowedMessages
        messages={messages}
        scroller={ref}
        toEnd={toEnd}
        scrollerProps={log}
        legacy={legacy}
        footer={connectingLine ? <div className="chat-messages__foot">{connectingLine}</div> : null}
        item={item}
      />
    );
  } else {
    body = (
      <div ref={(el) => void (ref.current = el)} {...log} className="chat-messages">
        <div ref={itemsRef} className="chat-messages__items">
          {legacy ? <LegacyNote /> : null}
          {messages.map((m, i) => item(i, m))}
          {connectingLine}
        </div>
      </div>
    );
  }

  return (
    <div className="chat-messages-frame">
      {body}
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
