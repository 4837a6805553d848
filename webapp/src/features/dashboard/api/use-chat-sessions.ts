import useSWR from 'swr';
import { apiRequest } from '../../../lib/api-client';
import { isRecord, num } from '../../../lib/api/wire';
import { useUserKey } from '../../../lib/use-user-key';

// One conversation is enough: the answer's total counts all of them.
export const CHAT_SESSIONS_PATH = '/chat/conversations?limit=1';

async function fetchCount([path]: readonly [string, string]): Promise<number> {
  const raw = await apiRequest(path);
  return isRecord(raw) ? num(raw.total) : 0;
}

/**
 * The dashboard's Chat Sessions: how many conversations the signed-in user
 * keeps (open and archived), from GET /api/v1/chat/conversations (its
 * total). Read again when the window regains focus, so coming back from a
 * chat tab shows the new count.
 */
export function useChatSessions() {
  return useSWR<number>(useUserKey(CHAT_SESSIONS_PATH), fetchCount, { shouldRetryOnError: false, revalidateOnFocus: true });
}
