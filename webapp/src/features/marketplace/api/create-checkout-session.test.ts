import { describe, expect, it } from 'vitest';
import { isSafeCheckoutUrl } from './create-checkout-session';

describe('isSafeCheckoutUrl', () => {
  it.each([
    ['https://checkout.stripe.com/c/pay/cs_test_1', true],
    ['http://localhost:12111/checkout/cs_1', true],
    ['/payment/success?session_id=cs_1', true],
    ['javascript:alert(1)', false],
    ['//evil.example', false],
    ['/\\evil.example', false],
    ['', false],
    [undefined, false],
  ])('%s → %s', (url, want) => {
    expect(isSafeCheckoutUrl(url)).toBe(want);
  });
});
