// The dashboard's "Chat usage" card, as pure functions: reading the
// GET /api/v1/users/usage answer defensively, today's allowance, the
// per-model bar widths and the texts that carry every number (the bars are
// decoration; the text is what a screen reader, or a colour-blind reader,
// gets). Formats match the chat's own ("412 → 1,093 tokens · $0.0021").

import { isRecord } from '../../lib/api/wire';
import type { ChatLimits, ChatUsage, ModelUsage, UsageTotals } from './api/types';

/** A whole, non-negative count; anything else is 0. */
function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.round(v) : 0;
}

/** A non-negative amount; anything else is 0. */
function amount(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

function readModel(raw: unknown): ModelUsage | null {
  if (!isRecord(raw) || !text(raw.model)) return null;
  return {
    provider: text(raw.provider),
    model: text(raw.model),
    demo: raw.demo === true,
    input_tokens: count(raw.input_tokens),
    output_tokens: count(raw.output_tokens),
    cost_usd: raw.demo === true ? 0 : amount(raw.cost_usd),
    requests: count(raw.requests),
  };
}

function readTotals(raw: unknown): UsageTotals {
  const r = isRecord(raw) ? raw : {};
  const byModel = Array.isArray(r.by_model) ? r.by_model.map(readModel).filter((m): m is ModelUsage => m !== null) : [];
  return {
    input_tokens: count(r.input_tokens),
    output_tokens: count(r.output_tokens),
    cost_usd: amount(r.cost_usd),
    // Older answers had no total of requests: the models' sum is the same.
    requests: typeof r.requests === 'number' ? count(r.requests) : byModel.reduce((n, m) => n + m.requests, 0),
    by_model: byModel,
  };
}

/** The answer as the card uses it, or null when it is not a usage answer at all. */
export function normaliseUsage(raw: unknown): ChatUsage | null {
  if (!isRecord(raw) || !isRecord(raw.today) || !isRecord(raw.month) || !isRecord(raw.limits)) return null;
  const l = raw.limits;
  const today = readTotals(raw.today);
  return {
    today: { ...today, date: text(raw.today.date) },
    month: { ...readTotals(raw.month), month: text(raw.month.month) },
    limits: {
      daily_token_budget: count(l.daily_token_budget),
      tokens_used_today: typeof l.tokens_used_today === 'number' ? count(l.tokens_used_today) : today.input_tokens + today.output_tokens,
      resets_at: text(l.resets_at),
      max_concurrent_streams: count(l.max_concurrent_streams),
      requests_per_minute: count(l.requests_per_minute),
    },
  };
}

/** Tokens with thousands separators: 1093 → '1,093'. */
export function formatTokens(n: number): string {
  return count(n).toLocaleString('en-US');
}

/** US dollars to 4 decimals, as under each chat reply: 0.00213 → '$0.0021'. */
export function formatCost(usd: number): string {
  return `$${amount(usd).toFixed(4)}`;
}

const PROVIDERS: Record<string, string> = { openai: 'OpenAI', anthropic: 'Anthropic', google: 'Google', meta: 'Meta' };

/** 'OpenAI · gpt-4o-mini'. */
export function modelLabel(m: Pick<ModelUsage, 'provider' | 'model'>): string {
  const provider = PROVIDERS[m.provider] ?? m.provider;
  return provider ? `${provider} · ${m.model}` : m.model;
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** '412 in → 1,093 out tokens · $0.0021 · 3 requests' ('demo' for the local demo model). */
export function modelFigures(m: ModelUsage): string {
  const tokens = `${formatTokens(m.input_tokens)} in → ${formatTokens(m.output_tokens)} out tokens`;
  return `${tokens} · ${m.demo ? 'demo' : formatCost(m.cost_usd)} · ${plural(m.requests, 'request', 'requests')}`;
}

/** '1,505 tokens · $0.0021 · 3 requests'; the cost says 'demo' when only the demo model was used. */
export function totalsFigures(t: UsageTotals): string {
  const onlyDemo = t.by_model.length > 0 && t.by_model.every((m) => m.demo);
  const cost = onlyDemo ? 'demo' : formatCost(t.cost_usd);
  return `${plural(t.input_tokens + t.output_tokens, 'token', 'tokens')} · ${cost} · ${plural(t.requests, 'request', 'requests')}`;
}

export interface ModelBar {
  model: ModelUsage;
  /** Widths in percent of the chart: the largest model's tokens fill it. */
  inputPercent: number;
  outputPercent: number;
}

/** Each model's input and output bar, scaled to the busiest model of the period. */
export function modelBars(models: readonly ModelUsage[]): ModelBar[] {
  const max = Math.max(0, ...models.map((m) => m.input_tokens + m.output_tokens));
  const pct = (n: number) => (max > 0 ? Math.round((n / max) * 1000) / 10 : 0);
  return models.map((model) => ({ model, inputPercent: pct(model.input_tokens), outputPercent: pct(model.output_tokens) }));
}

export interface Allowance {
  /** False when the budget is 0 (no limit). */
  limited: boolean;
  used: number;
  budget: number;
  /** Used of budget, 0..100 (capped), one decimal. */
  percent: number;
  remaining: number;
  exhausted: boolean;
  /** 'Resets at 00:00 UTC'. */
  resets: string;
  /** The whole state as one sentence. */
  summary: string;
}

/** 'HH:MM UTC' of the reset time; 00:00 UTC when it cannot be read. */
function resetClock(resetsAt: string): string {
  const t = Date.parse(resetsAt);
  if (!Number.isFinite(t)) return '00:00 UTC';
  const d = new Date(t);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
}

/** Today's allowance from the limits. */
export function allowance(limits: ChatLimits): Allowance {
  const used = count(limits.tokens_used_today);
  const budget = count(limits.daily_token_budget);
  const resets = `Resets at ${resetClock(limits.resets_at)}`;
  if (budget === 0) {
    return { limited: false, used, budget, percent: 0, remaining: 0, exhausted: false, resets, summary: `${plural(used, 'token', 'tokens')} used today · no daily limit` };
  }
  const percent = Math.min(100, Math.round((used / budget) * 1000) / 10);
  const remaining = Math.max(0, budget - used);
  const exhausted = used >= budget;
  const summary = exhausted
    ? `${formatTokens(used)} of ${formatTokens(budget)} tokens used today: today's allowance is used up`
    : `${formatTokens(used)} of ${formatTokens(budget)} tokens used today (${percent}%) · ${formatTokens(remaining)} left`;
  return { limited: true, used, budget, percent, remaining, exhausted, resets, summary };
}

/** 'Up to 3 replies at once · 20 messages a minute' (limits of 0 are left out). */
export function rateLimitsText(limits: ChatLimits): string {
  const parts: string[] = [];
  if (limits.max_concurrent_streams > 0) parts.push(`Up to ${plural(limits.max_concurrent_streams, 'reply', 'replies')} at once`);
  if (limits.requests_per_minute > 0) parts.push(`${plural(limits.requests_per_minute, 'message', 'messages')} a minute`);
  return parts.join(' · ');
}

/** '2026-11' → 'November 2026'; the text as given when it is not a month. */
export function monthLabel(month: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  if (!m) return month;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1));
  return d.toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}
