import { apiRequest } from '../../../lib/api-client';
import type { CheckoutSessionResponse } from './types';

/** POST /api/v1/payments/create-checkout-session {prompt_id}. */
export function requestCheckoutSession(promptId: string): Promise<CheckoutSessionResponse> {
  return apiRequest<CheckoutSessionResponse>('/payments/create-checkout-session', { method: 'POST', body: { prompt_id: promptId } });
}

/** Only an http(s) address (or a same-site path) may receive the browser. */
export function isSafeCheckoutUrl(url: unknown): url is string {
  if (typeof url !== 'string' || !url) return false;
  if (/^https?:\/\//i.test(url)) return true;
  return url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\');
}
