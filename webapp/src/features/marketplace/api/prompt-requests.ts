// The marketplace's POST calls, through the one fetch wrapper.

import { apiRequest } from '../../../lib/api-client';
import type { RateResponse, UseFreePromptResponse } from './types';

/** POST /api/v1/prompts/use-free-prompt/{id} (no body). */
export function requestFreeUse(promptId: string): Promise<UseFreePromptResponse> {
  return apiRequest<UseFreePromptResponse>(`/prompts/use-free-prompt/${encodeURIComponent(promptId)}`, { method: 'POST' });
}

/** POST /api/v1/prompts/{id}/rate {rating}. */
export function requestRating(promptId: string, rating: number): Promise<RateResponse> {
  return apiRequest<RateResponse>(`/prompts/${encodeURIComponent(promptId)}/rate`, { method: 'POST', body: { rating } });
}
