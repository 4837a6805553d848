import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiPing, startWarmUp, WARM_UP, WARM_UP_ENDPOINTS } from './warm-up';
import { installFakeApi } from '../../test/fake-api';
import { jsonResponse } from '../../test/jwt-fixtures';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('warm-up', () => {
  it('has the SPEC §9 constants and endpoints', () => {
    expect(WARM_UP).toMatchObject({ delayMs: 1000, intervalMs: 30_000, maxAttempts: 5, timeoutMs: 3000, successRatio: 0.8 });
    expect(WARM_UP_ENDPOINTS).toEqual(['/prompts/categories', '/mcp-servers/', '/prompts/featured', '/auth/health']);
  });

  it('waits 1 s, pings all four endpoints with a 3 s timeout, and stops on success', async () => {
    const ping = vi.fn(async () => true);
    const done = vi.fn();
    startWarmUp(ping, WARM_UP, done);
    await vi.advanceTimersByTimeAsync(999);
    expect(ping).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect((ping.mock.calls as unknown[][]).map(([p, ms]) => [p, ms])).toEqual(WARM_UP_ENDPOINTS.map((p) => [p, 3000]));
    expect(done).toHaveBeenCalledWith({ attempts: 1, succeeded: true });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(ping).toHaveBeenCalledTimes(4);
  });

  it('repeats every 30 s while fewer than 80% succeed (3 of 4 is 75%)', async () => {
    let round = 0;
    const ping = vi.fn(async (path: string) => {
      if (path === WARM_UP_ENDPOINTS[0]) round += 1;
      return round >= 3 || path !== '/prompts/featured';
    });
    const done = vi.fn();
    startWarmUp(ping, WARM_UP, done);
    await vi.advanceTimersByTimeAsync(1000);
    expect(ping).toHaveBeenCalledTimes(4);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(ping).toHaveBeenCalledTimes(4);
    await vi.advanceTimersByTimeAsync(1);
    expect(ping).toHaveBeenCalledTimes(8);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(ping).toHaveBeenCalledTimes(12);
    expect(done).toHaveBeenCalledWith({ attempts: 3, succeeded: true });
  });

  it('gives up after 5 attempts', async () => {
    const ping = vi.fn(async () => false);
    const done = vi.fn();
    startWarmUp(ping, WARM_UP, done);
    await vi.advanceTimersByTimeAsync(1000 + 4 * 30_000);
    expect(ping).toHaveBeenCalledTimes(20);
    expect(done).toHaveBeenCalledWith({ attempts: 5, succeeded: false });
    await vi.advanceTimersByTimeAsync(300_000);
    expect(ping).toHaveBeenCalledTimes(20);
  });

  it('counts a rejected ping as a failure', async () => {
    const ping = vi.fn(async (path: string) => {
      if (path === '/auth/health') throw new Error('boom');
      return true;
    });
    const done = vi.fn();
    startWarmUp(ping, { ...WARM_UP, maxAttempts: 1 }, done);
    await vi.advanceTimersByTimeAsync(1000);
    expect(done).toHaveBeenCalledWith({ attempts: 1, succeeded: false });
  });

  it('aborts the pings in flight when stopped', async () => {
    const signals: AbortSignal[] = [];
    const ping = vi.fn((_path: string, _timeout: number, signal?: AbortSignal) => {
      if (signal) signals.push(signal);
      return new Promise<boolean>(() => undefined);
    });
    const stop = startWarmUp(ping);
    await vi.advanceTimersByTimeAsync(1000);
    expect(signals).toHaveLength(4);
    expect(signals.every((s) => !s.aborted)).toBe(true);
    stop();
    expect(signals.every((s) => s.aborted)).toBe(true);
  });

  it('stops when cancelled', async () => {
    const ping = vi.fn(async () => false);
    const stop = startWarmUp(ping);
    await vi.advanceTimersByTimeAsync(1000);
    stop();
    await vi.advanceTimersByTimeAsync(300_000);
    expect(ping).toHaveBeenCalledTimes(4);
  });

  it('apiPing calls /api/v1<path> without a token and maps the outcome to a boolean', async () => {
    const api = installFakeApi();
    api.route('GET /api/v1/auth/health', () => jsonResponse(200, { status: 'ok' }));
    api.route('GET /api/v1/prompts/featured', () => jsonResponse(404, {}));
    await expect(apiPing('/auth/health', 3000)).resolves.toBe(true);
    await expect(apiPing('/prompts/featured', 3000)).resolves.toBe(false);
    expect(api.calls[0].path + api.calls[0].search).toBe('/api/v1/auth/health');
    expect(api.calls[0].headers).not.toHaveProperty('Authorization');
  });
});
