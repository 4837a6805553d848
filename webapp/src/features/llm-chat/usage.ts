// Tokens and cost where people look: under each finished reply
// ("412 → 1,093 tokens · $0.0021", "demo" for the local demo model) and a
// running total per tab. The numbers come from the stream's usage frame
// `{"usage":{"input_tokens":…,"output_tokens":…,"cost_usd":…}}`.

import { isRecord } from '../../lib/api/wire';
import type { ChatMessage, MessageUsage } from './state/types';

/** A whole, non-negative count; anything else is 0. */
function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.round(v) : 0;
}

/** A non-negative amount; anything else is 0. */
function amount(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

/** Tokens with thousands separators: 1093 → '1,093'. */
export function formatTokens(n: number): string {
  return count(n).toLocaleString('en-US');
}

/** US dollars to 4 decimals: 0.00213 → '$0.0021'. */
export function formatCost(usd: number): string {
  return `$${amount(usd).toFixed(4)}`;
}

/** '412 → 1,093 tokens · $0.0021', or '… · demo' for the local demo model. */
export function formatUsage(usage: MessageUsage): string {
  const tokens = `${formatTokens(usage.input_tokens)} → ${formatTokens(usage.output_tokens)} tokens`;
  return `${tokens} · ${usage.demo ? 'demo' : formatCost(usage.cost_usd)}`;
}

/** The usage frame's numbers, cleaned, marked demo when the connection is the local demo model. */
export function messageUsage(raw: { input_tokens: number; output_tokens: number; cost_usd: number }, demo: boolean): MessageUsage {
  const usage: MessageUsage = { input_tokens: count(raw.input_tokens), output_tokens: count(raw.output_tokens), cost_usd: demo ? 0 : amount(raw.cost_usd) };
  if (demo) usage.demo = true;
  return usage;
}

/** A stored usage, read defensively: undefined unless it is an object with at least one number. */
export function restoreUsage(raw: unknown): MessageUsage | undefined {
  if (!isRecord(raw)) return undefined;
  const { input_tokens, output_tokens, cost_usd } = raw;
  if (![input_tokens, output_tokens, cost_usd].some((v) => typeof v === 'number' && Number.isFinite(v))) return undefined;
  return messageUsage({ input_tokens: count(input_tokens), output_tokens: count(output_tokens), cost_usd: amount(cost_usd) }, raw.demo === true);
}

/**
 * A tab's running total: every reply's usage plus what summarising its
 * long messages cost. The cost adds up the real (non-demo) calls; the
 * total is 'demo' only when every call was the demo model. Null when
 * nothing has been counted yet.
 */
export function totalUsage(messages: readonly Pick<ChatMessage, 'usage' | 'summaryUsage'>[]): MessageUsage | null {
  let calls = 0;
  let demoCalls = 0;
  const total: MessageUsage = { input_tokens: 0, output_tokens: 0, cost_usd: 0 };
  for (const m of messages) {
    for (const u of [m.usage, m.summaryUsage]) {
      if (!u) continue;
      calls++;
      total.input_tokens += count(u.input_tokens);
      total.output_tokens += count(u.output_tokens);
      if (u.demo) demoCalls++;
      else total.cost_usd += amount(u.cost_usd);
    }
  }
  if (calls === 0) return null;
  if (demoCalls === calls) total.demo = true;
  return total;
}
