// SPEC §3 "Providers (fixed)": the four chat providers and their models
// (the list is src/lib's, shared with the creator studio's agent form).

import { LLM_PROVIDERS, type LlmProvider, type ProviderId } from '../../lib/llm-providers';

export type { ProviderId };

/** A provider; its label's first word identifies the provider's server names. */
export type ChatProvider = LlmProvider;

export const PROVIDERS: readonly ChatProvider[] = LLM_PROVIDERS;

export const DEFAULT_PROVIDER: ProviderId = 'openai';

export function isProviderId(value: unknown): value is ProviderId {
  return typeof value === 'string' && PROVIDERS.some((p) => p.id === value);
}

export function getProvider(id: ProviderId): ChatProvider {
  return PROVIDERS.find((p) => p.id === id) ?? PROVIDERS[0];
}

export function providerLabel(id: ProviderId): string {
  return getProvider(id).label;
}

export function firstModel(id: ProviderId): string {
  return getProvider(id).models[0];
}

/** SPEC §4: a model the provider does not offer becomes the provider's first model. */
export function modelFor(id: ProviderId, model: string | null | undefined): string {
  const provider = getProvider(id);
  return model && provider.models.includes(model) ? model : provider.models[0];
}

/** The first word of the provider's label ('OpenAI' for 'OpenAI GPT'). */
export function firstLabelWord(id: ProviderId): string {
  return getProvider(id).label.split(/\s+/)[0];
}
