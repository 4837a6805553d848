/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { createTheme } from '@aws-amplify/ui';
import { AMPLIFY_THEME_INPUT } from './src/lib/amplify-theme';

// 'virtual:amplify-theme.css': the Amplify UI theme's CSS variables, made by
// createTheme() here at build time instead of in the browser at start-up.
// They are declared on :root too, where Amplify's base.css declares the
// default theme's (the page's own background and text colours read them):
// base.css's copy of the same ~1,600 variables is then left out
// (amplifyBaseWithoutTokens), 11 KB gzipped less to load before the first paint.
function amplifyThemeCss(): Plugin {
  const id = 'virtual:amplify-theme.css';
  const resolved = '\0' + id;
  const themeSelector = `[data-amplify-theme="${AMPLIFY_THEME_INPUT.name}"] {`;
  return {
    name: 'amplify-theme-css',
    resolveId: (source) => (source === id ? resolved : undefined),
    load: (loaded) => {
      if (loaded !== resolved) return undefined;
      const css = createTheme(AMPLIFY_THEME_INPUT).cssText;
      if (!css.startsWith(themeSelector)) throw new Error(`amplify-theme-css: the theme's CSS no longer starts with ${themeSelector}`);
      return `:root, ${css}`;
    },
  };
}

// Amplify's base.css without its first rule, the default theme's variables
// on ':root, [data-amplify-theme]', which the theme module declares (with
// our colours) on the same elements.
function amplifyBaseWithoutTokens(): Plugin {
  const tokens = /^[\s\S]*?:root, \[data-amplify-theme\] \{[^}]*\}\n/;
  return {
    name: 'amplify-base-without-tokens',
    transform: (code, id) => {
      if (!id.endsWith('/@aws-amplify/ui-react/dist/styles/base.css')) return undefined;
      if (!tokens.test(code)) throw new Error('amplify-base-without-tokens: base.css no longer starts with its tokens rule');
      return code.replace(tokens, '');
    },
  };
}

// One config for the dev server, the production build and Vitest.
export default defineConfig({
  plugins: [react(), amplifyThemeCss(), amplifyBaseWithoutTokens()],
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': {
        target: 'http://localhost:8080',
        changeOrigin: false,
      },
    },
  },
  preview: {
    port: 4173,
    proxy: {
      '/api': 'http://localhost:8080',
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    exclude: ['e2e/**', 'node_modules/**', 'dist/**'],
    setupFiles: ['./src/test/setup.ts'],
    // CSS is not processed in tests, except what a test reads as text (?raw).
    css: { include: [/\.css\?raw$/] },
    restoreMocks: true,
    // One jsdom per worker, reused by its files: a fresh one per file cost
    // three quarters of the suite's CPU. Shared state is reset between tests
    // by src/test/setup.ts (and src/lib/test-resets.ts), so each file still
    // starts clean; the suite passes in shuffled file orders
    // (--sequence.shuffle.files).
    isolate: false,
    // Vitest's default leaves one core idle (cores - 1): on two cores, one worker.
    maxWorkers: '100%',
    // Deadlines, not expected durations: a test normally takes well under a
    // second, but a loaded two-core machine can stretch that many times over.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
