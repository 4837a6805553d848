// Notifications (SPEC §3 "UI settings": id, optional duration; §9 timings)
// as a small external store so any module can raise a toast.

export const DEFAULT_TOAST_MS = 4000;
export const PAYMENT_SUCCESS_TOAST_MS = 5000;
export const COPY_TOAST_MS = 2000;

export type NotificationKind = 'success' | 'error' | 'info' | 'warning';

/** A button on a toast ("Resend email"); choosing it also closes the toast. */
export interface NotificationAction {
  label: string;
  onClick: () => void;
}

/** How long a toast with an action stays, so there is time to reach its button. */
export const ACTION_TOAST_MS = 12000;

export interface Notification {
  id: string;
  kind: NotificationKind;
  message: string;
  /** Milliseconds before it closes itself; 0 keeps it until dismissed. */
  duration: number;
  action?: NotificationAction;
}

export interface NotifyOptions {
  duration?: number;
  /** Reuse an id to replace a notification instead of stacking another. */
  id?: string;
  /** A button on the toast; the default duration becomes ACTION_TOAST_MS. */
  action?: NotificationAction;
  /**
   * An error raised together with a navigation, to be read on the next page
   * ("registered, but sign in yourself" → /login): it survives that one
   * navigation instead of being cleared with the page it was raised on.
   */
  keepOnNavigate?: boolean;
}

/** At most three toasts on screen: a fourth drops the oldest. */
export const MAX_VISIBLE = 3;

let items: Notification[] = [];
const listeners = new Set<() => void>();
const timers = new Map<string, ReturnType<typeof setTimeout>>();
/** Ids of error toasts that survive the next navigation (keepOnNavigate). */
const carried = new Set<string>();
let counter = 0;

function stopTimer(id: string): void {
  const timer = timers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(id);
}

function emit(): void {
  for (const l of [...listeners]) l();
}

export function subscribeNotifications(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getNotifications(): Notification[] {
  return items;
}

export function dismiss(id: string): void {
  stopTimer(id);
  carried.delete(id);
  if (!items.some((n) => n.id === id)) return;
  items = items.filter((n) => n.id !== id);
  emit();
}

/**
 * Shows a toast and returns its id. The same text is never on screen twice:
 * a repeat replaces the toast showing it (same id, so the element stays; it
 * becomes the newest and its timer starts again). Reusing an id replaces that
 * toast whatever its text. Beyond MAX_VISIBLE the oldest are dropped.
 */
export function notify(kind: NotificationKind, message: string, options: NotifyOptions = {}): string {
  const same = items.find((n) => n.message === message);
  const id = options.id ?? same?.id ?? `n${Date.now().toString(36)}-${(counter++).toString(36)}`;
  const duration = options.duration ?? (options.action ? ACTION_TOAST_MS : DEFAULT_TOAST_MS);
  const next: Notification = options.action ? { id, kind, message, duration, action: options.action } : { id, kind, message, duration };
  const replaced = items.filter((n) => n.id === id || n.message === message);
  const kept = items.filter((n) => !replaced.includes(n));
  const dropped = kept.slice(0, Math.max(0, kept.length + 1 - MAX_VISIBLE));
  for (const n of [...replaced, ...dropped]) {
    stopTimer(n.id);
    carried.delete(n.id);
  }
  items = [...kept.slice(dropped.length), next];
  if (duration > 0) timers.set(id, setTimeout(() => dismiss(id), duration));
  if (kind === 'error' && options.keepOnNavigate) carried.add(id);
  emit();
  return id;
}

/**
 * The user went to another page: error toasts raised on the page they left
 * go, so they cannot be mistaken for errors of the new page.
 * Other kinds stay ("Login successful!" shows while the app redirects), and
 * so do errors raised with keepOnNavigate, for this one navigation.
 */
export function clearErrorsOnNavigation(): void {
  const leaving = items.filter((n) => n.kind === 'error' && !carried.has(n.id));
  carried.clear();
  if (leaving.length === 0) return;
  for (const n of leaving) stopTimer(n.id);
  items = items.filter((n) => !leaving.includes(n));
  emit();
}

export const toast = {
  success: (message: string, options?: NotifyOptions) => notify('success', message, options),
  error: (message: string, options?: NotifyOptions) => notify('error', message, options),
  info: (message: string, options?: NotifyOptions) => notify('info', message, options),
  warning: (message: string, options?: NotifyOptions) => notify('warning', message, options),
  dismiss,
};

export function clearNotificationsForTests(): void {
  for (const t of timers.values()) clearTimeout(t);
  timers.clear();
  carried.clear();
  items = [];
  emit();
}
