import { useSyncExternalStore } from 'react';
import { dismiss, getNotifications, subscribeNotifications, type Notification } from './notification-store';
import './toast-region.css';

const ICONS: Record<Notification['kind'], string> = {
  success: '✓',
  error: '!',
  info: 'i',
  warning: '!',
};

function ToastItem({ n }: { n: Notification }) {
  // Errors interrupt (role=alert); everything else is polite (role=status).
  const role = n.kind === 'error' ? 'alert' : 'status';
  return (
    <div className={`toast toast--${n.kind}`} role={role} data-kind={n.kind}>
      <span className="toast__icon" aria-hidden="true">
        {ICONS[n.kind]}
      </span>
      <span className="toast__message">
        {n.message}
        {n.action ? (
          <button
            type="button"
            className="toast__action"
            onClick={() => {
              const { onClick } = n.action!;
              dismiss(n.id);
              onClick();
            }}
          >
            {n.action.label}
          </button>
        ) : null}
      </span>
      <button type="button" className="toast__close" aria-label="Dismiss notification" onClick={() => dismiss(n.id)}>
        ×
      </button>
    </div>
  );
}

/**
 * Renders the current notifications; mount once, in the app shell. A named
 * region landmark (an aria-label on a role-less div is not allowed: axe
 * aria-prohibited-attr); each toast is its own alert or status.
 */
export function ToastRegion() {
  const items = useSyncExternalStore(subscribeNotifications, getNotifications, getNotifications);
  return (
    <div className="toast-region" data-testid="toasts" role="region" aria-label="Notifications">
      {items.map((n) => (
        <ToastItem key={n.id} n={n} />
      ))}
    </div>
  );
}
