import { vi } from 'vitest';

/** Stub window.matchMedia so '(prefers-color-scheme: dark)' answers `dark`. */
export function stubSystemTheme(dark: boolean) {
  const listeners = new Set<(e: MediaQueryListEvent) => void>();
  const mql = {
    matches: dark,
    media: '(prefers-color-scheme: dark)',
    onchange: null,
    addEventListener: (_: string, l: (e: MediaQueryListEvent) => void) => listeners.add(l),
    removeEventListener: (_: string, l: (e: MediaQueryListEvent) => void) => listeners.delete(l),
    addListener: vi.fn(),
    removeListener: vi.fn(),
    dispatchEvent: vi.fn(),
  };
  const other = { ...mql, matches: false };
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => (query.includes('dark') ? mql : other)),
  );
  return {
    /** Flip the system preference and notify listeners. */
    set(next: boolean) {
      mql.matches = next;
      for (const l of listeners) l({ matches: next } as MediaQueryListEvent);
    },
  };
}
