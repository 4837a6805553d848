import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { isFreeUseAvailable, isSafeCheckoutUrl } from './create-checkout-session';

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

describe('isFreeUseAvailable', () => {
  it('is the 400 with code free_use_available, whatever the text', () => {
    expect(isFreeUseAvailable(new ApiError(400, 'You can still use this prompt for free (2 of 3 free prompts left).', { code: 'free_use_available', fromServer: true }))).toBe(true);
    expect(isFreeUseAvailable(new ApiError(400, 'Anything', { code: 'free_use_available', fromServer: true }))).toBe(true);
  });
  it('is not the same words under another code or status', () => {
    expect(isFreeUseAvailable(new ApiError(400, 'You can use this prompt for free.', { code: 'invalid', fromServer: true }))).toBe(false);
    expect(isFreeUseAvailable(new ApiError(409, 'x', { code: 'free_use_available', fromServer: true }))).toBe(false);
    expect(isFreeUseAvailable(new Error('free_use_available'))).toBe(false);
  });
});
