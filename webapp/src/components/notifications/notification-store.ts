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
}

const MAX_VISIBLE = 5;

let items: Notification[] = [];
const listeners = new Set<() => void>();
const timers = new Map<string, ReturnType<typeof setTimeout>>();
let counter = 0;

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
  const timer = timers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(id);
  if (!items.some((n) => n.id === id)) return;
  items = items.filter((n) => n.id !== id);
  emit();
}

export function notify(kind: NotificationKind, message: string, options: NotifyOptions = {}): string {
  const id = options.id ?? `n${Date.now().toString(36)}-${(counter++).toString(36)}`;
  const duration = options.duration ?? (options.action ? ACTION_TOAST_MS : DEFAULT_TOAST_MS);
  const existing = timers.get(id);
  if (existing !== undefined) clearTimeout(existing);
  const next: Notification = options.action ? { id, kind, message, duration, action: options.action } : { id, kind, message, duration };
  const without = items.filter((n) => n.id !== id);
  items = [...without, next].slice(-MAX_VISIBLE);
  if (duration > 0) timers.set(id, setTimeout(() => dismiss(id), duration));
  emit();
  return id;
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
  items = [];
  emit();
}
