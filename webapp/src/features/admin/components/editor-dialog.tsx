// The frame of an admin form in a dialog (create or edit): the title, the
// form (scrolling), and Cancel / Save under it. Save submits the form, so
// Enter in a field saves too. Cancel, Escape and the backdrop do nothing
// while the save runs.

import { useId, type FormEvent, type ReactNode } from 'react';
import { Button } from '@aws-amplify/ui-react';
import { DetailModal } from '../../../components/detail-modal';

interface FormDialogProps {
  title: string;
  saveLabel: string;
  savingLabel: string;
  saving: boolean;
  onSubmit: () => void;
  onClose: () => void;
  testId: string;
  children: ReactNode;
}

export function FormDialog({ title, saveLabel, savingLabel, saving, onSubmit, onClose, testId, children }: FormDialogProps) {
  const titleId = useId();
  const formId = useId();
  const close = () => {
    if (!saving) onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
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
            {saving ? savingLabel : saveLabel}
          </Button>
        </>
      }
    >
      <form id={formId} className="detail-modal__body admin-form" onSubmit={submit} noValidate aria-busy={saving}>
        {children}
      </form>
    </DetailModal>
  );
}
