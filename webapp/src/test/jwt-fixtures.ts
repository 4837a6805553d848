function b64url(value: unknown): string {
  const json = JSON.stringify(value);
  return btoa(unescape(encodeURIComponent(json))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** An unsigned test JWT with the given payload (the client never verifies). */
export function makeJwt(payload: Record<string, unknown>): string {
  return `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(payload)}.c2lnbmF0dXJl`;
}

export function tokenExpiringIn(seconds: number, now = Date.now()): string {
  return makeJwt({ sub: 'u1', exp: Math.floor(now / 1000) + seconds, iat: Math.floor(now / 1000) });
}

export function jsonResponse(status: number, body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
    ...init,
  });
}
