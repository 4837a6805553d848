// The frame of an admin editor in a dialog (create or edit): the title, the
// form (scrolling) with the conflict notice and the failure above the
// fields, and Cancel / Save under it. Save submits the form, so Enter in a
// field saves too. Cancel, Escape and the backdrop do nothing while the
// save runs.

import { useId, type FormEvent, type ReactNode } from 'react';
import { Alert, Button } from '@aws-amplify/ui-react';
import { DetailModal } from '../../../components/detail-modal';
import { ConflictNotice, type ConflictValue } from './conflict-notice';
import type { EditorSubmit } from './use-editor-submit';

interface EditorDialogProps<R> {
  title: string;
  saveLabel: string;
  editor: EditorSubmit<R>;
  /** The record of a conflict as the notice lists it. */
  conflictValues: (current: R) => readonly ConflictValue[];
  onClose: () => void;
  testId: string;
  /** The test id of the failure's alert. */
  failureTestId: string;
  children: ReactNode;
}

export function EditorDialog<R>({ title, saveLabel, editor, conflictValues, onClose, testId, failureTestId, children }: EditorDialogProps<R>) {
  const titleId = useId();
  const formId = useId();
  const { pending: saving, conflict, failure } = editor;
  const close = () => {
    if (!saving) onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    editor.save();
  };
  return (
    <DetailModal
      titleId={titleId}
      title={title}
      onClose={close}
      closeDisabled={saving}
      className="admin-form-dialog"
      testId={testId}
      footer={
        <>
          <Button onClick={close} isDisabled={saving}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variation="primary" isDisabled={saving}>
            {saving ? 'Saving…' : saveLabel}
          </Button>
        </>
      }
    >
      <form id={formId} className="detail-modal__body admin-form" onSubmit={submit} noValidate aria-busy={saving}>
        {conflict ? <ConflictNotice detail={conflict.detail} current={conflictValues(conflict.current)} onReload={editor.reload} /> : null}
        {failure ? (
          <Alert variation="error" heading="Not saved" data-testid={failureTestId}>
            {failure}
          </Alert>
        ) : null}
        <div ref={editor.fieldsRef} className="admin-form__fields">
          {children}
        </div>
      </form>
    </DetailModal>
  );
}
