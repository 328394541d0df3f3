import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { daysAfter, unitNow, unitToday, workingDayAhead } from './clock';
import { ADMIN, BARBER1, agendaSetup, bookFirstFree, freeTimes, goToDay, openAgenda, toast, type AgendaSetup } from './support';

// Issue 45, point 2: the grid shows when people work. What nobody can take is shaded (outside
// the professional's working periods, outside the unit's opening hours, holidays, closed days,
// the past), a click there says why at once instead of opening 'Novo agendamento', and the
// professionals' heads stay on top while the grid scrolls. Demo data: the barbers have lunch
// from 12:00 to 13:00, Tuesday to Saturday; Centro opens 09:00 to 21:00.

const DIEGO = BARBER1.name;
const OFF_HOURS = 'Horário fora do expediente do profissional.';
const PAST = 'Não é possível agendar em um horário passado';

/** The grid's geometry (timeline.ts): from 9:00, 122 px an hour row, 2 px a minute. */
const minutes = (time: string) => {
  const [h, m] = time.split(':').map(Number);
  return h * 60 + m;
};
const yAt = (minute: number) => Math.floor((minute - 9 * 60) / 60) * 122 + ((minute - 9 * 60) % 60) * 2;
const yOf = (time: string) => yAt(minutes(time));

const column = (page: Page) => page.getByRole('list', { name: `Agenda de ${DIEGO}` });
/** [kind, top, height] of each shade drawn in Diego's column. */
const shadesOf = (page: Page) =>
  column(page)
    .locator('[data-shade]')
    .evaluateAll((nodes) => nodes.map((node) => [node.getAttribute('data-shade'), (node as HTMLElement).style.top, (node as HTMLElement).style.height]));

/** The minutes Diego is busy on a day (appointments, cancelled ones too, and their 'Intervalo após'): no empty slot there. */
async function diegosBusySpans(request: APIRequestContext, s: AgendaSetup, day: string) {
  const answer = await freeTimes(request, s.token, s.idCompany, s.idService);
  const diego = answer.professionals.find((p) => p.name === DIEGO)!.idProfessional;
  const list = await request.get(`/api/scheduling/professional?idCompany=${s.idCompany}&date=${day}&idProfessional=${diego}&status=0`, {
    headers: { Authorization: `Bearer ${s.token}` },
  });
  expect(list.ok()).toBeTruthy();
  const items = (await list.json()) as { StartTime: string; EndTime: string; IntervalAfter?: number }[];
  return items.map((item) => ({ start: minutes(item.StartTime), end: minutes(item.EndTime) + (item.IntervalAfter ?? 0) }));
}

test('the timeline shades what nobody can take, says why a click there cannot be booked, and keeps its heads in sight', async ({
  page,
  request,
}) => {
  const s = await agendaSetup(request, 'Cliente Sombra', 2, 4);
  // An appointment, so that the day offers the views.
  await bookFirstFree(request, s.token, { idCompany: s.idCompany, professional: DIEGO, date: s.day, idUser: s.idUser, idService: s.idService });
  await openAgenda(page, ADMIN.email, s.day);
  await page.getByRole('button', { name: 'Linha do tempo' }).click();

  // Lunch is shaded as off hours, 12:00 to 13:00.
  await expect.poll(() => shadesOf(page)).toContainEqual(['off', `${yOf('12:00')}px`, `${yOf('13:00') - yOf('12:00')}px`]);

  // A click at 12:15 says why at once, and opens nothing.
  await column(page).click({ position: { x: 20, y: yOf('12:15') + 4 } });
  await expect(toast(page, OFF_HOURS)).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Novo agendamento' })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/agenda-shading-1280.png' });

  // The heads stay in sight while the grid scrolls down.
  const grid = page.getByRole('region', { name: 'Linha do tempo' });
  const head = page.getByRole('button', { name: `Bloquear horário de ${DIEGO}` });
  await grid.evaluate((node) => node.scrollIntoView({ block: 'start' }));
  await grid.evaluate((node) => node.scrollTo({ top: 0 }));
  const top = (await column(page).boundingBox())!.y;
  const box = (await grid.boundingBox())!;
  const viewport = page.viewportSize()!;
  await page.mouse.move(box.x + box.width / 2, Math.min(box.y + box.height, viewport.height) - 40);
  await page.mouse.wheel(0, 900);
  await expect.poll(async () => (await column(page).boundingBox())!.y).toBeLessThan(top - 300);
  await expect(head).toBeInViewport();
  // The column's top went under the head, which stayed at the top of the grid.
  expect((await column(page).boundingBox())!.y).toBeLessThan((await head.boundingBox())!.y);
  await page.screenshot({ path: 'test-results/agenda-shading-scrolled-1280.png' });

  // At 390 px the agenda is the mobile list of spec 01 §2 (no grid): what the phone shows.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(grid).toHaveCount(0);
  await page.screenshot({ path: 'test-results/agenda-shading-390.png' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(grid).toBeVisible();

  // The past: today when the barbers work today and part of the grid is behind us; otherwise
  // yesterday, past all day.
  const today = unitToday();
  const clock = unitNow();
  const nowMinutes = clock.getUTCHours() * 60 + clock.getUTCMinutes();
  const pastDay = workingDayAhead(0) === today && nowMinutes >= 9 * 60 + 20 ? today : daysAfter(today, -1);
  const lastPast = pastDay === today ? Math.min(nowMinutes - 1, 21 * 60 - 15) : 21 * 60 - 15;
  const busy = await diegosBusySpans(request, s, pastDay);
  // The latest past quarter hour without a card on it.
  let quarter: number | null = null;
  for (let start = 9 * 60; start <= lastPast; start += 15) {
    if (!busy.some((span) => span.start < start + 15 && start < span.end)) quarter = start;
  }
  await goToDay(page, pastDay);
  // Shaded as past from the top of the grid.
  await expect.poll(async () => (await shadesOf(page)).some(([kind, top]) => kind === 'past' && top === '0px')).toBe(true);
  if (quarter === null) {
    test.info().annotations.push({ type: 'skipped', description: `Diego's past quarter hours on ${pastDay} all have appointments` });
  } else {
    await column(page).click({ position: { x: 20, y: yAt(quarter) + 4 } });
    await expect(toast(page, PAST)).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Novo agendamento' })).toHaveCount(0);
  }
});
