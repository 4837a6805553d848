import { describe, expect, it } from 'vitest';
import { formatCost, formatTokens, formatUsage, messageUsage, restoreUsage, totalUsage } from './usage';

describe('usage formatting', () => {
  it('writes tokens with thousands separators', () => {
    expect(formatTokens(0)).toBe('0');
    expect(formatTokens(412)).toBe('412');
    expect(formatTokens(1093)).toBe('1,093');
    expect(formatTokens(1234567)).toBe('1,234,567');
    expect(formatTokens(-3)).toBe('0');
    expect(formatTokens(Number.NaN)).toBe('0');
  });

  it('writes the cost in dollars with 4 decimals', () => {
    expect(formatCost(0.0021)).toBe('$0.0021');
    expect(formatCost(0.00213)).toBe('$0.0021');
    expect(formatCost(1.5)).toBe('$1.5000');
    expect(formatCost(0)).toBe('$0.0000');
    expect(formatCost(Number.POSITIVE_INFINITY)).toBe('$0.0000');
  });

  it('reads "in → out tokens · cost", and "demo" for the local demo model', () => {
    expect(formatUsage({ input_tokens: 412, output_tokens: 1093, cost_usd: 0.0021 })).toBe('412 → 1,093 tokens · $0.0021');
    expect(formatUsage({ input_tokens: 12, output_tokens: 130, cost_usd: 0, demo: true })).toBe('12 → 130 tokens · demo');
  });
});

describe('messageUsage', () => {
  it('keeps the frame numbers, rounded and never negative', () => {
    expect(messageUsage({ input_tokens: 412.4, output_tokens: 1093, cost_usd: 0.0021 }, false)).toEqual({ input_tokens: 412, output_tokens: 1093, cost_usd: 0.0021 });
    expect(messageUsage({ input_tokens: -1, output_tokens: 2, cost_usd: -0.1 }, false)).toEqual({ input_tokens: 0, output_tokens: 2, cost_usd: 0 });
  });

  it('marks the demo model and drops any cost it reports', () => {
    expect(messageUsage({ input_tokens: 10, output_tokens: 20, cost_usd: 0.3 }, true)).toEqual({ input_tokens: 10, output_tokens: 20, cost_usd: 0, demo: true });
  });
});

describe('restoreUsage', () => {
  it.each([
    [undefined, undefined],
    [null, undefined],
    ['412', undefined],
    [[1, 2], undefined],
    [{}, undefined],
    [{ input_tokens: '4' }, undefined],
    [{ input_tokens: 4 }, { input_tokens: 4, output_tokens: 0, cost_usd: 0 }],
    [{ input_tokens: 4, output_tokens: 5, cost_usd: 0.01, demo: 'yes' }, { input_tokens: 4, output_tokens: 5, cost_usd: 0.01 }],
    [{ input_tokens: 4, output_tokens: 5, cost_usd: 0.01, demo: true }, { input_tokens: 4, output_tokens: 5, cost_usd: 0, demo: true }],
  ])('%j → %j', (raw, want) => expect(restoreUsage(raw)).toEqual(want));
});

describe('totalUsage', () => {
  it('is null before anything is counted', () => {
    expect(totalUsage([])).toBeNull();
    expect(totalUsage([{}, {}])).toBeNull();
  });

  it('adds every reply and every summary of the tab', () => {
    const total = totalUsage([
      {},
      { usage: { input_tokens: 412, output_tokens: 1093, cost_usd: 0.0021 } },
      { summaryUsage: { input_tokens: 600, output_tokens: 40, cost_usd: 0.0003 } },
      { usage: { input_tokens: 1500, output_tokens: 7, cost_usd: 0.001 } },
    ]);
    expect(total).toMatchObject({ input_tokens: 2512, output_tokens: 1140 });
    expect(total?.cost_usd).toBeCloseTo(0.0034, 10);
    expect(total?.demo).toBeUndefined();
    expect(formatUsage(total!)).toBe('2,512 → 1,140 tokens · $0.0034');
  });

  it('is demo only when every call was the demo model; mixed shows the real cost', () => {
    const demo = { input_tokens: 10, output_tokens: 20, cost_usd: 0, demo: true };
    expect(formatUsage(totalUsage([{ usage: demo }, { usage: demo }])!)).toBe('20 → 40 tokens · demo');
    expect(formatUsage(totalUsage([{ usage: demo }, { usage: { input_tokens: 1, output_tokens: 2, cost_usd: 0.5 } }])!)).toBe('11 → 22 tokens · $0.5000');
  });
});
