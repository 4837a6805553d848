import { useEffect, useRef, type ReactNode } from 'react';
import './modal.css';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface ModalProps {
  /** id of the element naming the dialog (its heading). */
  labelledBy: string;
  /** id of the element describing it, if any. */
  describedBy?: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
  /** data-testid of the dialog element. */
  testId?: string;
}

/** Open dialogs, innermost last: only the innermost one answers Escape and traps Tab. */
const openDialogs: HTMLElement[] = [];

/**
 * An accessible modal dialog: role=dialog, aria-modal, named by its heading;
 * Escape and the backdrop close it; Tab and Shift+Tab stay inside; focus
 * moves into it on open and back to where it was on close; the page behind
 * does not scroll. Dialogs may stack (one opened from another): keys go to
 * the innermost only, and closing it hands focus back. Rendered in place
 * (not portalled) so the theme's CSS variables apply; it is position: fixed.
 */
export function Modal({ labelledBy, describedBy, onClose, children, className, testId }: ModalProps) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const dialog = dialogRef.current;
    const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog) openDialogs.push(dialog);
    dialog?.focus();

    const onKey = (e: KeyboardEvent) => {
      if (!dialog || openDialogs[openDialogs.length - 1] !== dialog) return;
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        onCloseRef.current();
        return;
      }
      if (e.key !== 'Tab') return;
      const focusables = Array.from(dialog.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => !el.hasAttribute('inert'));
      if (focusables.length === 0) {
        e.preventDefault();
        dialog.focus();
        return;
      }
      const first = focusables[0];
      const last = focusables[focusables.length - 1];
      const active = document.activeElement;
      const inside = active instanceof Node && dialog.contains(active);
      if (e.shiftKey && (active === first || active === dialog || !inside)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (active === last || !inside)) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey, true);
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      if (dialog) {
        const at = openDialogs.lastIndexOf(dialog);
        if (at !== -1) openDialogs.splice(at, 1);
      }
      document.removeEventListener('keydown', onKey, true);
      document.body.style.overflow = previousOverflow;
      if (previouslyFocused?.isConnected) previouslyFocused.focus();
    };
  }, []);

  return (
    <div className="modal-layer">
      <div className="modal-backdrop" aria-hidden="true" onClick={() => onCloseRef.current()} />
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        tabIndex={-1}
        className={`modal${className ? ' ' + className : ''}`}
        data-testid={testId}
      >
        {children}
      </div>
    </div>
  );
}
