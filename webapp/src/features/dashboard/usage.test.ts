import { describe, expect, it } from 'vitest';
import { chatLimits as limits, modelUsage as model } from '../../test/usage-fixtures';
import { allowance, formatCost, formatTokens, modelBars, modelFigures, modelLabel, monthLabel, normaliseUsage, rateLimitsText, totalsFigures } from './usage';

describe('normaliseUsage', () => {
  it('reads the answer of GET /users/usage', () => {
    const raw = {
      today: { date: '2026-11-22', input_tokens: 412, output_tokens: 1093, cost_usd: 0.0021, requests: 3, by_model: [model()] },
      month: { month: '2026-11', input_tokens: 500, output_tokens: 1200, cost_usd: 0.003, requests: 4, by_model: [model(), model({ provider: 'anthropic', model: 'claude-3-5-sonnet', demo: true, cost_usd: 0 })] },
      limits: limits({ tokens_used_today: 1505 }),
    };
    const u = normaliseUsage(raw)!;
    expect(u.today).toMatchObject({ date: '2026-11-22', input_tokens: 412, requests: 3 });
    expect(u.today.by_model).toEqual([model()]);
    expect(u.month.month).toBe('2026-11');
    expect(u.month.by_model[1]).toMatchObject({ demo: true, cost_usd: 0 });
    expect(u.limits).toEqual(limits({ tokens_used_today: 1505 }));
  });

  it('cleans what does not fit: negative or missing numbers are 0, models without a name are dropped, demo costs nothing', () => {
    const u = normaliseUsage({
      today: { by_model: [{ provider: 'openai' }, { model: 'x', input_tokens: -5, output_tokens: 'many', cost_usd: NaN, requests: 2.6 }, { model: 'y', demo: true, cost_usd: 4 }] },
      month: {},
      limits: { daily_token_budget: '200000' },
    })!;
    expect(u.today.by_model).toEqual([
      { provider: '', model: 'x', demo: false, input_tokens: 0, output_tokens: 0, cost_usd: 0, requests: 3 },
      { provider: '', model: 'y', demo: true, input_tokens: 0, output_tokens: 0, cost_usd: 0, requests: 0 },
    ]);
    // Totals of requests default to the models' sum; the used tokens to today's.
    expect(u.today.requests).toBe(3);
    expect(u.month).toEqual({ month: '', input_tokens: 0, output_tokens: 0, cost_usd: 0, requests: 0, by_model: [] });
    expect(u.limits).toEqual({ daily_token_budget: 0, tokens_used_today: 0, resets_at: '', max_concurrent_streams: 0, requests_per_minute: 0 });
  });

  it('refuses what is not a usage answer', () => {
    for (const raw of [null, [], 'x', {}, { today: {}, month: {} }, { today: [], month: {}, limits: {} }]) expect(normaliseUsage(raw)).toBeNull();
  });
});

describe('texts', () => {
  it('formats tokens and cost like the chat does', () => {
    expect(formatTokens(1093)).toBe('1,093');
    expect(formatTokens(-3)).toBe('0');
    expect(formatCost(0.00213)).toBe('$0.0021');
    expect(formatCost(12.5)).toBe('$12.5000');
  });

  it('names models with their provider', () => {
    expect(modelLabel(model())).toBe('OpenAI · gpt-4o-mini');
    expect(modelLabel({ provider: 'meta', model: 'llama-3.1-8b-instruct' })).toBe('Meta · llama-3.1-8b-instruct');
    expect(modelLabel({ provider: 'other', model: 'm' })).toBe('other · m');
    expect(modelLabel({ provider: '', model: 'm' })).toBe('m');
  });

  it('gives each model and period its numbers in words, demo instead of a price', () => {
    expect(modelFigures(model())).toBe('412 in → 1,093 out tokens · $0.0021 · 3 requests');
    expect(modelFigures(model({ demo: true, requests: 1 }))).toBe('412 in → 1,093 out tokens · demo · 1 request');
    const t = { input_tokens: 412, output_tokens: 1093, cost_usd: 0.0021, requests: 3, by_model: [model()] };
    expect(totalsFigures(t)).toBe('1,505 tokens · $0.0021 · 3 requests');
    expect(totalsFigures({ ...t, by_model: [model({ demo: true })] })).toBe('1,505 tokens · demo · 3 requests');
    expect(totalsFigures({ ...t, by_model: [model({ demo: true }), model()] })).toBe('1,505 tokens · $0.0021 · 3 requests');
  });

  it('names the month', () => {
    expect(monthLabel('2026-11')).toBe('November 2026');
    expect(monthLabel('2026-01')).toBe('January 2026');
    expect(monthLabel('soon')).toBe('soon');
  });

  it('states the rate limits, leaving out those switched off', () => {
    expect(rateLimitsText(limits())).toBe('Up to 3 replies at once · 20 messages a minute');
    expect(rateLimitsText(limits({ max_concurrent_streams: 1, requests_per_minute: 0 }))).toBe('Up to 1 reply at once');
    expect(rateLimitsText(limits({ max_concurrent_streams: 0, requests_per_minute: 0 }))).toBe('');
  });
});

describe('modelBars', () => {
  it('scales every model to the busiest of the period, input and output apart', () => {
    const bars = modelBars([model({ input_tokens: 300, output_tokens: 700 }), model({ model: 'gpt-4o', input_tokens: 100, output_tokens: 150 })]);
    expect(bars.map((b) => [b.inputPercent, b.outputPercent])).toEqual([
      [30, 70],
      [10, 15],
    ]);
  });
  it('draws nothing for a period without tokens', () => {
    expect(modelBars([model({ input_tokens: 0, output_tokens: 0 })]).map((b) => [b.inputPercent, b.outputPercent])).toEqual([[0, 0]]);
    expect(modelBars([])).toEqual([]);
  });
});

describe('allowance', () => {
  it('used of budget, with what is left and when it resets', () => {
    expect(allowance(limits({ tokens_used_today: 50_000 }))).toEqual({
      limited: true,
      used: 50_000,
      budget: 200_000,
      percent: 25,
      remaining: 150_000,
      exhausted: false,
      resets: 'Resets at 00:00 UTC',
      summary: '50,000 of 200,000 tokens used today (25%) · 150,000 left',
    });
  });
  it('used up: the bar is full, never beyond', () => {
    const a = allowance(limits({ tokens_used_today: 200_512 }));
    expect(a).toMatchObject({ percent: 100, remaining: 0, exhausted: true });
    expect(a.summary).toBe("200,512 of 200,000 tokens used today: today's allowance is used up");
  });
  it('a budget of 0 is no limit', () => {
    expect(allowance(limits({ daily_token_budget: 0, tokens_used_today: 1234 }))).toMatchObject({
      limited: false,
      exhausted: false,
      summary: '1,234 tokens used today · no daily limit',
    });
  });
  it('reads the reset time in UTC, 00:00 when unreadable', () => {
    expect(allowance(limits({ resets_at: '2026-11-23T06:30:00Z' })).resets).toBe('Resets at 06:30 UTC');
    expect(allowance(limits({ resets_at: '' })).resets).toBe('Resets at 00:00 UTC');
  });
});
