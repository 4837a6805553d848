import { useState } from 'react';
import { TextField } from '@aws-amplify/ui-react';
import { ListingFilters, SEARCH_DEBOUNCE_MS } from '../../../components/listing/listing';
import { toast } from '../../../components/notifications/notification-store';
import { errorMessage } from '../../../lib/api-client';
import { useAuth } from '../../../lib/use-auth';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { runUserAction } from '../api/requests';
import type { AdminUser } from '../api/types';
import { useAdminUsers } from '../api/use-admin-lists';
import { isAccessDenied } from '../components/admin-access';
import { ConfirmDialog } from '../components/confirm-dialog';
import { ListTable } from '../components/list-table';
import { reportFailure } from '../components/report-failure';
import { SectionHeader } from '../components/section-header';
import { useAdminWrite } from '../components/use-admin-write';
import type { UserActionSpec } from './user-actions';
import { USER_COLUMNS, UserRow } from './user-row';

export function UsersSection() {
  const { user: self } = useAuth();
  const [searchInput, setSearchInput] = useState('');
  const q = useDebouncedValue(searchInput.trim(), SEARCH_DEBOUNCE_MS);
  const list = useAdminUsers(q);
  const { run, pending } = useAdminWrite();
  const [asking, setAsking] = useState<{ user: AdminUser; spec: UserActionSpec } | null>(null);
  const [askError, setAskError] = useState<string | null>(null);

  /** Runs the action; true when it worked. A confirmed one shows its refusal in the dialog. */
  const perform = async (u: AdminUser, spec: UserActionSpec): Promise<boolean> => {
    const outcome = await run(() => runUserAction(u.id, spec.action));
    if (!outcome) return false;
    if (outcome.ok) {
      toast.success(spec.done);
      void list.refresh();
      return true;
    }
    // The account may have changed meanwhile (a 409 answers it as it is now).
    void list.refresh();
    if (spec.confirm) {
      // e.g. 409: the last admin cannot be revoked.
      if (!isAccessDenied(outcome.error)) setAskError(errorMessage(outcome.error, 'That did not work. Please try again.'));
    } else {
      reportFailure(outcome.error, 'That did not work. Please try again.');
    }
    return false;
  };

  const start = (u: AdminUser, spec: UserActionSpec) => {
    if (!spec.confirm) return void perform(u, spec);
    setAskError(null);
    setAsking({ user: u, spec });
  };

  return (
    <section className="admin-section" aria-labelledby="admin-users-heading">
      <SectionHeader id="admin-users-heading" title="Users" />

      <ListingFilters label="Find users">
        <TextField label="Search users" type="search" placeholder="Email or username" value={searchInput} onChange={(e) => setSearchInput(e.target.value)} autoComplete="off" />
      </ListingFilters>

      <ListTable
        list={list}
        caption="Users"
        noun="users"
        columns={USER_COLUMNS}
        emptyText={q ? 'No user has that email or username.' : 'No users yet.'}
        testId="users-table"
        renderRow={(u) => <UserRow key={u.id} user={u} selfId={self?.id ?? ''} busy={pending} onAction={start} />}
      />

      {asking?.spec.confirm ? (
        <ConfirmDialog
          title={asking.spec.confirm.title}
          confirmLabel={asking.spec.confirm.button}
          pendingLabel={asking.spec.confirm.pending}
          pending={pending}
          error={askError}
          onConfirm={() => {
            setAskError(null);
            void perform(asking.user, asking.spec).then((ok) => ok && setAsking(null));
          }}
          onCancel={() => setAsking(null)}
        >
          <p>{asking.spec.confirm.text}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
