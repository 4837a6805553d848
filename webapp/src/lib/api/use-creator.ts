// The caller's creator profile and sales (docs/creators.md), read by the
// creator studio (features/creators) and the dashboard's "Sell your prompts"
// section, which may not import each other: the requests, their types and
// the payout status in words live here, once.

import useSWR from 'swr';
import { ApiError, apiRequest } from '../api-client';
import { useUserKey, type UserKey } from '../use-user-key';

export const CREATOR_PATH = '/creators/me';
export const CREATOR_DASHBOARD_PATH = '/creators/me/dashboard';

export type PayoutStatus = 'none' | 'details_needed' | 'pending' | 'enabled';

export interface CreatorPayouts {
  status: PayoutStatus;
  charges_enabled: boolean;
  payouts_enabled: boolean;
}

/** GET/PUT /creators/me. */
export interface CreatorProfile {
  username: string;
  display_name: string;
  bio: string;
  country: string;
  suspended: boolean;
  payouts: CreatorPayouts;
}

export interface CreatorSalesRow {
  id: string;
  title: string;
  sales: number;
  net: number;
  free_uses: number;
  rating_avg: number;
}

export interface CreatorAgentSalesRow {
  id: string;
  name: string;
  sales: number;
  net: number;
}

/** Stripe's balance of the creator's connected account. */
export interface CreatorBalance {
  currency: string;
  available: number;
  pending: number;
}

/** GET /creators/me/dashboard: amounts in USD with two decimals. */
export interface CreatorDashboard {
  sales: number;
  gross: number;
  fees: number;
  net: number;
  refunds: number;
  prompts: CreatorSalesRow[];
  /** Per agent (the totals count prompts and agents together); absent from an older API. */
  agents?: CreatorAgentSalesRow[];
  balance?: CreatorBalance;
  balance_unavailable?: boolean;
  login_url?: string;
  /** The platform's share of each sale, in percent, when the API says. */
  fee_percent?: number;
}

const PAYOUT_WORDS: Record<PayoutStatus, string> = {
  none: 'Not set up',
  details_needed: 'Details needed',
  pending: 'Pending',
  enabled: 'Enabled',
};

/** The payout status as the creator reads it. */
export function payoutStatusText(status: string | undefined): string {
  return PAYOUT_WORDS[status as PayoutStatus] ?? PAYOUT_WORDS.none;
}

/** A 404 from these routes means "not a creator yet": null, not an error. */
async function readOrNull<T>([path]: UserKey): Promise<T | null> {
  try {
    return await apiRequest<T>(path);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/**
 * The signed-in user's creator profile: `profile` null when they are not a
 * creator (404), undefined while it loads or when it failed (`error`).
 */
export function useCreatorProfile() {
  const swr = useSWR<CreatorProfile | null>(useUserKey(CREATOR_PATH), readOrNull<CreatorProfile>, { shouldRetryOnError: false });
  return { ...swr, profile: swr.data };
}

/** The creator's sales ledger; only read when `enabled` (a creator). */
export function useCreatorDashboard(enabled: boolean) {
  const key = useUserKey(CREATOR_DASHBOARD_PATH);
  const swr = useSWR<CreatorDashboard | null>(enabled ? key : null, readOrNull<CreatorDashboard>, { shouldRetryOnError: false });
  return { ...swr, dashboard: swr.data };
}

