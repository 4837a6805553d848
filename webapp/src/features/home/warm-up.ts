// SPEC §4 warm-up: after 1 s the home page pings four endpoints (3 s
// timeout each), repeating every 30 s up to 5 attempts until at least 80%
// succeed. Wakes cold Lambdas before the visitor needs them.

import { apiRequest } from '../../lib/api-client';

export const WARM_UP_ENDPOINTS = ['/prompts/categories', '/mcp-servers/', '/prompts/featured', '/auth/health'] as const;

export interface WarmUpConfig {
  endpoints: readonly string[];
  delayMs: number;
  intervalMs: number;
  maxAttempts: number;
  timeoutMs: number;
  successRatio: number;
}

export const WARM_UP: WarmUpConfig = {
  endpoints: WARM_UP_ENDPOINTS,
  delayMs: 1000,
  intervalMs: 30_000,
  maxAttempts: 5,
  timeoutMs: 3000,
  successRatio: 0.8,
};

export type Ping = (path: string, timeoutMs: number, signal?: AbortSignal) => Promise<boolean>;

/** Default ping: no token (public endpoints, no session side effects), any 2xx is a success. */
export const apiPing: Ping = (path, timeoutMs, signal) =>
  apiRequest(path, { timeoutMs, token: null, signal }).then(
    () => true,
    () => false,
  );

export interface WarmUpReport {
  attempts: number;
  succeeded: boolean;
}

/**
 * Runs the warm-up; returns a stop function. `onDone` fires once when it
 * reaches the success ratio or runs out of attempts (not when stopped).
 */
export function startWarmUp(ping: Ping = apiPing, config: WarmUpConfig = WARM_UP, onDone?: (report: WarmUpReport) => void): () => void {
  let stopped = false;
  let attempts = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Stopping also cancels pings in flight: nothing outlives the page.
  const inflight = new AbortController();

  const attempt = async () => {
    if (stopped) return;
    attempts += 1;
    const results = await Promise.all(config.endpoints.map((p) => ping(p, config.timeoutMs, inflight.signal).catch(() => false)));
    if (stopped) return;
    const ok = results.filter(Boolean).length;
    const ratio = config.endpoints.length === 0 ? 1 : ok / config.endpoints.length;
    if (ratio >= config.successRatio) {
      onDone?.({ attempts, succeeded: true });
      return;
    }
    if (attempts >= config.maxAttempts) {
      onDone?.({ attempts, succeeded: false });
      return;
    }
    timer = setTimeout(() => void attempt(), config.intervalMs);
  };

  timer = setTimeout(() => void attempt(), config.delayMs);
  return () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    inflight.abort();
  };
}

let warmedUp = false;

/** Once per page load: leaving and re-entering the home page does not ping again after success. */
export function warmUpOnce(ping: Ping = apiPing): () => void {
  if (warmedUp) return () => undefined;
  return startWarmUp(ping, WARM_UP, (report) => {
    if (report.succeeded) warmedUp = true;
  });
}

/** Tests only. */
export function resetWarmUpForTests(): void {
  warmedUp = false;
}
