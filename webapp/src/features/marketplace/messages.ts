// User-facing texts of the marketplace (SPEC §2, §5, §8), in one place.

export const MESSAGES = {
  loginToRate: 'Please log in to rate prompts',
  rateBuyersOnly: 'You can only rate prompts you have purchased',
  ratingSubmitted: 'Rating submitted successfully!',
  ratingFailed: 'Failed to submit rating',
  loginToUse: 'Please log in to use prompts',
  loginToPurchase: 'Please log in to purchase prompts',
  freeUseSucceeded: 'Prompt accessed successfully for free!',
  freeUseFailed: 'Failed to access prompt',
  sessionExpired: 'Your session has expired. Please log in again.',
  usingForFree: 'Using prompt for free...',
  paymentFailed: 'Failed to create payment',
  copied: 'Prompt copied to clipboard!',
  copyFailed: 'Failed to copy to clipboard',
  contentUnavailable: 'The full prompt is not available yet. Please try again.',
  noPrompts: 'No prompts found',
  noPromptsHint: 'Try adjusting your search criteria or browse all categories.',
  /** Only when a free use refused for an unconfirmed email came without the server's detail. */
  confirmFirst: 'Please confirm your email address to use free prompts.',
} as const;

/** SPEC §8: after a 401 on a free use, go to /login after 2 s. */
export const SESSION_EXPIRED_REDIRECT_MS = 2000;
