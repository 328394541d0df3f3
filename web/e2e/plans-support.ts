import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

// Helpers of plans.spec.ts.

/** A 16x12 orange PNG: the server checks the image's bytes, not its name. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAMCAIAAADkharWAAAAFUlEQVR4nGM4EaBBEmIY1TCqATsCACp48AE9ullEAAAAAElFTkSuQmCC',
  'base64',
);

export interface PlanTerms {
  /** The main method's price, '59.90' or '59,90'. */
  value?: string;
  paymentMethod?: 'creditcard' | 'boleto';
  /** The other accepted methods and their prices. */
  prices?: { paymentMethod: 'creditcard' | 'boleto'; value: string }[];
  /** Days from subscribing to the first boleto's due date (the server's 3 when absent). */
  firstDueDays?: number;
}

/** Creates an active monthly plan for every unit through the API (card at R$ 59,90 unless told); returns its id. */
export async function createPlan(request: APIRequestContext, token: string, planName: string, terms: PlanTerms = {}) {
  const response = await request.post('/api/subscription-details', {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      planName,
      description: 'Plano criado pelo teste',
      value: terms.value ?? '59.90',
      status: '1',
      discount: '0',
      validityStart: '2026-01-01',
      validityEnd: '2030-12-31',
      allCompanies: 'true',
      periodicity: 'monthly',
      quantity: '6',
      itemsDetail: '',
      paymentMethod: terms.paymentMethod ?? 'creditcard',
      prices: JSON.stringify(terms.prices ?? []),
      ...(terms.firstDueDays !== undefined ? { firstDueDays: String(terms.firstDueDays) } : {}),
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { IdSubscriptionDetail: number }).IdSubscriptionDetail;
}

/** Adds a service of the catalogue (by name) to a plan with a discount in percent, through the API. */
export async function addPlanService(request: APIRequestContext, token: string, planId: number, service: string, discount: number) {
  const headers = { Authorization: `Bearer ${token}` };
  const catalogue = await request.get('/api/service/active', { headers });
  expect(catalogue.ok(), await catalogue.text()).toBeTruthy();
  const found = ((await catalogue.json()) as { IdService: number; Description: string }[]).find((s) => s.Description === service);
  expect(found, `service ${service} in the catalogue`).toBeTruthy();
  const added = await request.post('/api/subscription-service/', {
    headers,
    data: { idService: found!.IdService, idSubscriptionDetail: planId, discount },
  });
  expect(added.status(), await added.text()).toBe(201);
}

/** The signed-in user's business name (the shop a checkout names). */
export async function businessName(request: APIRequestContext, token: string): Promise<string> {
  const response = await request.get('/api/business', { headers: { Authorization: `Bearer ${token}` } });
  expect(response.ok(), await response.text()).toBeTruthy();
  return ((await response.json()) as { Name: string }).Name;
}

/** 'YYYY-MM-DD' as the pages show it, 'dd/mm/aaaa'. */
export const dateBR = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

/** A linha digitável of a boleto, as FEBRABAN formats it (47 digits in 5 fields). */
export const BANK_LINE_PATTERN = /^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/;

/** The newest e-mail to `to` since `since` in NAVALHA_OUTBOX_DIR, or null (none, or no outbox). */
export async function checkoutMailTo(to: string, since: number): Promise<string | null> {
  const dir = process.env.NAVALHA_OUTBOX_DIR;
  if (!dir) return null;
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.json')).sort().reverse();
  for (const name of names) {
    const mail = JSON.parse(await readFile(join(dir, name), 'utf8')) as { to: string; at: string; text: string };
    if (mail.to === to && Date.parse(mail.at) >= since) return mail.text;
  }
  return null;
}

/** Screenshots of the current page at 1280 and 390 px into test-results/<name>-<width>.png. */
export async function screenshots(page: Page, name: string) {
  // Toasts of the steps before would hide the screen's top.
  const style = '.Toastify { display: none !important; }';
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `test-results/${name}-1280.png`, fullPage: true, style });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `test-results/${name}-390.png`, fullPage: true, style });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Screenshots of one part of the page (a form section) at 1280 and 390 px. */
export async function sectionScreenshots(section: Locator, name: string) {
  const page = section.page();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await section.screenshot({ path: `test-results/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}
