import { useMemo } from 'react';
import useSWR from 'swr';
import { apiRequest } from '../../../lib/api-client';
import type { Prompt } from '../../../lib/api/types';
import type { PromptListHandle } from '../../../lib/api/use-prompts';
import { isRecord, list, num, str } from '../../../lib/api/wire';
import { useAuth } from '../../../lib/use-auth';

/** GET /api/v1/creators/{username}: a creator's public page, their published prompts as marketplace cards. */
export interface CreatorProfile {
  username: string;
  display_name: string;
  bio: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  prompts: Prompt[];
}

export function creatorProfilePath(username: string): string {
  return `/creators/${encodeURIComponent(username)}`;
}

/** The page's cards as the marketplace's (`category` from the card's id and name; the creator is the page's). */
export function readCreatorProfile(data: unknown): CreatorProfile {
  const o = isRecord(data) ? data : {};
  const username = str(o.username);
  const displayName = str(o.display_name) || username;
  const prompts = list(o.prompts)
    .filter(isRecord)
    .filter((c) => typeof c.id === 'string' || typeof c.id === 'number')
    .map(
      (c): Prompt => ({
        id: c.id as string | number,
        title: str(c.title),
        description: str(c.description),
        description_truncated: c.description_truncated === true,
        preview: str(c.preview),
        preview_truncated: c.preview_truncated === true,
        price: num(c.price),
        rating_avg: num(c.rating_avg),
        rating_count: num(c.rating_count),
        category: str(c.category_id) ? { id: str(c.category_id), name: str(c.category_name) } : null,
        created_at: str(c.created_at),
        creator: username ? { username, display_name: displayName } : null,
        ...(typeof c.content === 'string' ? { content: c.content } : {}),
      }),
    );
  return { username, display_name: displayName, bio: str(o.bio), country: str(o.country), prompts };
}

/** `fresh` with the content `before` had on its cards (a free claim's answer). */
export function keepContent(fresh: CreatorProfile, before: CreatorProfile | undefined): CreatorProfile {
  const contents = new Map((before?.prompts ?? []).filter((p) => typeof p.content === 'string').map((p) => [String(p.id), p.content]));
  if (contents.size === 0) return fresh;
  return { ...fresh, prompts: fresh.prompts.map((p) => (contents.has(String(p.id)) ? { ...p, content: contents.get(String(p.id)) } : p)) };
}

/**
 * The public page of `username` (null: no request), keyed per user: a
 * free claim made from it puts the content into this user's copy. The
 * handle lets the marketplace's commands update its cards.
 */
export function useCreatorProfile(username: string | null) {
  const { user } = useAuth();
  const key = username ? ([creatorProfilePath(username), user?.id ?? 'visitor'] as const) : null;
  const url = username ? creatorProfilePath(username) : null;
  const swr = useSWR<CreatorProfile, unknown>(key, async ([path]: readonly [string, string]) => readCreatorProfile(await apiRequest(path)), {
    shouldRetryOnError: false,
  });
  const { mutate } = swr;
  const handle = useMemo<PromptListHandle>(
    () => ({
      update: (update) => mutate((current) => (current ? { ...current, prompts: update(current.prompts) ?? current.prompts } : current), { revalidate: false }),
      // The page's cards carry no content: what a free claim gave this user stays on them.
      revalidate: () =>
        url === null ? Promise.resolve() : mutate(async (current) => keepContent(readCreatorProfile(await apiRequest(url)), current), { revalidate: false }),
    }),
    [mutate, url],
  );
  return { profile: swr.data, error: swr.error, isLoading: swr.data === undefined && swr.error === undefined && key !== null, handle, retry: () => void mutate() };
}
