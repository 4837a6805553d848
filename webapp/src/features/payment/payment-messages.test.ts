import { describe, expect, it } from 'vitest';
import { formatAmount, initialState, PAYMENT_MESSAGES } from './payment-messages';

describe('payment success state', () => {
  it('fails at once without a session id', () => {
    expect(initialState(null)).toEqual({ kind: 'failed', detail: 'No session ID provided' });
    expect(initialState('  ')).toEqual({ kind: 'failed', detail: PAYMENT_MESSAGES.noSession });
  });
  it('loads with a session id', () => {
    expect(initialState('cs_test_1')).toEqual({ kind: 'loading' });
  });
  it('formats amounts in USD with two decimals', () => {
    expect(formatAmount(12.5)).toBe('$12.50');
    expect(formatAmount(9.99)).toBe('$9.99');
    expect(formatAmount(Number.NaN)).toBe('$0.00');
  });
  it('keeps the spec texts', () => {
    expect(PAYMENT_MESSAGES.failedTitle).toBe('Payment Verification Failed');
    expect(PAYMENT_MESSAGES.successToast).toBe('Payment successful! Prompt is now available in your dashboard.');
  });
});
