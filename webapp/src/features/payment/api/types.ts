/** GET /api/v1/payments/owned-prompts: the caller's purchased prompts. */
export interface OwnedPromptsResponse {
  owned_prompt_ids: (string | number)[];
}

/** POST /api/v1/payments/create-checkout-session. */
export interface CheckoutSessionResponse {
  checkout_url: string;
  session_id?: string;
}
