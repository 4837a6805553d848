// SPEC §7/§8: when GET /users/activities fails, the dashboard builds local
// activities: one purchase per owned prompt, plus account-created and login.

import type { Activity } from '../../lib/api/types';
import type { Prompt } from '../../lib/api/types';

export const FALLBACK_PURCHASE_PRICE = 12.99;

export interface FallbackInput {
  ownedPromptIds: readonly string[];
  prompts: readonly Prompt[];
  /** When this session signed in (epoch ms). */
  signedInAt: number;
}

export function buildFallbackActivities({ ownedPromptIds, prompts, signedInAt }: FallbackInput): Activity[] {
  const at = new Date(signedInAt).toISOString();
  const byId = new Map(prompts.map((p) => [String(p.id), p]));
  const purchases: Activity[] = ownedPromptIds.map((id) => {
    const prompt = byId.get(String(id));
    const title = prompt?.title;
    const price = typeof prompt?.price === 'number' && Number.isFinite(prompt.price) ? prompt.price : FALLBACK_PURCHASE_PRICE;
    return {
      id: `local-purchase-${id}`,
      type: 'purchase',
      title: 'Prompt purchased',
      description: title ? `You purchased "${title}"` : 'You purchased a prompt',
      created_at: at,
      amount: price,
      prompt_title: title ?? null,
    };
  });
  return [
    {
      id: 'local-login',
      type: 'login',
      title: 'Signed in',
      description: 'You signed in to your account',
      created_at: at,
    },
    ...purchases,
    {
      id: 'local-account-created',
      type: 'account_created',
      title: 'Account created',
      description: 'Welcome to the platform!',
      created_at: at,
    },
  ];
}
