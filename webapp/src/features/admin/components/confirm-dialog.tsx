// "Are you sure?" before anything destructive. Focus is trapped inside and
// Escape cancels (components/modal.tsx), except while the request runs.
// A refusal (e.g. the API's 409 detail) is shown in the dialog, which then
// stays open.

import { useId, type ReactNode } from 'react';
import { Alert, Button } from '@aws-amplify/ui-react';
import { Modal } from '../../../components/modal';

interface ConfirmDialogProps {
  title: string;
  /** What will happen; describes the dialog. */
  children: ReactNode;
  /** Extra fields (a reason) under the description. */
  fields?: ReactNode;
  confirmLabel: string;
  /** The confirm button's text while the request runs ('Refunding…'). */
  pendingLabel: string;
  pending: boolean;
  /** Why the last attempt failed. */
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  testId?: string;
}

export function ConfirmDialog({ title, children, fields, confirmLabel, pendingLabel, pending, error, onConfirm, onCancel, testId = 'confirm-dialog' }: ConfirmDialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const cancel = () => {
    if (!pending) onCancel();
  };
  return (
    <Modal labelledBy={titleId} describedBy={descriptionId} onClose={cancel} className="admin-confirm" testId={testId}>
      <div className="admin-confirm__body">
        <h2 id={titleId} className="admin-confirm__title">
          {title}
        </h2>
        <div id={descriptionId} className="admin-confirm__text">
          {children}
        </div>
        {fields}
        {error ? (
          <Alert variation="error" data-testid="confirm-error">
            {error}
          </Alert>
        ) : null}
      </div>
      <footer className="admin-confirm__footer">
        <Button onClick={cancel} isDisabled={pending}>
          Cancel
        </Button>
        <Button variation="primary" colorTheme="error" onClick={onConfirm} isDisabled={pending}>
          {pending ? pendingLabel : confirmLabel}
        </Button>
      </footer>
    </Modal>
  );
}
