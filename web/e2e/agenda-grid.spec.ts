import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ADMIN, agendaSetup, bookFirstFree, freeTimes, openAgenda, toast, type AgendaSetup } from './support';

// The agenda's grid used with the pointer (issue 14): a click on an empty slot, a drag to
// another time, a blocked time, and the week.

const DIEGO = 'Diego Barbeiro';
/** The grid's geometry (timeline.ts): from 9:00, 122 px an hour row, 2 px a minute. */
const yOf = (time: string) => {
  const [h, m] = time.split(':').map(Number);
  const offset = h * 60 + m - 9 * 60;
  return Math.floor(offset / 60) * 122 + (offset % 60) * 2;
};

/** Diego's free starts on the day, on quarter hours. */
async function diegosFreeStarts(request: APIRequestContext, s: AgendaSetup): Promise<string[]> {
  const answer = await freeTimes(request, s.token, s.idCompany, s.idService);
  const diego = answer.professionals.find((p) => p.name === DIEGO)!.idProfessional;
  return (answer.times.find((t) => t.shortDate === s.day)?.freeHours ?? [])
    .filter((h) => h.idProfessional === diego && Number(h.start.slice(3, 5)) % 15 === 0)
    .map((h) => h.start);
}

async function openTimeline(page: Page, day: string) {
  await openAgenda(page, ADMIN.email, day);
  await page.getByRole('button', { name: 'Linha do tempo' }).click();
}

const column = (page: Page) => page.getByRole('list', { name: `Agenda de ${DIEGO}` });
const event = (scope: Locator, id: number) => scope.getByRole('listitem', { name: new RegExp(`^Agendamento N\\.º ${id}:`) });

test('a click on an empty slot opens Novo agendamento with the professional, day and time filled in', async ({ page, request }) => {
  const s = await agendaSetup(request, 'Cliente Slot', 5, 12);
  await bookFirstFree(request, s.token, { idCompany: s.idCompany, professional: DIEGO, date: s.day, idUser: s.idUser, idService: s.idService });
  const free = await diegosFreeStarts(request, s);
  const slot = free[free.length - 1];
  await openTimeline(page, s.day);

  await column(page).click({ position: { x: 20, y: yOf(slot) + 4 } });
  const modal = page.getByRole('dialog', { name: 'Novo agendamento' });
  const [y, m, d] = s.day.split('-');
  await expect(modal).toContainText(`Horário escolhido na agenda: ${d}/${m}/${y} às ${slot}`);
  await modal.getByLabel('Buscar cliente').fill(s.client);
  await modal.getByRole('radio', { name: `Selecionar ${s.client}` }).check();
  await modal.getByRole('button', { name: 'Próximo' }).click();
  await modal.getByRole('checkbox', { name: /Corte de cabelo/ }).check();
  await modal.getByRole('button', { name: 'Próximo' }).click();
  await expect(modal.getByRole('combobox', { name: 'Profissional' })).toHaveValue(DIEGO);
  await expect(modal.getByRole('button', { name: slot, exact: true })).toHaveAttribute('aria-pressed', 'true');
  await page.screenshot({ path: 'test-results/agenda-slot-1280.png' });
  await modal.getByRole('button', { name: 'Confirmar' }).click();
  await expect(toast(page, `Agendamento realizado com sucesso! ${d}/${m}/${y} às ${slot}.`)).toBeVisible();
  await expect(column(page).getByRole('listitem', { name: new RegExp(`${s.client}, ${slot}`) }).first()).toBeVisible();
});

/**
 * Drags a card by its middle so that its top lands on `time`. The whole grid (9:00 to 21:00)
 * fits the window of these tests, so nothing scrolls during the drag.
 */
async function dragTo(card: Locator, target: Locator, time: string) {
  const box = (await card.boundingBox())!;
  const grab = { x: 10, y: Math.round(box.height / 2) };
  await card.dragTo(target, { sourcePosition: grab, targetPosition: { x: 40, y: yOf(time) + grab.y } });
}

test.describe('with the whole day on screen', () => {
  test.use({ viewport: { width: 1280, height: 1700 } });

  test('dragging moves an appointment; a refused move puts it back with the server message', async ({ page, request }) => {
    const s = await agendaSetup(request, 'Cliente Arrastar', 5, 12);
    const first = await bookFirstFree(request, s.token, { idCompany: s.idCompany, professional: DIEGO, date: s.day, idUser: s.idUser, idService: s.idService });
    const second = await bookFirstFree(request, s.token, {
      idCompany: s.idCompany,
      professional: DIEGO,
      date: s.day,
      idUser: s.idUser,
      idService: s.idService,
    });
    // Free times are read without the bookings' position: leave out what was just booked.
    const booked = [first.start.slice(0, 5), second.start.slice(0, 5)];
    const free = (await diegosFreeStarts(request, s)).filter((start) => start > booked[1] && start >= '13:00');
    const target = free[free.length - 1];
    await openTimeline(page, s.day);
  
    const moving = event(column(page), first.id);
    await expect(moving).toContainText(first.start.slice(0, 5));
    await dragTo(moving, column(page), target);
    const [y, m, d] = s.day.split('-');
    await expect(toast(page, `Agendamento N.º ${first.id} movido para ${d}/${m}/${y} às ${target}.`)).toBeVisible();
    await expect(moving).toHaveAttribute('aria-label', new RegExp(`, ${target} - `));
  
    // Onto the other appointment's time: the server refuses, the card goes back.
    const taken = second.start.slice(0, 5);
    await dragTo(moving, column(page), taken);
    await expect(page.getByRole('alert').filter({ hasText: /hor[aá]rio/i }).last()).toBeVisible();
    await expect(moving).toHaveAttribute('aria-label', new RegExp(`, ${target} - `));
    const saved = await request.get(`/api/scheduling/${first.id}`, { headers: { Authorization: `Bearer ${s.token}` } });
    expect(((await saved.json()) as { StartTime: string }).StartTime.slice(0, 5)).toBe(target);
    await page.screenshot({ path: 'test-results/agenda-drag-refused-1280.png' });
  });
});

test('an admin blocks a time: the grid shows it and the free times leave it out', async ({ page, request }) => {
  const s = await agendaSetup(request, 'Cliente Bloqueio', 6, 12);
  // A day whose afternoon is free from 16:00 to 17:15 (the database lives across runs).
  const answer = await freeTimes(request, s.token, s.idCompany, s.idService);
  const diego = answer.professionals.find((p) => p.name === DIEGO)!.idProfessional;
  const wanted = ['16:00', '16:30', '17:00'];
  s.day = answer.times.find(
    (t) => t.shortDate >= s.day && wanted.every((w) => t.freeHours.some((h) => h.idProfessional === diego && h.start === w)),
  )!.shortDate;
  await bookFirstFree(request, s.token, { idCompany: s.idCompany, professional: DIEGO, date: s.day, idUser: s.idUser, idService: s.idService });
  await openTimeline(page, s.day);

  await page.getByRole('button', { name: `Bloquear horário de ${DIEGO}` }).click();
  const dialog = page.getByRole('dialog', { name: `Bloquear horário de ${DIEGO}` });
  await expect(dialog.getByLabel('Descrição')).toHaveValue('Horário bloqueado');
  await expect(dialog.getByRole('radio', { name: 'Horário específico' })).toBeChecked();
  await dialog.getByLabel('Horário inicial').fill('16:00');
  await dialog.getByLabel('Horário final').fill('17:00');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, 'Folga/férias cadastrada com sucesso.')).toBeVisible();
  await expect(column(page).getByRole('listitem', { name: 'Horário bloqueado: Horário bloqueado, 16:00 - 17:00' })).toBeVisible();
  await page.screenshot({ path: 'test-results/agenda-blocked-1280.png' });

  const after = await diegosFreeStarts(request, s);
  expect(after.filter((start) => start > '15:30' && start < '17:00')).toEqual([]);
  expect(after).toContain('17:00');

  // Taken back out, so that later runs find Diego's afternoon free.
  const blocks = await request.get(`/api/day-off/company/${s.idCompany}?date=${s.day}`, { headers: { Authorization: `Bearer ${s.token}` } });
  for (const block of (await blocks.json()) as { IdDayOff: number; StartTime: string }[]) {
    if (block.StartTime === '16:00') {
      const removed = await request.delete(`/api/day-off/${block.IdDayOff}`, { headers: { Authorization: `Bearer ${s.token}` } });
      expect(removed.ok()).toBeTruthy();
    }
  }
});

test("the week view shows one professional's seven days on the same grid", async ({ page, request }) => {
  const s = await agendaSetup(request, 'Cliente Semana', 3, 12);
  const booked = await bookFirstFree(request, s.token, { idCompany: s.idCompany, professional: DIEGO, date: s.day, idUser: s.idUser, idService: s.idService });
  await openTimeline(page, s.day);
  await page.getByRole('button', { name: 'Semana' }).click();
  await expect(page.getByText('Escolha um profissional no filtro para ver a semana.')).toBeVisible();
  await page.getByRole('combobox', { name: 'Profissional', exact: true }).click();
  await page.getByRole('option', { name: DIEGO }).first().click();
  const week = page.getByRole('region', { name: `Semana de ${DIEGO}` });
  await expect(week.getByRole('list')).toHaveCount(7);
  const [y, m, d] = s.day.split('-');
  const dayColumn = week.getByRole('list', { name: new RegExp(`, ${d}/${m}/${y}$`) });
  await expect(event(dayColumn, booked.id)).toBeVisible();
  await page.screenshot({ path: 'test-results/agenda-week-1280.png', fullPage: true });
});
