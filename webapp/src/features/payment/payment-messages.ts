// SPEC §2 payment/success and §8 payment texts, in one place.
export const PAYMENT_MESSAGES = {
  noSession: 'No session ID provided',
  failedTitle: 'Payment Verification Failed',
  failedFallback: 'Failed to verify payment',
  failedToast: 'Payment verification failed',
  successToast: 'Payment successful! Prompt is now available in your dashboard.',
  duplicateTitle: 'Duplicate payment refunded',
  duplicateToast: 'You already had this prompt, so this payment was refunded.',
  agentDuplicateToast: 'You already had this agent, so this payment was refunded.',
  agentSuccessToast: 'Payment successful! The agent is yours: start a chat with it.',
  agentReady: 'Your agent is ready: start a chat with it.',
} as const;

/** verify-session's status for a second payment of a prompt the buyer already had. */
export const DUPLICATE_REFUNDED = 'duplicate_refunded';

/** The text under the title of a refunded duplicate: what happened, and that the prompt stays. */
export function duplicateDetail(promptTitle: string, amount: number, agent = false): string {
  const what = agent ? 'agent' : 'prompt';
  return `You already had "${promptTitle}", so this second payment of ${formatAmount(amount)} was refunded to your card. The ${what} is still yours.`;
}

export type VerificationState =
  | { kind: 'loading' }
  | { kind: 'verified'; promptTitle: string; amount: number; sessionId: string; status: string; agentId?: string }
  | { kind: 'failed'; detail: string };

/** The page's first state, from the query: no session id fails at once. */
export function initialState(sessionId: string | null): VerificationState {
  return sessionId && sessionId.trim() ? { kind: 'loading' } : { kind: 'failed', detail: PAYMENT_MESSAGES.noSession };
}

/** USD with two decimals, as prices are shown everywhere (SPEC §9). */
export function formatAmount(amount: number): string {
  return `$${(Number.isFinite(amount) ? amount : 0).toFixed(2)}`;
}
