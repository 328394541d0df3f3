import { expect, type Locator, type Page } from '@playwright/test';

// Helpers of the clients, holidays and roles specs.

/** The field error under a labelled input. */
export const fieldError = (page: Page | Locator, text: string) => page.getByRole('alert').filter({ hasText: text });

/** Waits until no toast is on screen (so a screenshot shows the page, not the toast). */
export async function dismissToasts(page: Page) {
  const toasts = page.locator('.Toastify__toast');
  // A toast under the pointer waits for it to leave (pauseOnHover), and a click on a toast
  // that is leaving can wait for it until the test's time is up: the pointer goes to a
  // corner first, and each click gives up after 2 s.
  await page.mouse.move(0, 0);
  for (const toast of await toasts.all()) await toast.click({ timeout: 2_000 }).catch(() => undefined);
  await expect(toasts).toHaveCount(0, { timeout: 15_000 });
}

/** Screenshots a screen at 1280 and 390 px wide into test-results/<name>-<width>.png. */
export async function screenshots(page: Page, name: string, ready: () => Promise<void>) {
  await dismissToasts(page);
  await page.screenshot({ path: `test-results/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await ready();
  await page.screenshot({ path: `test-results/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await ready();
}

/** 'YYYY-MM-DD' of a random day in a far year, so a test holiday never touches the agenda. */
export function farDay(): string {
  const day = 1 + Math.floor(Math.random() * 27);
  const month = 1 + Math.floor(Math.random() * 12);
  return `2035-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** 'dd/mm/aaaa' of 'YYYY-MM-DD'. */
export const dateBR = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
