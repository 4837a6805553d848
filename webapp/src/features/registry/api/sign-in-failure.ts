// GET /api/v1/mcp-oauth/errors/{id}: why one of the caller's sign-ins
// failed, in the product's words, kept a few minutes by the callback. Only
// the user whose sign-in it was reads it; anything else (another user's id,
// an expired one, no answer) is null and the page says the code's own
// message.

import { apiRequest } from '../../../lib/api-client';
import { isRecord, str } from '../../../lib/api/wire';

export const SIGN_IN_FAILURES_PATH = '/mcp-oauth/errors/';

export async function fetchSignInFailure(id: string): Promise<string | null> {
  try {
    const raw = await apiRequest(`${SIGN_IN_FAILURES_PATH}${encodeURIComponent(id)}`, { timeoutMs: 10_000 });
    const detail = isRecord(raw) ? str(raw.detail).trim() : '';
    return detail || null;
  } catch {
    return null;
  }
}
