// Fails a test whose app code leaves a timer running after the test's
// components are unmounted: such a timer fires after jsdom is torn down
// ("window is not defined") and fails the whole run on a busy machine.
// Only timers started from our own modules (src/, not tests) are tracked.

type Site = { kind: string; where: string };

const pending = new Map<unknown, Site>();

const real = {
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setInterval: globalThis.setInterval,
  clearInterval: globalThis.clearInterval,
  requestAnimationFrame: globalThis.requestAnimationFrame as typeof requestAnimationFrame | undefined,
  cancelAnimationFrame: globalThis.cancelAnimationFrame as typeof cancelAnimationFrame | undefined,
};

/**
 * Our own modules under src/. Not libraries (SWR's dedupe, React's scheduler
 * manage their own timers), not tests; the guard's fixtures count as app code.
 */
export function isAppFrame(line: string): boolean {
  if (!line.includes('/src/') || line.includes('node_modules') || /\.test\.tsx?/.test(line)) return false;
  return !line.includes('/src/test/') || line.includes('timer-guard-fixtures');
}

/** Where the timer was started, when its direct caller is our own code. */
function appFrame(): string | null {
  const stack = new Error().stack ?? '';
  const caller = stack
    .split('\n')
    .slice(1)
    .find((line) => !line.includes('/src/test/timer-guard.ts'));
  if (!caller) return null;
  return isAppFrame(caller) ? caller.trim().replace(/^at /, '') : null;
}

function track(id: unknown, kind: string): void {
  const where = appFrame();
  if (where) pending.set(id, { kind, where });
}

export function installTimerGuard(): void {
  globalThis.setTimeout = ((fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const id = real.setTimeout(
      (...a: unknown[]) => {
        pending.delete(id);
        fn(...a);
      },
      ms,
      ...args,
    );
    track(id, 'setTimeout');
    return id;
  }) as typeof setTimeout;
  globalThis.clearTimeout = ((id: Parameters<typeof clearTimeout>[0]) => {
    pending.delete(id);
    real.clearTimeout(id);
  }) as typeof clearTimeout;
  globalThis.setInterval = ((fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const id = real.setInterval(fn, ms, ...args);
    track(id, 'setInterval');
    return id;
  }) as typeof setInterval;
  globalThis.clearInterval = ((id: Parameters<typeof clearInterval>[0]) => {
    pending.delete(id);
    real.clearInterval(id);
  }) as typeof clearInterval;
  const raf = real.requestAnimationFrame;
  const caf = real.cancelAnimationFrame;
  if (raf && caf) {
    globalThis.requestAnimationFrame = (cb: FrameRequestCallback) => {
      const id = raf((t) => {
        pending.delete(id);
        cb(t);
      });
      track(id, 'requestAnimationFrame');
      return id;
    };
    globalThis.cancelAnimationFrame = (id: number) => {
      pending.delete(id);
      caf(id);
    };
  }
  if (typeof window !== 'undefined' && window !== globalThis) {
    window.setTimeout = globalThis.setTimeout;
    window.clearTimeout = globalThis.clearTimeout;
    window.setInterval = globalThis.setInterval;
    window.clearInterval = globalThis.clearInterval;
    if (raf && caf) {
      window.requestAnimationFrame = globalThis.requestAnimationFrame;
      window.cancelAnimationFrame = globalThis.cancelAnimationFrame;
    }
  }
}

/**
 * Call after unmounting everything: lets in-flight work settle for a couple
 * of turns, then throws naming every app timer still pending (and clears
 * them, so one leak does not fail the tests after it too).
 */
export async function assertNoLeakedTimers(): Promise<void> {
  for (let i = 0; i < 2; i++) await new Promise<void>((resolve) => real.setTimeout(resolve, 0));
  if (pending.size === 0) return;
  const sites = [...pending.entries()];
  pending.clear();
  for (const [id, { kind }] of sites) {
    if (kind === 'setInterval') real.clearInterval(id as ReturnType<typeof setInterval>);
    else if (kind === 'requestAnimationFrame') real.cancelAnimationFrame?.(id as number);
    else real.clearTimeout(id as ReturnType<typeof setTimeout>);
  }
  const list = sites.map(([, s]) => `  ${s.kind} from ${s.where}`).join('\n');
  throw new Error(`Timers still pending after unmount (clear them in the effect's cleanup):\n${list}`);
}
