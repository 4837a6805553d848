import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ACTION_TOAST_MS,
  clearErrorsOnNavigation,
  clearNotificationsForTests,
  COPY_TOAST_MS,
  DEFAULT_TOAST_MS,
  dismiss,
  getNotifications,
  MAX_VISIBLE,
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

  it('shows at most three at once, dropping the oldest (and its timer)', () => {
    expect(MAX_VISIBLE).toBe(3);
    for (let i = 0; i < 7; i++) toast.info(`n${i}`);
    expect(getNotifications().map((n) => n.message)).toEqual(['n4', 'n5', 'n6']);
    expect(vi.getTimerCount()).toBe(3);
  });

  it('never shows the same text twice: a repeat refreshes the toast on screen', () => {
    const first = toast.error('Failed to connect');
    toast.info('other');
    vi.advanceTimersByTime(3000);
    const again = toast.error('Failed to connect');
    expect(again).toBe(first);
    // One copy, now the newest, with a fresh 4 s.
    expect(getNotifications().map((n) => [n.id, n.message])).toEqual([
      [expect.any(String), 'other'],
      [first, 'Failed to connect'],
    ]);
    expect(vi.getTimerCount()).toBe(2);
    vi.advanceTimersByTime(1000);
    expect(getNotifications().map((n) => n.message)).toEqual(['Failed to connect']);
    vi.advanceTimersByTime(2999);
    expect(getNotifications().map((n) => n.message)).toEqual(['Failed to connect']);
    vi.advanceTimersByTime(1);
    expect(getNotifications()).toEqual([]);
  });

  it('a repeated text takes the kind of the repeat; a reused id with that text leaves one toast', () => {
    const a = toast.info('Connecting...', { id: 'chat' });
    toast.success('Connecting...');
    expect(getNotifications()).toEqual([{ id: a, kind: 'success', message: 'Connecting...', duration: DEFAULT_TOAST_MS }]);
    toast.info('x');
    toast.error('x', { id: 'chat' });
    expect(getNotifications().map((n) => [n.id, n.kind, n.message])).toEqual([['chat', 'error', 'x']]);
    expect(vi.getTimerCount()).toBe(1);
  });

  it('on navigation drops error toasts only, keeping keepOnNavigate ones for that one navigation', () => {
    toast.error('Failed to copy to clipboard');
    toast.success('Login successful!');
    toast.error('Login failed', { keepOnNavigate: true });
    clearErrorsOnNavigation();
    expect(getNotifications().map((n) => n.message)).toEqual(['Login successful!', 'Login failed']);
    expect(vi.getTimerCount()).toBe(2);
    clearErrorsOnNavigation();
    expect(getNotifications().map((n) => n.message)).toEqual(['Login successful!']);
    toast.info('Using prompt for free...');
    toast.warning('careful');
    clearErrorsOnNavigation();
    expect(getNotifications().map((n) => n.message)).toEqual(['Login successful!', 'Using prompt for free...', 'careful']);
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
