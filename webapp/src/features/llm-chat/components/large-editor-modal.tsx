import { useEffect, useId, useRef, useState } from 'react';
import { Modal } from '../../../components/modal';

interface TextEditorModalProps {
  title: string;
  /** Accessible name of the text box. */
  fieldLabel: string;
  initialText: string;
  /** Text of the button that discards the edit ('Close' or 'Cancel'). */
  dismissLabel: string;
  onDismiss: () => void;
  onDone: (text: string) => void;
  testId?: string;
}

/** A big text box with a character count; Done keeps the text, the other button drops it. */
export function TextEditorModal({ title, fieldLabel, initialText, dismissLabel, onDismiss, onDone, testId }: TextEditorModalProps) {
  const titleId = useId();
  const fieldId = useId();
  const countId = useId();
  const [text, setText] = useState(initialText);
  const boxRef = useRef<HTMLTextAreaElement>(null);
  // After the dialog has taken focus (its effect runs first): into the text, caret at the end.
  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    box.focus();
    box.setSelectionRange(box.value.length, box.value.length);
  }, []);
  return (
    <Modal labelledBy={titleId} onClose={onDismiss} className="chat-modal chat-modal--editor" testId={testId}>
      <header className="chat-modal__head">
        <h2 id={titleId} className="chat-modal__title">
          {title}
        </h2>
      </header>
      <div className="chat-modal__body">
        <label htmlFor={fieldId} className="chat-sr-only">
          {fieldLabel}
        </label>
        <textarea
          ref={boxRef}
          id={fieldId}
          className="chat-editor__box"
          value={text}
          aria-describedby={countId}
          onChange={(e) => setText(e.target.value)}
        />
        <p id={countId} className="chat-editor__count" aria-live="polite">
          {text.length.toLocaleString('en-US')} characters
        </p>
      </div>
      <footer className="chat-modal__foot">
        <button type="button" className="chat-button" onClick={onDismiss}>
          {dismissLabel}
        </button>
        <button type="button" className="chat-button chat-button--primary" onClick={() => onDone(text)}>
          Done
        </button>
      </footer>
    </Modal>
  );
}

/** SPEC §2 Large Editor for the message box: character count, Close, Done. */
export function LargeEditorModal({ text, onClose, onDone }: { text: string; onClose: () => void; onDone: (text: string) => void }) {
  return (
    <TextEditorModal
      title="Large Editor"
      fieldLabel="Large Editor text"
      initialText={text}
      dismissLabel="Close"
      onDismiss={onClose}
      onDone={onDone}
      testId="large-editor"
    />
  );
}
