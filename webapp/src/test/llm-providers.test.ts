// The provider list (src/lib), which the chat and the agent form share,
// is the one the fake API's connects offer.

import { describe, expect, it } from 'vitest';
import { LLM_PROVIDERS, llmProviderLabel } from '../lib/llm-providers';
import { FAKE_PROVIDERS } from './fake-api';

describe('the provider catalogue', () => {
  it('is the fake API’s, provider by provider and model by model', () => {
    expect(Object.fromEntries(LLM_PROVIDERS.map((p) => [p.id, [...p.models]]))).toEqual(FAKE_PROVIDERS);
  });

  it('names a provider, and an unknown id as it is', () => {
    expect(llmProviderLabel('anthropic')).toBe('Anthropic Claude');
    expect(llmProviderLabel('acme')).toBe('acme');
  });
});
