import useSWR from 'swr';
import { apiRequest } from '../../../lib/api-client';
import type { PromptVersion } from '../../../lib/api/types';
import { useUserKey } from '../../../lib/use-user-key';

/** GET /api/v1/prompts/{id}/versions/{n}: an earlier version's text, for a caller with access. */
export interface PromptVersionContent extends PromptVersion {
  title: string;
  description: string;
  content: string;
}

export function promptVersionPath(promptId: string, n: number): string {
  return `/prompts/${encodeURIComponent(promptId)}/versions/${n}`;
}

/**
 * One version's content, read once it is asked for (null: not asked);
 * keyed per user, since only a buyer or a free claim may read it.
 */
export function usePromptVersion(promptId: string, n: number | null) {
  const key = useUserKey(n === null ? '' : promptVersionPath(promptId, n));
  return useSWR<PromptVersionContent, unknown>(n === null ? null : key, ([url]: readonly [string, string]) => apiRequest<PromptVersionContent>(url), {
    shouldRetryOnError: false,
  });
}
