// Teardowns of app-wide state that tests run after each test
// (src/test/setup.ts). A heavy module registers its own when it is loaded,
// so a test file that never loads it does not pay for importing it just to
// tear it down. Outside tests nothing is registered.

const resets = new Map<string, () => void>();

/** Registers the teardown named `name` (tests only). */
export function onTestReset(name: string, reset: () => void): void {
  if (import.meta.env.MODE === 'test') resets.set(name, reset);
}

/** Runs the teardown named `name`, when its module was loaded. */
export function runTestReset(name: string): void {
  resets.get(name)?.();
}
