// The parts of the prompt form and the agent form that are the same: the
// frame (heading and form), the category select, the "what changed" note,
// the failure line and the actions. What each form asks for is its own.

import { useId, type FormEvent, type ReactNode, type Ref } from 'react';
import { Alert, Button, Heading, SelectField, TextAreaField } from '@aws-amplify/ui-react';
import type { Category } from '../../../lib/api/types';

interface FrameProps {
  testId: string;
  title: string;
  editor: {
    ref: Ref<HTMLFormElement>;
    busy: boolean;
    run: (e: FormEvent | null, andSubmit: boolean) => Promise<void>;
  };
  onClose: () => void;
  /** The fields, then the failure line. */
  children: ReactNode;
}

/** The form under its heading, with Save draft, Submit for review and Cancel. */
export function ItemEditorFrame({ testId, title, editor: { ref, busy, run }, onClose, children }: FrameProps) {
  const headingId = useId();
  return (
    <section className="creator-editor" aria-labelledby={headingId} data-testid={testId}>
      <Heading level={3} id={headingId} className="creator-editor__title">
        {title}
      </Heading>
      <form ref={ref} className="creator-form" onSubmit={(e) => void run(e, false)} noValidate aria-busy={busy} aria-labelledby={headingId}>
        {children}
        <div className="creator-actions">
          <Button type="submit" isDisabled={busy}>
            Save draft
          </Button>
          <Button variation="primary" onClick={() => void run(null, true)} isDisabled={busy}>
            Submit for review
          </Button>
          <Button variation="link" onClick={onClose} isDisabled={busy}>
            Cancel
          </Button>
        </div>
      </form>
    </section>
  );
}

interface TextFieldProps {
  value: string;
  onChange: (e: { target: { value: string } }) => void;
  hasError: boolean;
  errorMessage: string | undefined;
}

/** The category select; a category the list no longer has shows by the item's own name for it. */
export function CategorySelect({ field, categories, savedName }: { field: TextFieldProps; categories: readonly Category[]; savedName: string | undefined }) {
  const known = categories.some((c) => String(c.id) === field.value);
  return (
    <SelectField label="Category" isRequired {...field}>
      <option value="">Choose a category</option>
      {field.value && !known ? <option value={field.value}>{savedName || field.value}</option> : null}
      {categories.map((c) => (
        <option key={String(c.id)} value={String(c.id)}>
          {c.name}
        </option>
      ))}
    </SelectField>
  );
}

/** A published item's "What changed" note, for its next version. */
export function ChangeNoteField({ field, descriptiveText }: { field: TextFieldProps; descriptiveText: string }) {
  return <TextAreaField label="What changed" isRequired rows={2} {...field} descriptiveText={descriptiveText} />;
}

/** Why the last save or submit failed, when no field says it. */
export function SaveFailure({ failure, testId }: { failure: string | null; testId: string }) {
  return failure ? (
    <Alert variation="error" heading="Not saved" data-testid={testId}>
      {failure}
    </Alert>
  ) : null;
}
