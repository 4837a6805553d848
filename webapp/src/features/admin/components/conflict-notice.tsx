// A 409 on a stale write: someone else saved the record since this form
// opened it. Shows the server's detail and the values as they stand now,
// and reloads them into the form on request (then the admin saves again,
// with the current version).

import { Alert, Button } from '@aws-amplify/ui-react';

export interface ConflictValue {
  label: string;
  value: string;
}

interface ConflictNoticeProps {
  detail: string;
  current: readonly ConflictValue[];
  onReload: () => void;
}

export function ConflictNotice({ detail, current, onReload }: ConflictNoticeProps) {
  return (
    <Alert variation="warning" heading="Changed by someone else" className="admin-conflict" data-testid="conflict">
      <p className="admin-conflict__detail">{detail || 'This record changed since you opened it.'}</p>
      <p className="admin-conflict__lead">Its current values:</p>
      <dl className="admin-facts" data-testid="conflict-current">
        {current.map((c) => (
          <div key={c.label} className="admin-facts__row">
            <dt>{c.label}</dt>
            <dd>{c.value || '—'}</dd>
          </div>
        ))}
      </dl>
      <Button size="small" onClick={onReload}>
        Load the current values
      </Button>
      <p className="admin-conflict__hint">Your changes in the form are replaced; make them again, then save.</p>
    </Alert>
  );
}
