import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { unitInstant } from './clock';
import { dismissToasts } from './backoffice-a-support';
import { ADMIN, BARBER1, agendaSetup, bookFirstFree, moveToAnotherFreeTime, openAgenda } from './support';

// Issue 14 item 4: the day's agenda as it stood at a past instant, replayed from the events,
// read-only and clearly marked.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const dateBR = (iso: string) => iso.slice(0, 10).split('-').reverse().join('/');
const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/${name}.png`, fullPage: true });

test('an ADMIN sees a day as it stood before a move and a booking, read-only, then goes back to now', async ({
  page,
  request,
}) => {
  const { token, idCompany, idService, idUser, client, day } = await agendaSetup(request, 'Cliente Passado', 4, 3);
  const booking = { idCompany, professional: BARBER1.name, date: day, idUser, idService };
  const first = await bookFirstFree(request, token, booking);
  // The instant is read to the second: keep clear of the booking before and the move after.
  await sleep(2000);
  const before = unitInstant();
  await sleep(2000);
  const movedTo = await moveToAnotherFreeTime(request, token, { ...booking, id: first.id, from: first.start });
  const second = await bookFirstFree(request, token, booking);

  await openAgenda(page, ADMIN.email, day);
  const card = (id: number) => page.getByRole('article', { name: new RegExp(`N\\.º ${id}: `) });
  await expect(card(first.id)).toHaveAccessibleName(`Agendamento N.º ${first.id}: ${client}, ${movedTo}`);
  await expect(card(second.id)).toBeVisible();
  await dismissToasts(page);

  await page.getByRole('button', { name: 'Visão do passado' }).click();
  const bar = page.getByRole('region', { name: 'Visão do passado' });
  await bar.getByLabel('Como estava em').fill(before);
  await expect(bar.getByRole('status')).toHaveText(
    `A agenda de ${dateBR(day)} como estava em ${dateBR(before)} às ${before.slice(11)}. Somente leitura: nada pode ser alterado aqui.`,
  );
  // Then: the first booking at its first time, the second not made yet; nothing can be changed.
  await expect(card(first.id)).toHaveAccessibleName(`Agendamento N.º ${first.id}: ${client}, ${first.start}`);
  await expect(card(second.id)).toHaveCount(0);
  await expect(page.getByRole('button', { name: `Opções do agendamento N.º ${first.id}` })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Novo agendamento' })).toHaveCount(0);
  await shot(page, 'past-view-list-1280');
  const axe = await new AxeBuilder({ page }).include('.agenda').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
  expect(serious, 'no serious accessibility violation in the past view').toEqual([]);
  // 'Histórico' stays: what came after the instant is one click away.
  await page.getByRole('button', { name: `Histórico do agendamento N.º ${first.id}` }).click();
  const history = page.getByRole('dialog', { name: `Histórico do agendamento N.º ${first.id}` });
  await expect(history.getByRole('listitem').first()).toContainText('Horário alterado');
  await history.getByRole('button', { name: 'Fechar' }).click();

  // The timeline shows the same past, without options or empty slots to click.
  await page.getByRole('button', { name: 'Linha do tempo' }).click();
  const event = page.getByRole('listitem', { name: new RegExp(`^Agendamento N\\.º ${first.id}: `) });
  await expect(event).toHaveAccessibleName(new RegExp(`${client}, ${first.start} - `));
  await expect(event.getByRole('button', { name: `Opções do agendamento N.º ${first.id}` })).toHaveCount(0);
  await expect(event.getByRole('button', { name: `Histórico do agendamento N.º ${first.id}` })).toBeVisible();
  await expect(page.getByRole('listitem', { name: new RegExp(`^Agendamento N\\.º ${second.id}: `) })).toHaveCount(0);
  await shot(page, 'past-view-timeline-1280');

  // Back to now: the move and the second booking, with their options.
  await bar.getByRole('button', { name: 'Voltar ao presente' }).click();
  await expect(bar).toBeHidden();
  await expect(event).toHaveAccessibleName(new RegExp(`${client}, ${movedTo} - `));
  await expect(page.getByRole('listitem', { name: new RegExp(`^Agendamento N\\.º ${second.id}: `) })).toBeVisible();
  await expect(page.getByRole('button', { name: `Opções do agendamento N.º ${first.id}` })).toBeVisible();
  await page.getByRole('button', { name: 'Lista' }).click();

  // A cancelled card has no options menu (spec 01 §2), but ADMIN still reaches its history.
  const cancelled = await request.delete(`/api/scheduling/${second.id}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(cancelled.status()).toBe(200);
  await expect(card(second.id)).toContainText('Cancelado');
  await expect(page.getByRole('button', { name: `Opções do agendamento N.º ${second.id}` })).toHaveCount(0);
  await page.getByRole('button', { name: `Histórico do agendamento N.º ${second.id}` }).click();
  const audit = page.getByRole('dialog', { name: `Histórico do agendamento N.º ${second.id}` });
  await expect(audit.getByRole('listitem').first()).toContainText('Cancelado');
});
