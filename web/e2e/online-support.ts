import AxeBuilder from '@axe-core/playwright';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import { ADMIN, BARBER1, CENTRO, apiToken, companyId, dayLabel, freeDay, randomCpf, runTag, serviceId, workingDayAhead } from './support';
import { newContext } from './fixtures';
import { now } from './clock';

// The online booking specs' helpers (issue 18): a client, the e-mailed code, the public page's
// steps. The code is read from the outbox folder (NAVALHA_OUTBOX_DIR).

/** A day's button on the page: its label ends with the date ("1 de dezembro" is not "11 de dezembro"). */
export function dayButton(day: string): RegExp {
  return new RegExp(`, ${dayLabel(day)}$`);
}

export const SERVICE = 'Corte de cabelo';
/** The two 409 answers: taken in the race itself, or already not free when checked. */
export const LOST = /Este horário (acabou de ser reservado|não está disponível)\. Escolha outro horário\./;

export interface Client {
  name: string;
  phone: string;
  cpf: string;
  email: string;
}

export function newClient(label: string): Client {
  const tag = runTag();
  return {
    name: `Cliente ${label} ${tag}`,
    phone: `1198${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`,
    cpf: randomCpf(),
    email: `online.${label.toLowerCase()}.${tag}@example.com`,
  };
}

/** Waits for the online-booking code e-mailed to `to` at or after `since`. */
export async function bookingCodeFor(to: string, since: number): Promise<string> {
  const dir = process.env.NAVALHA_OUTBOX_DIR;
  if (!dir) throw new Error('NAVALHA_OUTBOX_DIR is not set: the online booking test reads the code from the outbox');
  let code = '';
  await expect
    .poll(
      async () => {
        const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.json')).sort().reverse();
        for (const name of names) {
          const mail = JSON.parse(await readFile(join(dir, name), 'utf8')) as { to: string; text: string; at: string };
          if (mail.to === to && Date.parse(mail.at) >= since) {
            code = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';
            return code;
          }
        }
        return '';
      },
      { message: `an online booking code to ${to} in the outbox`, timeout: 15_000 },
    )
    .toMatch(/^\d{6}$/);
  return code;
}

/** The serious and critical WCAG 2.1 A/AA violations on the page (as in a11y.spec.ts). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`));
}

/** Centro, its 'Corte de cabelo' and a day from `ahead` working days on when Diego is free. */
export async function setup(request: APIRequestContext, ahead: number) {
  const token = await apiToken(request, ADMIN.email);
  const idCompany = await companyId(request, token, CENTRO);
  const idService = await serviceId(request, token, idCompany, SERVICE);
  const day = await freeDay(request, token, { idCompany, idService, fromDate: workingDayAhead(ahead), professionals: [BARBER1.name] });
  return { idCompany, day };
}

/** Chooses the service, Diego and the day on the public page. */
export async function chooseDiegoOn(page: Page, idCompany: number, day: string) {
  await page.goto(`/agendar/${idCompany}`);
  await expect(page.getByRole('heading', { level: 1, name: CENTRO })).toBeVisible();
  await page.getByRole('checkbox', { name: new RegExp(SERVICE) }).check();
  await page.getByRole('radio', { name: BARBER1.name }).check();
  await page.getByRole('button', { name: dayButton(day) }).click();
  await expect(page.getByRole('button', { name: dayButton(day) })).toHaveAttribute('aria-pressed', 'true');
}

/** The times offered for the chosen day, in order. */
export async function offeredTimes(page: Page): Promise<string[]> {
  const step = page.getByRole('region', { name: /Dia e horário/ });
  await expect(step.getByRole('button', { name: /^\d{2}:\d{2}$/ }).first()).toBeVisible();
  return step.getByRole('button', { name: /^\d{2}:\d{2}$/ }).allTextContents();
}

/** The consent to the confirmation and reminders by WhatsApp (issue 44): unticked by default. */
export const WHATSAPP_CONSENT = 'Quero receber a confirmação e os lembretes pelo WhatsApp';

/** Fills the client's details; `whatsApp` ticks the consent to WhatsApp messages. */
export async function fillDetails(page: Page, client: Client, { whatsApp = false } = {}) {
  await page.getByLabel('Nome', { exact: true }).fill(client.name);
  await page.getByLabel('Celular').fill(client.phone);
  if (whatsApp) await page.getByRole('checkbox', { name: WHATSAPP_CONSENT }).check();
  await page.getByLabel('CPF', { exact: true }).fill(client.cpf);
  await page.getByLabel('E-mail (opcional)').fill(client.email);
}

/** Asks for the code of the filled details, and types it. */
export async function enterCode(page: Page, client: Client) {
  const since = now() - 2000;
  await page.getByRole('button', { name: 'Receber código' }).click();
  await expect(page.getByText('Enviamos um código de 6 dígitos para o seu e-mail.')).toBeVisible();
  await page.getByLabel('Código', { exact: true }).fill(await bookingCodeFor(client.email, since));
}

/** Fills the client's details, asks for the code, and types it. */
export async function verify(page: Page, client: Client) {
  await fillDetails(page, client);
  await enterCode(page, client);
}

/** On the public page: Diego, the day, the first free time, the code; then 'Confirmar agendamento'. */
export async function bookOnce(page: Page, idCompany: number, day: string, client: Client) {
  await chooseDiegoOn(page, idCompany, day);
  const [time] = await offeredTimes(page);
  await page.getByRole('region', { name: /Dia e horário/ }).getByRole('button', { name: time, exact: true }).click();
  await verify(page, client);
  await page.getByRole('button', { name: 'Confirmar agendamento' }).click();
  return time;
}

export async function newPage(browser: Browser, width = 1280) {
  const context = await newContext(browser, { viewport: { width, height: width > 500 ? 800 : 844 } });
  return context.newPage();
}

/**
 * Screenshots `test-results/{name}-{width}.png` with `what` in view at each width, then puts
 * the page's size back.
 */
export async function screenshotsAt(page: Page, what: Locator, name: string, widths = [1280, 390]) {
  const size = page.viewportSize();
  for (const width of widths) {
    await page.setViewportSize({ width, height: width > 500 ? 800 : 844 });
    await what.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/${name}-${width}.png` });
  }
  if (size) await page.setViewportSize(size);
}
