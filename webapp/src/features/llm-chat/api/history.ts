// History: the user's archived conversations, newest first,
// searched by title and text, a page at a time (GET
// /chat/conversations?archived=true&q=…&limit=…&cursor=…). Keyed by user,
// so two accounts on one browser never share what SWR keeps in memory.
//
// A search page may come back short, even empty, with a cursor: the server
// reads a bounded part of the list per request. Pages are then asked on
// their own until a screenful (HISTORY_PAGE_SIZE more than before Load more)
// is there or the list ends, so a search shows what it always showed.

import { useCallback, useEffect, useState } from 'react';
import useSWRInfinite from 'swr/infinite';
import { useUserKey } from '../../../lib/use-user-key';
import { CONVERSATIONS_PATH, HISTORY_PAGE_SIZE, listConversations, type ConversationInfo, type ConversationPage } from './conversations';

/** The SWR key of one page: [path, user id, search, cursor]. */
type HistoryKey = readonly [string, string, string, string];

const HISTORY_KEY = `${CONVERSATIONS_PATH}#archived`;

// An open History asks again when a tab's conversation has been archived:
// closing a tab archives it in the background, and History opened at once
// may have read the list before the archive was written.
const archivedListeners = new Set<() => void>();

/** A conversation was archived (its tab closed): an open History reads the list again. */
export function historyChanged(): void {
  for (const listener of archivedListeners) listener();
}

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
  // A further page does not ask the first again: a search's page is a bounded read on the
  // server, and a search asks several pages on its own.
  const swr = useSWRInfinite<ConversationPage, unknown, typeof getKey>(getKey, fetchPage, {
    shouldRetryOnError: false,
    revalidateOnMount: true,
    revalidateFirstPage: false,
    dedupingInterval: 0,
  });
  const { data, size, setSize, mutate, isValidating } = swr;
  useEffect(() => {
    const refresh = () => void mutate();
    archivedListeners.add(refresh);
    return () => {
      archivedListeners.delete(refresh);
    };
  }, [mutate]);
  const pages = data ?? [];
  const last = pages[pages.length - 1];
  const conversations = pages.flatMap((p) => p.conversations);
  // How many the user is to see: a screenful, one more per Load more (afresh for each search).
  const [want, setWant] = useState({ q, count: HISTORY_PAGE_SIZE });
  const wanted = want.q === q ? want.count : HISTORY_PAGE_SIZE;
  const continuing = Boolean(last?.next_cursor) && conversations.length < wanted && swr.error === undefined;
  useEffect(() => {
    if (continuing && !isValidating && size === pages.length) void setSize(size + 1);
  }, [continuing, isValidating, size, pages.length, setSize]);
  return {
    conversations,
    loading: swr.isLoading || (continuing && conversations.length === 0),
    loadingMore: (size > pages.length && pages.length > 0) || (continuing && conversations.length > 0),
    error: swr.error,
    hasMore: Boolean(last?.next_cursor),
    loadMore: () => {
      setWant({ q, count: conversations.length + HISTORY_PAGE_SIZE });
      void setSize(size + 1);
    },
    refresh: () => mutate(),
  };
}
