// SPEC §3 "Providers (fixed)": the four chat providers and their models.

export type ProviderId = 'openai' | 'meta' | 'anthropic' | 'google';

export interface ChatProvider {
  id: ProviderId;
  /** Shown in the picker and the placeholder; its first word identifies the provider's server names. */
  label: string;
  models: readonly string[];
}

export const PROVIDERS: readonly ChatProvider[] = [
  { id: 'openai', label: 'OpenAI GPT', models: ['gpt-4o-mini', 'gpt-4o', 'gpt-4-turbo', 'gpt-3.5-turbo'] },
  { id: 'meta', label: 'Meta Llama', models: ['llama-3.1-8b-instruct', 'llama-3.1-70b-instruct', 'llama-3.2-1b-instruct'] },
  { id: 'anthropic', label: 'Anthropic Claude', models: ['claude-3-5-sonnet', 'claude-3-opus'] },
  { id: 'google', label: 'Google Gemini', models: ['gemini-1.5-pro', 'gemini-1.5-flash'] },
];

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
