import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ADMIN, BARBER1, openAgenda } from './support';
import {
  LOST,
  SERVICE,
  WHATSAPP_CONSENT,
  chooseDiegoOn,
  dayButton,
  enterCode,
  fillDetails,
  newClient,
  newPage,
  offeredTimes,
  screenshotsAt,
  seriousViolations,
  setup,
  verify,
} from './online-support';

// Issue 18: a unit's public booking page, its e-mailed code, the staff agenda and the
// manage link. The code is read from the outbox folder (NAVALHA_OUTBOX_DIR).

test('a client books online with the e-mailed code, the staff agenda shows it as Online, and the link cancels it', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const { idCompany, day } = await setup(page.request, 4);
  const client = newClient('Online');

  await page.setViewportSize({ width: 390, height: 844 });
  await chooseDiegoOn(page, idCompany, day);
  const [time] = await offeredTimes(page);
  await page.getByRole('region', { name: /Dia e horário/ }).getByRole('button', { name: time, exact: true }).click();
  await expect(page.getByText(new RegExp(`${SERVICE} · .* às ${time} · ${BARBER1.name}`))).toBeVisible();
  // The WhatsApp consent (issue 44): unticked until the client ticks it.
  await expect(page.getByRole('checkbox', { name: WHATSAPP_CONSENT })).not.toBeChecked();
  await fillDetails(page, client, { whatsApp: true });
  await expect(page.getByRole('checkbox', { name: WHATSAPP_CONSENT })).toBeChecked();
  await screenshotsAt(page, page.getByRole('form', { name: 'Seus dados' }), 'online-booking-details');
  await enterCode(page, client);
  await page.screenshot({ path: 'test-results/online-booking-code-390.png', fullPage: true });
  await page.getByRole('button', { name: 'Confirmar agendamento' }).click();

  const confirmed = page.getByRole('region', { name: 'Agendamento confirmado!' });
  await expect(confirmed).toBeVisible();
  await expect(confirmed).toContainText(BARBER1.name);
  await expect(confirmed).toContainText(`${time} às`);
  await expect(confirmed).toContainText(SERVICE);
  await page.screenshot({ path: 'test-results/online-booking-confirmed-390.png', fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  // The calendar file, at the unit's wall time.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Adicionar ao calendário' }).click();
  const ics = await readFile((await (await download).path())!, 'utf8');
  expect(ics).toContain(`DTSTART;TZID=America/Sao_Paulo:${day.replaceAll('-', '')}T${time.replace(':', '')}00`);
  expect(ics).toContain('BEGIN:VEVENT');

  // The staff agenda: the booking, marked Online.
  const staff = await newPage(browser);
  await openAgenda(staff, ADMIN.email, day);
  const card = staff.getByRole('article').filter({ hasText: client.name });
  await expect(card).toBeVisible();
  await expect(card.getByText('Online', { exact: true })).toBeVisible();
  await expect(card.getByRole('img', { name: 'Agendado online' })).toBeVisible();
  await staff.screenshot({ path: 'test-results/online-booking-agenda-1280.png', fullPage: true });
  // The timeline's block and the week's carry the mark too (the week's, the compact one).
  await staff.getByRole('button', { name: 'Linha do tempo' }).click();
  const block = staff.getByRole('region', { name: 'Linha do tempo' }).getByRole('listitem').filter({ hasText: client.name });
  await expect(block.getByRole('img', { name: 'Agendado online' })).toBeVisible();
  await screenshotsAt(staff, block, 'online-booking-timeline', [1280]);
  await staff.getByRole('combobox', { name: 'Profissional' }).click();
  await staff.getByRole('option', { name: BARBER1.name }).click();
  await staff.getByRole('button', { name: 'Semana' }).click();
  const weekBlock = staff.getByRole('region', { name: `Semana de ${BARBER1.name}` }).getByRole('listitem').filter({ hasText: client.name });
  await expect(weekBlock.getByRole('img', { name: 'Agendado online' })).toBeVisible();
  await screenshotsAt(staff, weekBlock, 'online-booking-week', [1280]);
  // At 390 px the agenda is the mobile list: the card's badge.
  await staff.setViewportSize({ width: 390, height: 844 });
  const mobileCard = staff.getByRole('article').filter({ hasText: client.name });
  await expect(mobileCard.getByRole('img', { name: 'Agendado online' })).toBeVisible();
  await screenshotsAt(staff, mobileCard, 'online-booking-agenda', [390]);
  await staff.setViewportSize({ width: 1280, height: 800 });
  await staff.getByRole('button', { name: 'Lista' }).click();

  // The manage link: details, then cancel.
  await page.getByRole('link', { name: 'Cancelar ou remarcar' }).click();
  await expect(page).toHaveURL(new RegExp(`/agendar/${idCompany}/reserva/`));
  await expect(page.getByRole('heading', { name: 'Seu agendamento' })).toBeVisible();
  await expect(page.getByText('Confirmado', { exact: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/online-booking-manage-390.png', fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  // Rescheduled to another of Diego's times that day: the same services, a new time. The
  // booking's own time is offered (the link's token makes it free) and marked.
  await page.getByRole('button', { name: 'Remarcar' }).click();
  const panel = page.getByRole('region', { name: 'Remarcar' });
  await expect(panel.getByRole('button', { name: dayButton(day) })).toHaveAttribute('aria-pressed', 'true');
  await expect(panel.getByRole('button', { name: `${time} Horário atual`, exact: true })).toBeVisible();
  await panel.getByRole('radio', { name: BARBER1.name }).check();
  await panel.getByRole('button', { name: dayButton(day) }).click();
  const current = panel.getByRole('button', { name: `${time} Horário atual`, exact: true });
  await expect(current).toBeVisible();
  await screenshotsAt(page, current, 'online-booking-reschedule-current');
  // Choosing it moves nothing.
  await current.click();
  await panel.getByRole('button', { name: 'Confirmar remarcação' }).click();
  await expect(panel.getByRole('alert')).toHaveText('Este já é o horário do seu agendamento. Escolha outro horário.');
  const other = (await panel.getByRole('button', { name: /^\d{2}:\d{2}$/ }).allTextContents()).find((start) => start !== time);
  expect(other, 'another free time of Diego that day').toBeTruthy();
  await panel.getByRole('button', { name: other!, exact: true }).click();
  await page.screenshot({ path: 'test-results/online-booking-reschedule-390.png', fullPage: true });
  await panel.getByRole('button', { name: 'Confirmar remarcação' }).click();
  await expect(page.getByText('Agendamento remarcado.')).toBeVisible();
  await expect(page.getByText(new RegExp(`^${other} às`))).toBeVisible();
  await expect(card).toContainText(`${other} -`, { timeout: 15_000 });

  await page.getByRole('button', { name: 'Cancelar agendamento' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancelar agendamento?' });
  await dialog.getByRole('button', { name: 'Cancelar agendamento' }).click();
  await expect(page.getByText('Agendamento cancelado.')).toBeVisible();
  await expect(page.getByText('Cancelado', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remarcar' })).toHaveCount(0);
  // Read again, the link says the same.
  await page.reload();
  await expect(page.getByText('Cancelado', { exact: true })).toBeVisible();

  // The agenda, live, shows it cancelled.
  await expect(card.getByText('Cancelado')).toBeVisible({ timeout: 15_000 });
  await staff.context().close();
});

test('two clients race for the same last time: one books it, the other is told and sees fresh times', async ({ browser, request }) => {
  test.setTimeout(150_000);
  const { idCompany, day } = await setup(request, 6);
  const pages = [await newPage(browser), await newPage(browser, 390)];
  const clients = [newClient('Corrida'), newClient('Corrida')];

  // Both choose Diego's last time of the day.
  let last = '';
  for (const page of pages) {
    await chooseDiegoOn(page, idCompany, day);
    const times = await offeredTimes(page);
    last = times[times.length - 1];
    await page.getByRole('region', { name: /Dia e horário/ }).getByRole('button', { name: last, exact: true }).click();
  }
  for (const [i, page] of pages.entries()) await verify(page, clients[i]);

  // Both confirm at once.
  await Promise.all(pages.map((page) => page.getByRole('button', { name: 'Confirmar agendamento' }).click()));
  const outcome = async (page: Page) => {
    const won = page.getByRole('region', { name: 'Agendamento confirmado!' });
    const lost = page.getByRole('alert').filter({ hasText: LOST });
    await expect(won.or(lost)).toBeVisible();
    return (await won.isVisible()) ? 'won' : 'lost';
  };
  const outcomes = await Promise.all(pages.map(outcome));
  expect([...outcomes].sort()).toEqual(['lost', 'won']);
  const loser = pages[outcomes.indexOf('lost')];

  // The loser: a clear message, the lost time no longer offered, the verification kept.
  const step = loser.getByRole('region', { name: /Dia e horário/ });
  await expect(step.getByRole('alert')).toHaveText(LOST);
  await expect(step.getByRole('button', { name: last, exact: true })).toHaveCount(0);
  await expect(loser.getByLabel('Código', { exact: true })).toHaveCount(0);
  await expect(loser.getByRole('button', { name: 'Confirmar agendamento' })).toBeVisible();
  await loser.screenshot({ path: `test-results/online-booking-race-lost-${loser.viewportSize()!.width}.png`, fullPage: true });

  // Another time, with no new code.
  const times = await offeredTimes(loser).catch(() => [] as string[]);
  if (times.length) {
    await step.getByRole('button', { name: times[0], exact: true }).click();
    await loser.getByRole('button', { name: 'Confirmar agendamento' }).click();
    await expect(loser.getByRole('region', { name: 'Agendamento confirmado!' })).toBeVisible();
  }
  for (const page of pages) await page.context().close();
});

test.describe('at 1280 px', () => {
  test('the booking page lays out the unit, the steps and the form', async ({ page }) => {
    const { idCompany, day } = await setup(page.request, 5);
    await chooseDiegoOn(page, idCompany, day);
    const [time] = await offeredTimes(page);
    await page.getByRole('region', { name: /Dia e horário/ }).getByRole('button', { name: time, exact: true }).click();
    await expect(page.getByRole('button', { name: 'Receber código' })).toBeVisible();
    // The form's own checks.
    await page.getByRole('button', { name: 'Receber código' }).click();
    await expect(page.getByText('Digite o CPF')).toBeVisible();
    await page.screenshot({ path: 'test-results/online-booking-steps-1280.png', fullPage: true });
    // An unknown unit.
    await page.goto('/agendar/999999');
    await expect(page.getByRole('alert')).toHaveText('Barbearia não encontrada.');
  });
});
