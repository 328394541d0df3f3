import { defineConfig } from '@playwright/test';

// Runs against an already running system (gateway serving the web app and /api).
// Uses the system Chromium; Playwright never downloads a browser here.
export default defineConfig({
  testDir: './e2e',
  // e2e/*.test.ts are Vitest's (the clock helpers' own tests).
  testMatch: '*.spec.ts',
  outputDir: './test-results/artifacts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  // On CI one retry: a test that fails, then passes, is named in the summary as passed only
  // on a retry (./navalha test), so a flake is reported without costing the run.
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: process.env.BASE_URL ?? 'http://127.0.0.1:8080',
    browserName: 'chromium',
    headless: true,
    locale: 'pt-BR',
    reducedMotion: 'reduce',
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
