import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  ADMIN,
  CENTRO,
  apiToken,
  bookFirstFree,
  companyId,
  createClient,
  goToDay,
  openAgenda,
  runTag,
  serviceId,
  signInAs,
  workingDayAhead,
} from './support';

/** The serious and critical WCAG 2.1 A/AA violations axe-core finds on the page, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map((node) => `${violation.id} (${violation.impact}): ${node.target.join(' ')} ${node.failureSummary ?? ''}`),
    );
}

/** Centro's professionals, each with their agenda colour. */
async function professionalsOfCentro(page: Page, token: string, idCompany: number) {
  const response = await page.request.get(`/api/professional/company/${idCompany}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.ok()).toBeTruthy();
  return (await response.json()) as { Name: string; Color: string }[];
}

/**
 * A day on which every professional of Centro who does 'Corte de cabelo' has a free time, with
 * one appointment of theirs booked through the API for a new client each; the first cancelled.
 */
async function bookAcrossProfessionals(request: APIRequestContext, ahead: number) {
  const tag = runTag();
  const token = await apiToken(request, ADMIN.email);
  const idCompany = await companyId(request, token, CENTRO);
  const idService = await serviceId(request, token, idCompany, 'Corte de cabelo');

  // A day on which every professional of Centro who does the service has a free time.
  const free = await request.get(
    `/api/no-auth/scheduling/available-times?idCompany=${idCompany}&idServices=[${idService}]&timesType=ONLY_AVAILABLES`,
    { headers: { Authorization: `Bearer ${token}` } },
  );
  const answer = (await free.json()) as {
    professionals: { idProfessional: number; name: string }[];
    times: { shortDate: string; freeHours: { idProfessional: number }[] }[];
  };
  const from = workingDayAhead(ahead);
  const entry = answer.times.find(
    (times) =>
      times.shortDate >= from &&
      answer.professionals.every((p) => times.freeHours.some((hour) => hour.idProfessional === p.idProfessional)),
  );
  expect(entry, 'a day with free times for every professional').toBeTruthy();
  const day = entry!.shortDate;
  expect(answer.professionals.length).toBeGreaterThanOrEqual(3);

  // One appointment per professional, each with its own client; the first one cancelled.
  const booked: { id: number; client: string }[] = [];
  for (const professional of answer.professionals) {
    const client = `Cliente A11y ${professional.name.split(' ')[0]} ${tag}`;
    const idUser = await createClient(request, token, client);
    const { id } = await bookFirstFree(request, token, { idCompany, professional: professional.name, date: day, idUser, idService });
    booked.push({ id, client });
  }
  const cancelled = await request.delete(`/api/scheduling/${booked[0].id}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(cancelled.ok(), await cancelled.text()).toBeTruthy();

  return { token, idCompany, day, booked };
}

/** Signs in as ADMIN and opens Centro's agenda on `day`. */
/** Waits until every booked card is on the list, the first one cancelled: no card moves after. */
async function allCardsShown(page: Page, booked: { client: string }[]) {
  for (const { client } of booked) await expect(page.getByRole('article').filter({ hasText: client })).toBeVisible();
  await expect(page.getByRole('article').filter({ hasText: booked[0].client }).getByText('Cancelado')).toBeVisible();
}

/** Opens a card's options menu and checks that all of it is inside the window. */
async function menuStaysOnScreen(page: Page, button: Locator) {
  await button.click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  const box = (await menu.boundingBox())!;
  const size = page.viewportSize()!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(size.width);
  expect(box.y + box.height).toBeLessThanOrEqual(size.height);
  return { menu: box, button: (await button.boundingBox())! };
}

/** Scrolls the window until `element` sits `margin` px above its bottom, with room below in the page. */
async function scrollToBottomEdge(page: Page, element: Locator, margin = 12) {
  // Room above the content, so that any card can be scrolled down to the bottom edge, and
  // below it, so that the page itself could show a menu opening downward.
  await page.addStyleTag({ content: '.shell-content { padding-top: 900px !important; padding-bottom: 1500px !important; }' });
  await element.evaluate((node, gap) => window.scrollBy(0, node.getBoundingClientRect().bottom - window.innerHeight + gap), margin);
}

test('the agenda, in the list and in the timeline, has no serious accessibility violation, and its dialog keeps the keyboard (issue 14)', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { token, idCompany, day, booked } = await bookAcrossProfessionals(request, 5);

  await openAgenda(page, ADMIN.email, day);
  const colours = await professionalsOfCentro(page, token, idCompany);
  expect(new Set(colours.map((p) => p.Color)).size).toBeGreaterThanOrEqual(3);
  // The list: every card there, the cancelled one marked.
  await allCardsShown(page, booked);
  await page.screenshot({ path: 'test-results/a11y-list-1280.png', fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  // The timeline: one coloured column per professional.
  await page.getByRole('button', { name: 'Linha do tempo' }).click();
  for (const { client } of booked) await expect(page.getByRole('listitem', { name: new RegExp(client) })).toBeVisible();
  await page.getByRole('listitem', { name: new RegExp(booked[1].client) }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/a11y-timeline-1280.png', fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  // A card's menu open, and the booking dialog.
  await page.getByRole('button', { name: `Opções do agendamento N.º ${booked[1].id}` }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  const opener = page.getByRole('button', { name: 'Novo agendamento' });
  await opener.click();
  await expect(page.getByRole('dialog', { name: 'Novo agendamento' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // The keyboard stays in the dialog (it used to leave it on 23 of 40 Tab presses) and
  // goes back to the opener when it closes.
  const inDialog = () => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'));
  for (let press = 0; press < 40; press += 1) {
    await page.keyboard.press(press % 4 === 3 ? 'Shift+Tab' : 'Tab');
    expect(await inDialog(), `Tab press ${press + 1}`).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(opener).toBeFocused();
});

test("a card's options menu stays on screen at 1280 px, in the list and in the timeline (issue 14)", async ({
  page,
  request,
}) => {
  const { day, booked } = await bookAcrossProfessionals(request, 6);
  await openAgenda(page, ADMIN.email, day);
  const last = booked[booked.length - 1];
  const button = page.getByRole('button', { name: `Opções do agendamento N.º ${last.id}` });
  await allCardsShown(page, booked);

  // At the bottom of the window the menu opens upward.
  await scrollToBottomEdge(page, button);
  const { menu, button: anchor } = await menuStaysOnScreen(page, button);
  expect(menu.y + menu.height).toBeLessThanOrEqual(anchor.y + 1);
  await page.screenshot({ path: 'test-results/a11y-menu-list-1280.png' });
  await page.keyboard.press('Escape');

  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole('button', { name: 'Linha do tempo' }).click();
  const event = page.getByRole('listitem', { name: new RegExp(last.client) });
  await scrollToBottomEdge(page, event);
  await menuStaysOnScreen(page, event.getByRole('button', { name: /^Opções do agendamento/ }));
  await page.screenshot({ path: 'test-results/a11y-menu-timeline-1280.png' });
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("a card's options menu stays on screen (issue 14)", async ({ page, request }) => {
    const { day, booked } = await bookAcrossProfessionals(request, 6);
    await signInAs(page, ADMIN.email);
    await page.goto('/dashboard/scheduling');
    await page.getByRole('combobox', { name: 'Filial' }).click();
    await page.getByRole('option', { name: new RegExp(CENTRO) }).click();
    await goToDay(page, day);
    const button = page.getByRole('button', { name: `Opções do agendamento N.º ${booked[1].id}` });
    // The mobile list shows the confirmed ones; the cancelled one is in the other list.
    for (const { client } of booked.slice(1)) await expect(page.getByRole('article').filter({ hasText: client })).toBeVisible();
    // Just above the + button, which stays in the corner.
    await scrollToBottomEdge(page, button, 90);
    const { menu, button: anchor } = await menuStaysOnScreen(page, button);
    expect(menu.y + menu.height).toBeLessThanOrEqual(anchor.y + 1);
    await page.screenshot({ path: 'test-results/a11y-menu-390.png' });
  });
});

test('the online booking page has no serious accessibility violation, at 1280 and at 390 px (issue 18)', async ({ page, request }) => {
  const token = await apiToken(request, ADMIN.email);
  const idCompany = await companyId(request, token, CENTRO);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width > 500 ? 800 : 844 });
    await page.goto(`/agendar/${idCompany}`);
    await expect(page.getByRole('heading', { level: 1, name: CENTRO })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    // Every step open: a service, a time, and the details form with its messages.
    await page.getByRole('checkbox', { name: /Corte de cabelo/ }).check();
    const time = page.getByRole('region', { name: /Dia e horário/ }).getByRole('button', { name: /^\d{2}:\d{2}$/ }).first();
    await time.click();
    await page.getByRole('button', { name: 'Receber código' }).click();
    await expect(page.getByText('Digite o CPF')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  }
});
