// The marketplace's commands: Use Free, Purchase, Rate, Copy, Use in Chat
// (SPEC §2/§4/§8). Each updates the SWR caches it changed.

import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useSWRConfig } from 'swr';
import { COPY_TOAST_MS, toast } from '../../components/notifications/notification-store';
import { RESEND_LABEL, resendVerificationEmail } from '../../components/resend-email-button';
import { isEmailUnverified } from '../../lib/account-api';
import { ApiError, errorMessage } from '../../lib/api-client';
import { trackFreePromptUse } from '../../lib/analytics';
import type { Prompt } from '../../lib/api/types';
import { activitiesKey } from '../../lib/api/use-activities';
import { isPromptListKey, patchPromptInList, replacePromptInList, type PromptListHandle } from '../../lib/api/use-prompts';
import { browserLocation } from '../../lib/browser-location';
import { writeChatHandoff } from '../../lib/chat-handoff';
import { useAuth } from '../../lib/use-auth';
import { isFreeUseAvailable, isSafeCheckoutUrl, requestCheckoutSession } from './api/create-checkout-session';
import { requestFreeUse, requestRating } from './api/prompt-requests';
import { freeStatusKey } from './api/use-free-usage-status';
import { MESSAGES, SESSION_EXPIRED_REDIRECT_MS } from './messages';
import { ratingBlockedReason } from './prompt-access';
import { isValidRating, recomputeRating, type RatingSummary } from '../../lib/rating';

export type PendingAction = { promptId: string; kind: 'use-free' | 'purchase' | 'rate' } | null;

function ratingOf(p: Prompt): RatingSummary {
  return {
    rating_avg: typeof p.rating_avg === 'number' ? p.rating_avg : 0,
    rating_count: typeof p.rating_count === 'number' ? p.rating_count : 0,
    user_rating: typeof p.user_rating === 'number' ? p.user_rating : null,
  };
}

/**
 * The commands, updating what they change: the caller's own list (`list`:
 * the marketplace's pages) and every cached one-page list.
 */
export function usePromptActions(list?: PromptListHandle) {
  const { status, user } = useAuth();
  const signedIn = status === 'authenticated' && user !== null;
  const userId = user?.id ?? null;
  const { mutate } = useSWRConfig();
  const navigate = useNavigate();
  const location = useLocation();
  const [pending, setPending] = useState<PendingAction>(null);
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      if (redirectTimer.current !== undefined) clearTimeout(redirectTimer.current);
    };
  }, []);

  const settle = useCallback(() => {
    if (mounted.current) setPending(null);
  }, []);

  const updateLists = useCallback(
    (update: (prompts: Prompt[] | undefined) => Prompt[] | undefined) =>
      Promise.all([mutate<Prompt[]>(isPromptListKey, update, { revalidate: false }), list?.update(update)]),
    [mutate, list],
  );
  const revalidateLists = useCallback(() => {
    void mutate(isPromptListKey);
    void list?.revalidate();
  }, [mutate, list]);

  const here = location.pathname + location.search;

  /**
   * SPEC §8 free use: success shows the content at once; 401 sends the user
   * to /login after 2 s; 403 email_unverified offers "Resend email".
   */
  const claimFree = useCallback(
    async (prompt: Prompt): Promise<boolean> => {
      if (!signedIn || userId === null) {
        toast.error(MESSAGES.loginToUse);
        return false;
      }
      const id = String(prompt.id);
      setPending({ promptId: id, kind: 'use-free' });
      try {
        const res = await requestFreeUse(id);
        // Show the content at once from the answer, then revalidate what changed.
        if (res?.prompt) await updateLists((list) => replacePromptInList(list, { ...res.prompt, id: res.prompt.id ?? prompt.id }));
        if (res?.status) await mutate(freeStatusKey(userId), res.status, { revalidate: false });
        toast.success(MESSAGES.freeUseSucceeded);
        trackFreePromptUse({ promptId: id, promptTitle: prompt.title });
        revalidateLists();
        void mutate(freeStatusKey(userId));
        void mutate(activitiesKey(userId));
        return true;
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) {
          // Shown on /login too: it says why the user is there.
          toast.error(MESSAGES.sessionExpired, { keepOnNavigate: true });
          const target = `/login?redirect=${encodeURIComponent(here)}`;
          if (redirectTimer.current !== undefined) clearTimeout(redirectTimer.current);
          redirectTimer.current = setTimeout(() => navigate(target), SESSION_EXPIRED_REDIRECT_MS);
        } else if (isEmailUnverified(err)) {
          // The address is not confirmed yet: the server's words, and a way to get a new link.
          toast.error(errorMessage(err, MESSAGES.confirmFirst), {
            action: { label: RESEND_LABEL, onClick: () => void resendVerificationEmail() },
          });
        } else {
          toast.error(errorMessage(err, MESSAGES.freeUseFailed));
        }
        return false;
      } finally {
        settle();
      }
    },
    [signedIn, userId, updateLists, revalidateLists, mutate, navigate, here, settle],
  );

  /**
   * SPEC §8 purchase: while the caller knows free uses remain (freeRemaining
   * above 0) it is the free use, called directly, as the button says;
   * otherwise checkout, or the free use when the server says so.
   */
  const purchase = useCallback(
    async (prompt: Prompt, freeRemaining: number | null = null): Promise<void> => {
      if (!signedIn) {
        toast.error(MESSAGES.loginToPurchase);
        return;
      }
      if (freeRemaining !== null && freeRemaining > 0) {
        await claimFree(prompt);
        return;
      }
      const id = String(prompt.id);
      setPending({ promptId: id, kind: 'purchase' });
      let leaving = false;
      try {
        const res = await requestCheckoutSession(id);
        if (!isSafeCheckoutUrl(res?.checkout_url)) {
          toast.error(MESSAGES.paymentFailed);
          return;
        }
        leaving = true;
        browserLocation.assign(res.checkout_url);
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) {
          toast.error(MESSAGES.sessionExpired);
        } else if (isFreeUseAvailable(err)) {
          toast.info(MESSAGES.usingForFree);
          settle();
          await claimFree(prompt);
        } else {
          toast.error(errorMessage(err, MESSAGES.paymentFailed));
        }
      } finally {
        // The button stays busy while the browser leaves for the checkout page.
        if (!leaving) settle();
      }
    },
    [signedIn, settle, claimFree],
  );

  /** SPEC §4/§5 rating: local recompute, then the server's answer (or a rollback). */
  const rate = useCallback(
    async (prompt: Prompt, rating: number, access: { purchased: boolean }): Promise<void> => {
      const blocked = ratingBlockedReason({ signedIn, purchased: access.purchased });
      if (blocked) {
        toast.error(blocked);
        return;
      }
      if (!isValidRating(rating)) return;
      const id = String(prompt.id);
      const before = ratingOf(prompt);
      setPending({ promptId: id, kind: 'rate' });
      await updateLists((list) => patchPromptInList(list, id, recomputeRating(before, rating)));
      try {
        const res = await requestRating(id, rating);
        const fromServer: Partial<RatingSummary> = {};
        if (typeof res?.rating_avg === 'number') fromServer.rating_avg = res.rating_avg;
        if (typeof res?.rating_count === 'number') fromServer.rating_count = res.rating_count;
        fromServer.user_rating = typeof res?.user_rating === 'number' ? res.user_rating : rating;
        await updateLists((list) => patchPromptInList(list, id, fromServer));
        toast.success(MESSAGES.ratingSubmitted);
      } catch (err) {
        await updateLists((list) => patchPromptInList(list, id, before));
        toast.error(errorMessage(err, MESSAGES.ratingFailed));
      } finally {
        settle();
      }
    },
    [signedIn, updateLists, settle],
  );

  const copy = useCallback(async (text: string): Promise<void> => {
    try {
      if (!navigator.clipboard?.writeText) throw new Error('Clipboard unavailable');
      await navigator.clipboard.writeText(text);
      toast.success(MESSAGES.copied, { duration: COPY_TOAST_MS });
    } catch {
      toast.error(MESSAGES.copyFailed, { duration: COPY_TOAST_MS });
    }
  }, []);

  /** Hand the full prompt to the chat page (SPEC §4) and go there. */
  const openInChat = useCallback(
    (prompt: Prompt): void => {
      if (typeof prompt.content !== 'string' || !prompt.content) {
        toast.error(MESSAGES.contentUnavailable);
        revalidateLists();
        return;
      }
      writeChatHandoff(prompt.content);
      navigate('/llm-chat');
    },
    [revalidateLists, navigate],
  );

  return { pending, claimFree, purchase, rate, copy, openInChat };
}
