import { useId } from 'react';
import { Markdown } from '../../../components/markdown';
import { Modal } from '../../../components/modal';
import { FULL_VIEW_COUNT_CHARS } from '../constants';
import { copyWithToast } from '../copy';
import { displayText } from '../menu';
import type { ChatMessage } from '../state/types';

interface FullMessageModalProps {
  message: ChatMessage;
  onRaw: () => void;
  onClose: () => void;
}

/** SPEC §2 Full Message viewer: summary, the whole message, a count above 4000 characters, Raw, Copy, Close. */
export function FullMessageModal({ message, onRaw, onClose }: FullMessageModalProps) {
  const titleId = useId();
  const shown = displayText(message.content, message.role);
  return (
    <Modal labelledBy={titleId} onClose={onClose} className="chat-modal chat-modal--wide" testId="full-message">
      <header className="chat-modal__head">
        <h2 id={titleId} className="chat-modal__title">
          Full Message
        </h2>
        {message.content.length > FULL_VIEW_COUNT_CHARS ? (
          <span className="chat-modal__meta" data-testid="full-message-count">
            {message.content.length.toLocaleString('en-US')} characters
          </span>
        ) : null}
      </header>
      <div className="chat-modal__body">
        {message.summary ? (
          <section className="chat-full__summary" aria-label="Summary">
            <h3 className="chat-full__heading">Summary</h3>
            <p>{message.summary}</p>
          </section>
        ) : null}
        {message.role === 'assistant' ? <Markdown source={shown} /> : <p className="chat-message__plain">{shown}</p>}
      </div>
      <footer className="chat-modal__foot">
        <button type="button" className="chat-button" onClick={onRaw}>
          Raw
        </button>
        <button type="button" className="chat-button" onClick={() => void copyWithToast(message.content)}>
          Copy
        </button>
        <button type="button" className="chat-button chat-button--primary" onClick={onClose}>
          Close
        </button>
      </footer>
    </Modal>
  );
}

/** SPEC §2 Raw Message viewer: the text exactly as stored. */
export function RawMessageModal({ content, onClose }: { content: string; onClose: () => void }) {
  const titleId = useId();
  return (
    <Modal labelledBy={titleId} onClose={onClose} className="chat-modal chat-modal--wide" testId="raw-message">
      <header className="chat-modal__head">
        <h2 id={titleId} className="chat-modal__title">
          Raw Message
        </h2>
      </header>
      <div className="chat-modal__body">
        <pre className="chat-raw" data-testid="raw-message-text">
          {content}
        </pre>
      </div>
      <footer className="chat-modal__foot">
        <button type="button" className="chat-button chat-button--primary" onClick={onClose}>
          Close
        </button>
      </footer>
    </Modal>
  );
}
