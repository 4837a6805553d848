// The frame of a detail dialog (a prompt, an MCP server, connecting to
// one): the title with its badges and the close button, a scrolling body,
// and a footer of actions. The caller renders the body with the classes
// below, so it may be a form:
//   .detail-modal__body          the scrolling middle (flex column)
//   .detail-modal__description   the text that describes the dialog (descriptionId)
//   .detail-modal__section       a titled part of the body
//   .detail-modal__section-title its heading

import type { ReactNode } from 'react';
import { Modal } from './modal';
import './detail-modal.css';

interface DetailModalProps {
  /** id of the title (names the dialog). */
  titleId: string;
  /** id of the element in the body that describes the dialog. */
  descriptionId?: string;
  title: ReactNode;
  /** Badges and facts under the title. */
  meta?: ReactNode;
  onClose: () => void;
  /** The close button is disabled (e.g. while connecting). */
  closeDisabled?: boolean;
  /** 14 px between body parts and at the sides on a phone, instead of 16 and 20. */
  compact?: boolean;
  className: string;
  testId: string;
  footer: ReactNode;
  children: ReactNode;
}

export function DetailModal({ titleId, descriptionId, title, meta, onClose, closeDisabled, compact, className, testId, footer, children }: DetailModalProps) {
  return (
    <Modal
      labelledBy={titleId}
      describedBy={descriptionId}
      onClose={onClose}
      className={`detail-modal${compact ? ' detail-modal--compact' : ''} ${className}`}
      testId={testId}
    >
      <header className="detail-modal__header">
        <div className="detail-modal__heading">
          <h2 id={titleId} className="detail-modal__title">
            {title}
          </h2>
          {meta}
        </div>
        <button type="button" className="icon-button" aria-label="Close dialog" onClick={onClose} disabled={closeDisabled}>
          <span aria-hidden="true">×</span>
        </button>
      </header>
      {children}
      <footer className="detail-modal__footer">{footer}</footer>
    </Modal>
  );
}
