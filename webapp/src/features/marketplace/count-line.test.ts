import { describe, expect, it } from 'vitest';
import { countLine } from './count-line';

describe('countLine', () => {
  it.each([
    [0, true, '0 prompts found'],
    [24, true, '24 prompts found'],
    [100000, true, '100,000 prompts found'],
    [24, false, '24+ prompts found'],
    [1000, false, '1,000+ prompts found'],
  ])('%d (exact %s) → %s', (count, exact, want) => {
    expect(countLine(count, exact)).toBe(want);
  });
});
