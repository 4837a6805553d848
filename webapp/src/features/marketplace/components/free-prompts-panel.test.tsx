import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FreeUsageStatus } from '../api/types';
import { FreePromptsPanel } from './free-prompts-panel';

const SHARED = 'Free uses are shared by all accounts on the same email address.';

function status(over: Partial<FreeUsageStatus>): FreeUsageStatus {
  return { remaining: 5, total_allowed: 5, used: 0, prompt_ids: [], ...over };
}

describe('FreePromptsPanel', () => {
  it.each([
    {
      name: 'own uses left',
      given: status({ remaining: 3, used: 2, prompt_ids: ['a', 'b'] }),
      count: '3 of 5 remaining',
      hint: 'Use a free prompt to unlock its full text without paying.',
      shared: false,
    },
    {
      name: 'own uses spent',
      given: status({ remaining: 0, used: 5, prompt_ids: ['a', 'b', 'c', 'd', 'e'], shared_with_other_accounts: false }),
      count: '0 of 5 remaining',
      hint: 'You have used all your free prompts. Purchase a prompt to unlock it.',
      shared: false,
    },
    {
      name: 'another account on the address spent some',
      given: status({ remaining: 2, used: 3, prompt_ids: ['a'], shared_with_other_accounts: true }),
      count: '2 of 5 remaining',
      hint: 'Use a free prompt to unlock its full text without paying.',
      shared: true,
    },
    {
      name: 'another account on the address spent them all',
      given: status({ remaining: 0, used: 5, prompt_ids: [], shared_with_other_accounts: true }),
      count: '0 of 5 remaining',
      hint: 'All free prompts of your email address are used. Purchase a prompt to unlock it.',
      shared: true,
    },
  ])('$name', ({ given, count, hint, shared }) => {
    render(<FreePromptsPanel status={given} />);
    const panel = screen.getByTestId('free-panel');
    expect(panel).toHaveTextContent(count);
    expect(screen.getByText(hint)).toBeInTheDocument();
    expect(screen.queryByText(SHARED) !== null).toBe(shared);
  });
});
