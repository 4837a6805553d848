// The creators (docs/admin.md, Creators and reviews), newest first and
// paged: payout status, prompts per state, sales and net when the API
// gives them, and Suspend / Unsuspend, each asked first since a
// suspension takes every prompt of theirs off the marketplace at once.

import { useState } from 'react';
import { toast } from '../../../components/notifications/notification-store';
import { errorMessage } from '../../../lib/api-client';
import { setCreatorSuspended } from '../api/requests';
import type { AdminCreator } from '../api/types';
import { useAdminCreators } from '../api/use-admin-lists';
import { isAccessDenied } from '../components/admin-access';
import { ConfirmDialog } from '../components/confirm-dialog';
import { ListTable } from '../components/list-table';
import { SectionHeader } from '../components/section-header';
import { useAdminWrite } from '../components/use-admin-write';
import { CREATOR_COLUMNS, CreatorRow } from './creator-row';

export const SUSPEND_TEXT = 'Their prompts leave the marketplace; buyers keep access.';
export const UNSUSPEND_TEXT = 'Their published prompts return to the marketplace.';

export function CreatorsSection() {
  const list = useAdminCreators();
  const { run, pending } = useAdminWrite();
  const [asking, setAsking] = useState<{ creator: AdminCreator; suspend: boolean } | null>(null);
  const [askError, setAskError] = useState<string | null>(null);

  const confirm = async (c: AdminCreator, suspend: boolean) => {
    setAskError(null);
    const who = c.display_name || c.username || c.id;
    const outcome = await run(() => setCreatorSuspended(c.id, suspend));
    if (!outcome) return;
    void list.refresh();
    if (outcome.ok) {
      toast.success(suspend ? `Suspended ${who}: their prompts are off the marketplace.` : `Unsuspended ${who}: their prompts are back on the marketplace.`);
      setAsking(null);
    } else if (!isAccessDenied(outcome.error)) {
      setAskError(errorMessage(outcome.error, 'That did not work. Please try again.'));
    }
  };

  const who = asking ? asking.creator.display_name || asking.creator.username || asking.creator.id : '';
  return (
    <section className="admin-section" aria-labelledby="admin-creators-heading">
      <SectionHeader id="admin-creators-heading" title="Creators" />
      <ListTable
        list={list}
        caption="Creators"
        noun="creators"
        columns={CREATOR_COLUMNS}
        emptyText="No creators yet."
        testId="creators-table"
        renderRow={(c) => (
          <CreatorRow
            key={c.id}
            creator={c}
            busy={pending}
            onSuspend={(creator, suspend) => {
              setAskError(null);
              setAsking({ creator, suspend });
            }}
          />
        )}
      />
      {asking ? (
        <ConfirmDialog
          title={asking.suspend ? `Suspend ${who}?` : `Unsuspend ${who}?`}
          confirmLabel={asking.suspend ? 'Suspend' : 'Unsuspend'}
          pendingLabel={asking.suspend ? 'Suspending…' : 'Unsuspending…'}
          pending={pending}
          error={askError}
          onConfirm={() => void confirm(asking.creator, asking.suspend)}
          onCancel={() => setAsking(null)}
          testId="suspend-dialog"
        >
          <p>{asking.suspend ? SUSPEND_TEXT : UNSUSPEND_TEXT}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
