import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { unitToday } from './clock';
import { dismissToasts, screenshots } from './backoffice-a-support';
import { ADMIN, BARBER1, agendaSetup, bookFirstFree, daysAfter, freeTimes, goToDay, openAgenda, toast } from './support';

// Issue 41 §1, §8: the appointment's life ends somewhere. A client who never came is marked
// 'Não compareceu' from the agenda's card; another gets 'Abrir comanda', which leads to the
// comanda of the appointment, and the card then offers 'Ver comanda'.

const ATTENDANT = 'atendente@navalha.dev';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const card = (page: Page, id: number) => page.getByRole('article', { name: new RegExp(`^Agendamento N\\.º ${id}: `) });
const options = (page: Page, id: number) => page.getByRole('button', { name: `Opções do agendamento N.º ${id}` });
const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The open days before today, newest first: the units open Monday to Saturday, not on the demo holidays. */
function openDaysBefore(count: number): string[] {
  const days: string[] = [];
  for (let day = daysAfter(unitToday(), -1); days.length < count; day = daysAfter(day, -1)) {
    const sunday = new Date(`${day}T12:00:00Z`).getUTCDay() === 0;
    if (!sunday && !['12-25', '01-01'].includes(day.slice(5))) days.push(day);
  }
  return days;
}

/**
 * Books a 'Corte de cabelo' with Diego on a past open day, through the API, as the desk records
 * a visit after the fact: ALL_TIMES checks only the unit's opening hours (09:00-21:00) and the
 * professional's other bookings. Starts are tried from the evening back, past days from
 * yesterday back, until one is free (a long-lived database fills them up).
 */
async function bookInThePast(
  request: APIRequestContext,
  token: string,
  opts: { idCompany: number; idService: number; idUser: number },
): Promise<{ id: number; date: string }> {
  const answer = await freeTimes(request, token, opts.idCompany, opts.idService);
  const diego = answer.professionals.find((p) => p.name === BARBER1.name);
  expect(diego, `${BARBER1.name} offers the service`).toBeTruthy();
  // The service's length for Diego, as his free times give it.
  const hour = answer.times.flatMap((day) => day.freeHours).find((h) => h.idProfessional === diego!.idProfessional);
  const length = hour ? minutesOf(hour.end) - minutesOf(hour.start) : 30;
  let last = '';
  for (const date of openDaysBefore(3)) {
    for (let start = 21 * 60 - length; start >= 9 * 60; start -= 15) {
      const booked = await request.post('/api/scheduling/professional', {
        headers: auth(token),
        data: {
          idCompanyProfessional: diego!.idCompanyProfessional,
          date,
          startTime: hhmm(start),
          endTime: hhmm(start + length),
          idServices: [opts.idService],
          idUser: opts.idUser,
          observation: '',
          timesType: 'ALL_TIMES',
        },
      });
      if (booked.status() === 201) return { id: ((await booked.json()) as { IdScheduling: number }).IdScheduling, date };
      last = `${booked.status()} ${await booked.text()}`;
      // Taken by another booking of Diego's: the next start.
      if (booked.status() !== 409) break;
    }
  }
  throw new Error(`no past time of ${BARBER1.name} could be booked; the last answer: ${last}`);
}

test("a client who never came is marked 'Não compareceu' from the card, and the card says so", async ({ page, request }) => {
  const { token, idCompany, idService, idUser } = await agendaSetup(request, 'Cliente Ausente', 1);
  const past = await bookInThePast(request, token, { idCompany, idService, idUser });

  await openAgenda(page, ADMIN.email, past.date);
  await expect(card(page, past.id)).toBeVisible();
  await options(page, past.id).click();
  // It started long ago: no 'Confirmar' (the server refuses it), no arrival on another day.
  await expect(page.getByRole('menuitem', { name: 'Confirmar' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: 'Cliente chegou' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: 'Abrir comanda' })).toBeVisible();
  await page.getByRole('menuitem', { name: 'Não compareceu' }).click();
  await expect(toast(page, `Agendamento N.º ${past.id} marcado como 'Não compareceu'.`)).toBeVisible();
  await expect(card(page, past.id).getByText('Não compareceu', { exact: true })).toBeVisible();

  // Read again from the server (not only the optimistic change): still marked, and nothing
  // more to do with it, not even the undo, which is for the appointment's day.
  await page.reload();
  await goToDay(page, past.date);
  await expect(card(page, past.id).getByText('Não compareceu', { exact: true })).toBeVisible();
  await options(page, past.id).click();
  for (const name of ['Cliente chegou', 'Não compareceu', 'Desfazer não compareceu', 'Abrir comanda', 'Ver comanda']) {
    await expect(page.getByRole('menuitem', { name, exact: true })).toHaveCount(0);
  }
  // ADMIN's history of the appointment records who marked it.
  await page.getByRole('menuitem', { name: 'Histórico' }).click();
  const history = page.getByRole('dialog', { name: `Histórico do agendamento N.º ${past.id}` });
  await expect(history.getByRole('listitem').first()).toContainText('Não compareceu');
  await history.getByRole('button', { name: 'Fechar' }).click();

  await dismissToasts(page);
  const axe = await new AxeBuilder({ page }).include('.agenda').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
  expect(serious, 'no serious accessibility violation on the agenda with a state badge').toEqual([]);

  // The timeline's block says it too.
  await page.getByRole('button', { name: 'Linha do tempo' }).click();
  await expect(page.getByRole('listitem', { name: new RegExp(`^Agendamento N\\.º ${past.id}: `) })).toContainText('Não compareceu');
  await page.getByRole('button', { name: 'Lista' }).click();
  await screenshots(page, 'attendance-no-show', async () => {
    await expect(card(page, past.id).getByText('Não compareceu', { exact: true })).toBeVisible();
  });
});

test("the front desk opens an appointment's comanda from the card and lands on it", async ({ page, request }) => {
  const { token, idCompany, idService, idUser, client, day } = await agendaSetup(request, 'Cliente Comanda', 2);
  const booked = await bookFirstFree(request, token, { idCompany, professional: BARBER1.name, date: day, idUser, idService });

  await openAgenda(page, ATTENDANT, day);
  await options(page, booked.id).click();
  await page.getByRole('menuitem', { name: 'Abrir comanda' }).click();
  await expect(toast(page, 'Comanda aberta.')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/comanda\/\d+$/);
  const number = page.url().replace(/^.*\/(\d+)$/, '$1');

  // The appointment's service, professional and client came in.
  await expect(page.getByRole('heading', { name: `Comanda N.º ${number}` })).toBeVisible();
  await expect(page.getByText('Aberta', { exact: true })).toBeVisible();
  await expect(page.getByText(client)).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(`^N\\.º ${booked.id}( |$)`) })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Itens' }).getByRole('row').filter({ hasText: 'Corte de cabelo' })).toContainText(
    BARBER1.name,
  );
  await screenshots(page, 'attendance-comanda', async () => {
    await expect(page.getByRole('region', { name: 'Resumo da comanda' })).toBeInViewport();
  });

  // Back on the agenda, the card leads to that comanda; a second one is not offered.
  await page.goBack();
  await expect(card(page, booked.id)).toBeVisible();
  await options(page, booked.id).click();
  await expect(page.getByRole('menuitem', { name: 'Abrir comanda' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Ver comanda' }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/comanda/${number}$`));
  await expect(page.getByRole('heading', { name: `Comanda N.º ${number}` })).toBeVisible();
});
