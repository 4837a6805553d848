// Reading (never verifying) a JWT on the client: the server verifies; the
// client only needs the expiry to drop a stale session at start-up.

function base64UrlDecode(segment: string): string {
  let b64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const pad = b64.length % 4;
  if (pad === 1) throw new Error('bad base64url length');
  if (pad) b64 += '='.repeat(4 - pad);
  const binary = atob(b64);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The decoded payload, or null when the token is not a readable JWT. */
export function readJwtPayload(token: string): Record<string, unknown> | null {
  if (typeof token !== 'string') return null;
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => p.length === 0)) return null;
  try {
    const payload: unknown = JSON.parse(base64UrlDecode(parts[1]));
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return null;
    return payload as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** Expiry in epoch milliseconds, or null when absent or unreadable. */
export function readJwtExpiry(token: string): number | null {
  const payload = readJwtPayload(token);
  const exp = payload?.exp;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return null;
  return exp * 1000;
}

/** Issued-at in epoch milliseconds, or null. */
export function readJwtIssuedAt(token: string): number | null {
  const iat = readJwtPayload(token)?.iat;
  if (typeof iat !== 'number' || !Number.isFinite(iat)) return null;
  return iat * 1000;
}

export type TokenState = 'valid' | 'expired' | 'unreadable';

/**
 * SPEC §4: expired or unreadable clears the session. A token without an
 * `exp` claim counts as unreadable (the backend always sets one).
 */
export function tokenState(token: string, now: number = Date.now()): TokenState {
  const exp = readJwtExpiry(token);
  if (exp === null) return 'unreadable';
  return exp <= now ? 'expired' : 'valid';
}

/** SPEC §5: an OAuth token must have three dot-separated parts. */
export function hasThreeParts(token: string): boolean {
  const parts = token.split('.');
  return parts.length === 3 && parts.every((p) => p.length > 0);
}
