// The agents' provider list (src/lib) and the chat's (features/llm-chat)
// are the same catalogue: an agent runs on a model the chat offers.

import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '../features/llm-chat/providers';
import { LLM_PROVIDERS, llmProviderLabel } from '../lib/llm-providers';
import { FAKE_PROVIDERS } from './fake-api';

describe('the provider catalogue', () => {
  it('is the chat’s, provider by provider and model by model', () => {
    expect(LLM_PROVIDERS.map((p) => [p.id, p.label, [...p.models]])).toEqual(PROVIDERS.map((p) => [p.id, p.label, [...p.models]]));
    expect(Object.fromEntries(LLM_PROVIDERS.map((p) => [p.id, [...p.models]]))).toEqual(FAKE_PROVIDERS);
  });

  it('names a provider, and an unknown id as it is', () => {
    expect(llmProviderLabel('anthropic')).toBe('Anthropic Claude');
    expect(llmProviderLabel('acme')).toBe('acme');
  });
});
