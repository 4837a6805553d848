import { apiRequest } from '../../../lib/api-client';

/** SPEC §3 "Payment session verification result". */
export interface VerifiedPayment {
  prompt_title: string;
  amount: number;
  session_id: string;
  status: string;
  /** What was bought: a prompt (also when absent) or an agent, whose id is agent_id. */
  kind?: 'prompt' | 'agent';
  agent_id?: string;
}

export function verifySession(sessionId: string, signal?: AbortSignal): Promise<VerifiedPayment> {
  return apiRequest<VerifiedPayment>(`/payments/verify-session/${encodeURIComponent(sessionId)}`, { signal });
}
