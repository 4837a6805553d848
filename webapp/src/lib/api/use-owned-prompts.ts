// GET /api/v1/payments/owned-prompts: the purchased prompts, read by the
// marketplace (access, ?filter=purchased) and the dashboard (Purchased Prompts).

import useSWR from 'swr';
import { useUserKey } from '../use-user-key';
import type { OwnedPromptsResponse } from './types';

export const OWNED_PROMPTS_PATH = '/payments/owned-prompts';
/** SPEC §9: owned prompts cached 5 minutes. */
export const OWNED_PROMPTS_CACHE_MS = 5 * 60_000;

/** Signed in only. */
export function useOwnedPrompts() {
  const swr = useSWR<OwnedPromptsResponse>(useUserKey(OWNED_PROMPTS_PATH), { dedupingInterval: OWNED_PROMPTS_CACHE_MS, shouldRetryOnError: false });
  const ids = Array.isArray(swr.data?.owned_prompt_ids) ? swr.data.owned_prompt_ids.map(String) : [];
  return { ...swr, ownedPromptIds: ids };
}
