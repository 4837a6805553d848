import { useId, useLayoutEffect, useRef, type AriaAttributes, type KeyboardEvent, type ReactNode } from 'react';
import { INPUT_MAX_HEIGHT_PX } from '../constants';

export const INPUT_HINT = 'Enter to send • Shift+Enter for newline';

/** SPEC §9: up to 320 px; on a short window less, so the conversation keeps some room. */
const INPUT_MAX_HEIGHT = `min(${INPUT_MAX_HEIGHT_PX}px, 40dvh)`;

interface ChatInputProps {
  value: string;
  placeholder: string;
  sending: boolean;
  /** Why a message cannot go now (e.g. a tool approval is waiting): shown instead of the hint; Send is off. */
  blocked?: string;
  onChange: (text: string) => void;
  onSend: () => void;
  /** A reply is streaming: Stop (in Send's place) ends it. */
  onStop?: () => void;
  /** Stop was pressed: the reply is ending. */
  stopping?: boolean;
  /** Shown above the box (the attached resources' chips). */
  above?: ReactNode;
  /** Shown before the box (the paperclip). */
  beside?: ReactNode;
  /** A popup over the box (the prompts menu). */
  popup?: ReactNode;
  /** Sees each key first; true when it took it (the prompts menu's arrows, Enter, Escape). */
  onKeyDownFirst?: (e: KeyboardEvent<HTMLTextAreaElement>) => boolean;
  /** What the box says of its popup (ARIA). */
  inputAria?: AriaAttributes;
}

/** The message box: grows with its text up to 320 px, then scrolls inside; Enter sends, Shift+Enter is a newline. */
export function ChatInput({
  value,
  placeholder,
  sending,
  blocked,
  onChange,
  onSend,
  onStop,
  stopping = false,
  above,
  beside,
  popup,
  onKeyDownFirst,
  inputAria,
}: ChatInputProps) {
  const id = useId();
  const hintId = useId();
  const ref = useRef<HTMLTextAreaElement>(null);

  // Grow with the text; the max-height caps it (then it scrolls inside), so
  // Send and the hint below stay on screen whatever was handed over.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    const borders = el.offsetHeight - el.clientHeight;
    if (el.scrollHeight > 0) el.style.height = `${el.scrollHeight + borders}px`;
  }, [value]);

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (onKeyDownFirst?.(e)) return;
    if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    onSend();
  };

  const canSend = value.trim().length > 0 && !sending && !blocked;
  return (
    <div className="chat-input chat-composer">
      <label htmlFor={id} className="chat-sr-only">
        Message
      </label>
      {popup}
      {above}
      <div className="chat-input__row">
        {beside}
        <textarea
          ref={ref}
          id={id}
          className="chat-input__box"
          rows={1}
          value={value}
          placeholder={placeholder}
          aria-describedby={hintId}
          {...inputAria}
          style={{ maxHeight: INPUT_MAX_HEIGHT }}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={onKeyDown}
        />
        {onStop ? (
          <button type="button" className="chat-button chat-input__send chat-input__stop" disabled={stopping} onClick={onStop}>
            <span className="chat-input__stop-mark" aria-hidden="true" />
            {stopping ? 'Stopping...' : 'Stop'}
          </button>
        ) : (
          <button type="button" className="chat-button chat-button--primary chat-input__send" disabled={!canSend} onClick={onSend}>
            {sending ? 'Sending...' : 'Send'}
          </button>
        )}
      </div>
      {blocked ? (
        <p id={hintId} className="chat-input__hint chat-input__hint--blocked" role="status" data-testid="input-blocked">
          {blocked}
        </p>
      ) : (
        <p id={hintId} className="chat-input__hint">
          {INPUT_HINT}
        </p>
      )}
    </div>
  );
}
