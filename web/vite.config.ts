import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Where `vite` and `vite preview` send /api (the gateway in development).
const apiTarget = process.env.NAVALHA_API_PROXY ?? 'http://127.0.0.1:8080';

// No @vitejs/plugin-react: esbuild's automatic JSX runtime is all we need.
export default defineConfig({
  esbuild: { jsx: 'automatic' },
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  // /cep is the postal-code lookup the gateway forwards to ViaCEP (src/lib/cep.ts).
  server: {
    proxy: { '/api': apiTarget, '/cep': apiTarget },
  },
  preview: {
    proxy: { '/api': apiTarget, '/cep': apiTarget },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    rollupOptions: {
      onwarn(warning, warn) {
        // Libraries mark their client entry points with "use client"; harmless in an SPA.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
      output: {
        // Long-lived vendor chunks, cached across releases of the app code.
        manualChunks(id) {
          if (!id.includes('node_modules')) return undefined;
          // recharts and what only it uses: loaded with the home, not on the first load.
          if (/node_modules\/(recharts|victory-vendor|d3-[a-z-]+|internmap|es-toolkit|eventemitter3|tiny-invariant|decimal\.js-light|react-is)\//.test(id)) return 'charts';
          if (/node_modules\/(react|react-dom|scheduler)\//.test(id)) return 'react';
          if (/node_modules\/(@reduxjs|redux|react-redux|redux-persist|immer|reselect)/.test(id)) return 'redux';
          return 'vendor';
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}', 'e2e/**/*.test.ts'],
    css: false,
    // Whole-app flows type into several forms; two busy cores make them slow.
    testTimeout: 15_000,
    // Two cores on CI, shared with the Rust build.
    pool: 'threads',
    poolOptions: { threads: { maxThreads: 2, minThreads: 1 } },
  },
});
