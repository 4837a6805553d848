// History: the user's archived conversations, newest first,
// searched by title and text, a page at a time (GET
// /chat/conversations?archived=true&q=…&limit=…&cursor=…). Keyed by user,
// so two accounts on one browser never share what SWR keeps in memory.

import { useCallback } from 'react';
import useSWRInfinite from 'swr/infinite';
import { useUserKey } from '../../../lib/use-user-key';
import { CONVERSATIONS_PATH, HISTORY_PAGE_SIZE, listConversations, type ConversationInfo, type ConversationPage } from './conversations';

/** The SWR key of one page: [path, user id, search, cursor]. */
type HistoryKey = readonly [string, string, string, string];

const HISTORY_KEY = `${CONVERSATIONS_PATH}#archived`;

async function fetchPage([, , q, cursor]: HistoryKey): Promise<ConversationPage> {
  return listConversations({ archived: true, q, limit: HISTORY_PAGE_SIZE, cursor });
}

export interface ConversationHistory {
  conversations: ConversationInfo[];
  /** The first page is on its way. */
  loading: boolean;
  /** A further page is on its way. */
  loadingMore: boolean;
  error: unknown;
  /** The server has more (Load more). */
  hasMore: boolean;
  loadMore: () => void;
  /** Asks again (after Reopen or Delete, or Try again). */
  refresh: () => Promise<unknown>;
}

/** The archived conversations matching `q` ('' for all). */
export function useConversationHistory(q: string): ConversationHistory {
  const user = useUserKey(HISTORY_KEY);
  const getKey = useCallback(
    (index: number, previous: ConversationPage | null): HistoryKey | null => {
      if (!user || (previous && !previous.next_cursor)) return null;
      return [HISTORY_KEY, user[1], q, index === 0 ? '' : (previous?.next_cursor ?? '')];
    },
    [user, q],
  );
  // Asked afresh whenever History opens (no deduping): a tab closed a moment ago is there.
  const swr = useSWRInfinite<ConversationPage, unknown, typeof getKey>(getKey, fetchPage, {
    shouldRetryOnError: false,
    revalidateFirstPage: true,
    dedupingInterval: 0,
  });
  const { data, size, setSize, mutate } = swr;
  const pages = data ?? [];
  const last = pages[pages.length - 1];
  return {
    conversations: pages.flatMap((p) => p.conversations),
    loading: swr.isLoading,
    loadingMore: size > pages.length && pages.length > 0,
    error: swr.error,
    hasMore: Boolean(last?.next_cursor),
    loadMore: () => void setSize(size + 1),
    refresh: () => mutate(),
  };
}
