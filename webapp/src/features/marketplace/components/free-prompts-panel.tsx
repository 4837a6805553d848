import type { FreeUsageStatus } from '../api/types';
import { freeBarPercent } from '../free-usage';

/** Said when other accounts on the address spent some of the uses, so the count is explained. */
const SHARED_QUOTA_NOTE = 'Free uses are shared by all accounts on the same email address.';

/** SPEC §2: remaining out of total_allowed, and a bar of used / total_allowed. */
export function FreePromptsPanel({ status }: { status: FreeUsageStatus }) {
  const total = Math.max(0, status.total_allowed);
  const used = Math.max(0, status.used);
  const remaining = Math.max(0, status.remaining);
  const percent = freeBarPercent(used, total);
  const shared = status.shared_with_other_accounts === true;
  return (
    <section className="free-panel" data-testid="free-panel" aria-labelledby="free-panel-title">
      <div className="free-panel__head">
        <h2 id="free-panel-title" className="free-panel__title">
          Free Prompts
        </h2>
        <span className="free-panel__count">
          <strong>{remaining}</strong> of {total} remaining
        </span>
      </div>
      <div
        className="free-panel__bar"
        role="progressbar"
        aria-label="Free prompts used"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={Math.min(used, total)}
        aria-valuetext={`${used} of ${total} used`}
      >
        <div className="free-panel__fill" data-testid="free-panel-bar" style={{ width: `${percent}%` }} />
      </div>
      <p className="free-panel__hint">
        {remaining > 0
          ? 'Use a free prompt to unlock its full text without paying.'
          : shared
            ? 'All free prompts of your email address are used. Purchase a prompt to unlock it.'
            : 'You have used all your free prompts. Purchase a prompt to unlock it.'}
      </p>
      {shared ? (
        <p className="free-panel__hint" data-testid="free-panel-shared">
          {SHARED_QUOTA_NOTE}
        </p>
      ) : null}
    </section>
  );
}
