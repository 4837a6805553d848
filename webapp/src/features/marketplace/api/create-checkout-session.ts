import { ApiError, apiRequest } from '../../../lib/api-client';
import type { CheckoutSessionResponse } from './types';

/** The 400 code of a checkout refused because the caller may still use this prompt for free (SPEC §8). */
export const FREE_USE_AVAILABLE = 'free_use_available';

/** The purchase should be the free use instead: the client claims it free. */
export function isFreeUseAvailable(err: unknown): err is ApiError {
  return err instanceof ApiError && err.status === 400 && err.code === FREE_USE_AVAILABLE;
}

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
