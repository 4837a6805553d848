// A studio row's actions (a prompt's, an agent's) and its Delete, which
// asks first: the question replaces the buttons, focus goes to the
// confirmation and back to Delete when it is dismissed, so keyboard users
// stay put.

import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from '@aws-amplify/ui-react';

interface RowActionsProps {
  /** Names the confirmation group ('Delete Cold email?'). */
  confirmLabel: string;
  /** What deleting does, asked in words. */
  question: string;
  onDelete: () => void;
  /** The row's other actions, before Delete. */
  children?: ReactNode;
}

export function RowActions({ confirmLabel, question, onDelete, children }: RowActionsProps) {
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const deleteRef = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
    else if (returnFocus.current) {
      returnFocus.current = false;
      deleteRef.current?.focus();
    }
  }, [confirming]);

  if (confirming) {
    return (
      <div className="creator-actions" role="group" aria-label={confirmLabel}>
        <span>{question}</span>
        <Button ref={confirmRef} size="small" variation="destructive" onClick={onDelete}>
          Delete
        </Button>
        <Button
          size="small"
          onClick={() => {
            returnFocus.current = true;
            setConfirming(false);
          }}
        >
          Keep it
        </Button>
      </div>
    );
  }
  return (
    <div className="creator-actions">
      {children}
      <Button ref={deleteRef} size="small" onClick={() => setConfirming(true)}>
        Delete
      </Button>
    </div>
  );
}
