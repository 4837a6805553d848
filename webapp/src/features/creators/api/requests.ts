// The creator studio's requests (docs/creators.md). Reads are SWR hooks
// keyed per user; writes return the API's answer and leave the cache
// updates to the caller, which knows what it changed.

import useSWR from 'swr';
import { apiRequest } from '../../../lib/api-client';
import type { Category } from '../../../lib/api/types';
import { CREATOR_PATH, type CreatorProfile } from '../../../lib/api/use-creator';
import { useUserKey } from '../../../lib/use-user-key';
import type { CreatorPrompt, CreatorPromptInput, CreatorPromptPatch } from './types';

export const CREATOR_PROMPTS_PATH = '/creators/me/prompts';
/** The marketplace's categories (the same cache entry as the marketplace's). */
export const CATEGORIES_PATH = '/prompts/categories';

export interface CreatorProfileInput {
  display_name: string;
  bio: string;
  country: string;
}

/** PUT /creators/me: the first save makes the caller a creator. */
export function saveProfile(input: CreatorProfileInput): Promise<CreatorProfile> {
  return apiRequest<CreatorProfile>(CREATOR_PATH, { method: 'PUT', body: input });
}

/** POST /creators/me/onboarding: Stripe's hosted onboarding page (or the local stand-in's). */
export async function startOnboarding(): Promise<string> {
  const { url } = await apiRequest<{ url: string }>(`${CREATOR_PATH}/onboarding`, { method: 'POST' });
  return url;
}

/** GET /creators/me/prompts, once the caller is a creator. */
export function useCreatorPrompts(enabled: boolean) {
  const key = useUserKey(CREATOR_PROMPTS_PATH);
  const swr = useSWR<{ items: CreatorPrompt[] }>(enabled ? key : null, { shouldRetryOnError: false });
  return { ...swr, prompts: Array.isArray(swr.data?.items) ? swr.data.items : [] };
}

/** GET /prompts/categories (public). */
export function useCategories() {
  const swr = useSWR<Category[]>(CATEGORIES_PATH, { dedupingInterval: 10 * 60_000, shouldRetryOnError: false });
  return { ...swr, categories: Array.isArray(swr.data) ? swr.data : [] };
}

export function createPrompt(input: CreatorPromptInput): Promise<CreatorPrompt> {
  return apiRequest<CreatorPrompt>(CREATOR_PROMPTS_PATH, { method: 'POST', body: input });
}

export function updatePrompt(id: string, patch: CreatorPromptPatch): Promise<CreatorPrompt> {
  return apiRequest<CreatorPrompt>(`${CREATOR_PROMPTS_PATH}/${encodeURIComponent(id)}`, { method: 'PATCH', body: patch });
}

export function submitPrompt(id: string): Promise<CreatorPrompt> {
  return apiRequest<CreatorPrompt>(`${CREATOR_PROMPTS_PATH}/${encodeURIComponent(id)}/submit`, { method: 'POST' });
}

export function deletePrompt(id: string, version: number): Promise<void> {
  return apiRequest<void>(`${CREATOR_PROMPTS_PATH}/${encodeURIComponent(id)}?version=${version}`, { method: 'DELETE' });
}
