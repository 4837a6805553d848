import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ACTION_TOAST_MS,
  clearNotificationsForTests,
  COPY_TOAST_MS,
  DEFAULT_TOAST_MS,
  dismiss,
  getNotifications,
  notify,
  PAYMENT_SUCCESS_TOAST_MS,
  subscribeNotifications,
  toast,
} from './notification-store';

beforeEach(() => {
  vi.useFakeTimers();
  clearNotificationsForTests();
});
afterEach(() => {
  clearNotificationsForTests();
  vi.useRealTimers();
});

describe('notification store', () => {
  it('has the SPEC §9 durations', () => {
    expect(DEFAULT_TOAST_MS).toBe(4000);
    expect(PAYMENT_SUCCESS_TOAST_MS).toBe(5000);
    expect(COPY_TOAST_MS).toBe(2000);
  });

  it('closes a notification after the default 4 s', () => {
    const id = toast.success('Login successful!');
    expect(getNotifications()).toEqual([{ id, kind: 'success', message: 'Login successful!', duration: 4000 }]);
    vi.advanceTimersByTime(3999);
    expect(getNotifications()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(getNotifications()).toHaveLength(0);
  });

  it('honours a custom duration', () => {
    toast.success('Copied', { duration: COPY_TOAST_MS });
    toast.success('Payment successful!', { duration: PAYMENT_SUCCESS_TOAST_MS });
    vi.advanceTimersByTime(2000);
    expect(getNotifications().map((n) => n.message)).toEqual(['Payment successful!']);
    vi.advanceTimersByTime(3000);
    expect(getNotifications()).toEqual([]);
  });

  it('keeps a duration-0 notification until dismissed', () => {
    const id = notify('error', 'Sticky', { duration: 0 });
    vi.advanceTimersByTime(60_000);
    expect(getNotifications()).toHaveLength(1);
    dismiss(id);
    expect(getNotifications()).toHaveLength(0);
  });

  it('gives each notification its own id and replaces one when the id is reused', () => {
    const a = toast.info('one');
    const b = toast.info('two');
    expect(a).not.toBe(b);
    toast.error('three', { id: a });
    expect(getNotifications().map((n) => [n.id, n.message])).toEqual([
      [b, 'two'],
      [a, 'three'],
    ]);
  });

  it('notifies subscribers on change', () => {
    const listener = vi.fn();
    const unsubscribe = subscribeNotifications(listener);
    toast.warning('careful');
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
    toast.warning('again');
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('shows at most five at once, dropping the oldest', () => {
    for (let i = 0; i < 7; i++) toast.info(`n${i}`);
    expect(getNotifications().map((n) => n.message)).toEqual(['n2', 'n3', 'n4', 'n5', 'n6']);
  });

  it('keeps a toast with an action longer, unless told otherwise', () => {
    const action = { label: 'Resend email', onClick: () => undefined };
    toast.error('Confirm your address', { action });
    expect(getNotifications()[0]).toMatchObject({ duration: ACTION_TOAST_MS, action });
    vi.advanceTimersByTime(DEFAULT_TOAST_MS);
    expect(getNotifications()).toHaveLength(1);
    vi.advanceTimersByTime(ACTION_TOAST_MS - DEFAULT_TOAST_MS);
    expect(getNotifications()).toHaveLength(0);
    toast.info('x', { action, duration: 1000 });
    expect(getNotifications()[0].duration).toBe(1000);
  });
});
