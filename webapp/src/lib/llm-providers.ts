// The chat's providers and their models, in the catalogue's order
// (shared/llm/catalog.go, SPEC §3 "Providers (fixed)"): the one list the
// chat (features/llm-chat/providers.ts adds its helpers) and the creator
// studio's agent form (what an agent may run on) both read.

export type ProviderId = 'openai' | 'meta' | 'anthropic' | 'google';

export interface LlmProvider {
  id: ProviderId;
  /** The provider as users read it ('OpenAI GPT'). */
  label: string;
  models: readonly string[];
}

export const LLM_PROVIDERS: readonly LlmProvider[] = [
  { id: 'openai', label: 'OpenAI GPT', models: ['gpt-4o-mini', 'gpt-4o', 'gpt-4-turbo', 'gpt-3.5-turbo'] },
  { id: 'meta', label: 'Meta Llama', models: ['llama-3.1-8b-instruct', 'llama-3.1-70b-instruct', 'llama-3.2-1b-instruct'] },
  { id: 'anthropic', label: 'Anthropic Claude', models: ['claude-3-5-sonnet', 'claude-3-opus'] },
  { id: 'google', label: 'Google Gemini', models: ['gemini-1.5-pro', 'gemini-1.5-flash'] },
];

export function llmProvider(id: string): LlmProvider | undefined {
  return LLM_PROVIDERS.find((p) => p.id === id);
}

/** 'OpenAI GPT' for 'openai'; an id the list does not know as it is. */
export function llmProviderLabel(id: string): string {
  return llmProvider(id)?.label ?? id;
}
