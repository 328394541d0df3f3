import { test as base, type Browser, type BrowserContext, type BrowserContextOptions } from '@playwright/test';
import { CLOCK_OFFSET_MS, now } from './clock';

export { expect } from '@playwright/test';

// What every end-to-end test runs with: the browser on the stack's clock (clock.ts).

/** Puts a browser context on the stack's clock; nothing to do when the stack runs on real time. */
export async function placeContext(context: BrowserContext) {
  if (CLOCK_OFFSET_MS !== 0) await context.clock.install({ time: now() });
  return context;
}

/** A new browser context on the stack's clock: use it instead of browser.newContext(). */
export const newContext = async (browser: Browser, options?: BrowserContextOptions) =>
  placeContext(await browser.newContext(options));

/** Playwright's test, with the default context (and so every `page`) on the stack's clock. */
export const test = base.extend({
  context: async ({ context }, use) => {
    await use(await placeContext(context));
  },
});
