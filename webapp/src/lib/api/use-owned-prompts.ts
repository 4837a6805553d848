import useSWR from 'swr';
import { useAuth } from '../../auth/use-auth';
import type { OwnedPromptsResponse } from './types';

export const OWNED_PROMPTS_PATH = '/payments/owned-prompts';
/** SPEC §9: owned prompts cached 5 minutes. */
export const OWNED_PROMPTS_CACHE_MS = 5 * 60_000;

export function ownedPromptsKey(userId: string) {
  return [OWNED_PROMPTS_PATH, userId] as const;
}

/** GET /api/v1/payments/owned-prompts (signed in only): the purchased prompts. Used by the dashboard and the marketplace. */
export function useOwnedPrompts() {
  const { status, user } = useAuth();
  const key = status === 'authenticated' && user ? ownedPromptsKey(user.id) : null;
  const swr = useSWR<OwnedPromptsResponse>(key, { dedupingInterval: OWNED_PROMPTS_CACHE_MS, shouldRetryOnError: false });
  const ids = Array.isArray(swr.data?.owned_prompt_ids) ? swr.data.owned_prompt_ids.map(String) : [];
  return { ...swr, ownedPromptIds: ids };
}
