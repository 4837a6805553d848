// The layers of src/ (STYLE §6): lib → components → features → app.
// - src/lib/ imports only src/lib/.
// - src/components/ imports src/lib/ and src/components/.
// - src/features/<f>/ imports src/lib/, src/components/ and its own folder,
//   never another feature and never src/app/. Glue two features share (the
//   chat hand-off, the owned-prompts hook, the signed-in user) lives in lib/.
// - src/app/ (providers, routes) may import anything.
// Test files may also import src/test/ (fakes, render-app).
// Packages (anything not starting with '.' or '/') are not checked.

import { describe, expect, it } from 'vitest';

const SOURCES = import.meta.glob<string>('/src/**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true });

// import … from '…', export … from '…', import '…', import('…'), vi.mock('…').
const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(?\s*|\bvi\.mock\(\s*)['"]([^'"]+)['"]/g;

function specifiers(text: string): string[] {
  // Comments may name paths; they are not imports.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(SPECIFIER)].map((m) => m[1]);
}

function resolve(from: string, spec: string): string | null {
  if (!spec.startsWith('.') && !spec.startsWith('/')) return null;
  const parts = spec.startsWith('/') ? [] : from.split('/').slice(0, -1);
  for (const part of spec.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return '/' + parts.filter(Boolean).join('/');
}

/** The layer a path under /src belongs to: 'lib', 'components', 'app', 'test', 'features/<f>' or 'root'. */
function layerOf(path: string): string {
  const [, src, top, sub] = path.split('/');
  if (src !== 'src') return 'outside';
  if (top === 'features') return `features/${sub}`;
  if (['lib', 'components', 'app', 'test'].includes(top)) return top;
  return 'root';
}

/** Whether a file in layer `from` may import a module in layer `to`. */
function allowed(from: string, to: string, isTest: boolean): boolean {
  if (to === 'test' && isTest) return true;
  if (from === 'app' || from === 'test' || from === 'root') return true;
  if (to === 'lib') return true;
  if (from === 'lib') return false;
  if (to === 'components') return true;
  if (from === 'components') return false;
  return from === to;
}

function violations(sources: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of Object.entries(sources)) {
    const from = layerOf(file);
    const isTest = /\.test\.tsx?$/.test(file);
    for (const spec of specifiers(text)) {
      const target = resolve(file, spec);
      if (target === null) continue;
      const to = layerOf(target);
      if (!allowed(from, to, isTest)) found.push(`${file} imports ${spec} (${from} → ${to})`);
    }
  }
  return found.sort();
}

describe('import boundaries', () => {
  it('reads the source tree', () => {
    expect(Object.keys(SOURCES).length).toBeGreaterThan(100);
    expect(Object.keys(SOURCES)).toContain('/src/features/marketplace/components/marketplace-page.tsx');
  });

  it('has no feature importing another feature, app or test helpers, and no shared layer importing up', () => {
    expect(violations(SOURCES)).toEqual([]);
  });

  it('catches what it should', () => {
    const fake = {
      '/src/features/a/x.ts': "import { y } from '../b/y';\nimport { z } from './z';\nimport { l } from '../../lib/l';",
      '/src/features/a/deep/w.tsx': "export { v } from '../../../app/routes';\nconst m = import('../../b/m');",
      '/src/features/a/x.test.ts': "import { r } from '../../test/render-app';\nvi.mock('../../features/c/api');",
      '/src/features/a/y.ts': "// see '../b/old' for how it was\nimport { c } from '../../components/modal';",
      '/src/components/side.tsx': "import { useAuth } from '../features/auth/use-auth';",
      '/src/lib/l.ts': "import { toast } from '../components/notifications/notification-store';",
      '/src/app/routes.ts': "const p = () => import('../features/a/x');",
    };
    expect(violations(fake)).toEqual([
      "/src/components/side.tsx imports ../features/auth/use-auth (components → features/auth)",
      "/src/features/a/deep/w.tsx imports ../../../app/routes (features/a → app)",
      "/src/features/a/deep/w.tsx imports ../../b/m (features/a → features/b)",
      "/src/features/a/x.test.ts imports ../../features/c/api (features/a → features/c)",
      "/src/features/a/x.ts imports ../b/y (features/a → features/b)",
      "/src/lib/l.ts imports ../components/notifications/notification-store (lib → components)",
    ]);
  });
});
