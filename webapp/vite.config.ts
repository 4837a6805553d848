/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { createTheme } from '@aws-amplify/ui';
import { AMPLIFY_THEME_INPUT } from './src/lib/amplify-theme';

// 'virtual:amplify-theme.css': the Amplify UI theme's CSS variables, made by
// createTheme() here at build time instead of in the browser at start-up.
function amplifyThemeCss(): Plugin {
  const id = 'virtual:amplify-theme.css';
  const resolved = '\0' + id;
  return {
    name: 'amplify-theme-css',
    resolveId: (source) => (source === id ? resolved : undefined),
    load: (loaded) => (loaded === resolved ? createTheme(AMPLIFY_THEME_INPUT).cssText : undefined),
  };
}

// One config for the dev server, the production build and Vitest.
export default defineConfig({
  plugins: [react(), amplifyThemeCss()],
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
    css: false,
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
