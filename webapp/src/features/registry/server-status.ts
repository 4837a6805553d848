// What a card says about a server's state: `is_active` (still in the
// registry) combined with the last probe's health. Always readable text; the
// dot's colour only repeats it.

import { formatRelativeTime } from '../../lib/relative-time';
import type { McpServer } from '../../lib/api/mcp-types';

export type StatusTone = 'success' | 'warning' | 'error' | 'neutral';

export type ServerStatusKey = 'active' | 'needs-key' | 'needs-sign-in' | 'down' | 'unknown' | 'inactive';

export interface ServerStatus {
  key: ServerStatusKey;
  /** Short badge text. */
  label: string;
  tone: StatusTone;
  /** One sentence for the tooltip and screen readers. */
  description: string;
}

export function serverStatus(server: Pick<McpServer, 'is_active' | 'health' | 'api_key_required' | 'oauth_required'>): ServerStatus {
  if (!server.is_active) {
    return { key: 'inactive', label: 'Inactive', tone: 'neutral', description: 'No longer listed as active by its registry.' };
  }
  switch (server.health?.status) {
    case 'up':
      return { key: 'active', label: 'Active', tone: 'success', description: 'Answered the last health check.' };
    case 'auth_required':
      // The probe never sends credentials, so a 401 means "needs yours", not "down".
      return server.oauth_required && !server.api_key_required
        ? { key: 'needs-sign-in', label: 'Needs sign-in', tone: 'warning', description: 'Up, but asks for sign-in with its OAuth before it answers.' }
        : { key: 'needs-key', label: 'Needs key', tone: 'warning', description: 'Up, but asks for an API key before it answers.' };
    case 'down':
      return { key: 'down', label: 'Down', tone: 'error', description: 'Did not answer the last health check.' };
    default:
      return { key: 'unknown', label: 'Unknown', tone: 'neutral', description: 'Not checked yet.' };
  }
}

/** Connecting means signing in with the server's own OAuth (no key to give instead). */
export function signsIn(server: Pick<McpServer, 'oauth_required' | 'api_key_required'>): boolean {
  return server.oauth_required && !server.api_key_required;
}

const WEEK_MS = 7 * 24 * 60 * 60_000;

/** True when the tool list changed within the last 7 days ("tools changed" shows for a week). */
export function toolsChangedRecently(toolsChangedAt: string, now: number): boolean {
  if (!toolsChangedAt) return false;
  const at = Date.parse(toolsChangedAt);
  if (!Number.isFinite(at)) return false;
  const age = now - at;
  // A little clock skew into the future still counts as recent.
  return age < WEEK_MS && age > -60 * 60_000;
}

/** '12 ms', '1.3 s'; '' when there is nothing to say. */
export function formatLatency(ms: number): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/** '1 tool', '13 tools'. */
export function toolsCountLabel(n: number): string {
  return `${n} ${n === 1 ? 'tool' : 'tools'}`;
}

/** Whether the card can show a tools count: only a probe that got in saw the tools. */
export function knowsTools(server: Pick<McpServer, 'health'>): boolean {
  return server.health?.status === 'up' || (server.health?.tools_count ?? 0) > 0;
}

/** Only absolute http(s) URLs become links (registry data is not trusted). */
export function isHttpUrl(value: string): boolean {
  if (typeof value !== 'string' || !value) return false;
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** 'key …abcd' when the connection keeps a key; '' otherwise. */
export function keyHint(c: { has_api_key: boolean; api_key_last4: string }): string {
  if (!c.has_api_key) return '';
  return c.api_key_last4 ? `key …${c.api_key_last4}` : 'key saved';
}

/** A relative time inside a sentence: 'just now', '5 minutes ago', 'on Nov 2, 2026'; '' when unreadable. */
export function relativePhrase(at: string, now: number): string {
  if (!at) return '';
  const rel = formatRelativeTime(at, now);
  if (!rel) return '';
  if (rel === 'Just now') return 'just now';
  return rel.endsWith(' ago') ? rel : `on ${rel}`;
}

/** 'Last checked 5 minutes ago'; 'Not checked yet' without a probe. */
export function checkedLabel(checkedAt: string, now: number): string {
  const phrase = relativePhrase(checkedAt, now);
  return phrase ? `Last checked ${phrase}` : 'Not checked yet';
}
