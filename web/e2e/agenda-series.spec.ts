import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  ADMIN,
  BARBER1,
  CENTRO,
  agendaSetup,
  createClient,
  daysAfter,
  dayLabel,
  freeDay,
  freeTimes,
  goToDay,
  openAgenda,
  pickDay,
  runTag,
  signInAs,
  toast,
  type AgendaSetup,
} from './support';

// Issue 45, point 4: regulars. 'Repetir' on a new booking checks every date of the series
// (each with its time, free or why not), takes another time for a date that clashes, books
// them all at once; a series' appointment is changed (its edit's save asks 'Alterar série')
// and cancelled alone, with the following, or all.
// Demo data: Diego (Centro) does 'Corte de cabelo' Tuesday to Saturday.

const DIEGO = BARBER1.name;
const TAKEN = 'Horário indisponível: o profissional já tem um agendamento neste horário.';
/** The demo holidays close every unit: a weekly series must not fall on them. */
const HOLIDAYS = ['12-25', '01-01'];
const WEEKDAYS = ['dom.', 'seg.', 'ter.', 'qua.', 'qui.', 'sex.', 'sáb.'];

test.use({ viewport: { width: 1280, height: 900 } });

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** 'ter., 05/01/2027': how the series' list names a date. */
const seriesDay = (iso: string) =>
  `${WEEKDAYS[new Date(`${iso}T12:00:00Z`).getUTCDay()]}, ${iso.split('-').reverse().join('/')}`;

/** Chooses an option of a searchable dropdown. */
async function choose(page: Page, label: string, option: string | RegExp, scope: Page | Locator = page) {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option }).first().click();
}

interface SeriesSetup extends AgendaSetup {
  /** Diego's start on every date of the series. */
  start: string;
  /** The four weekly dates, the first the booking's. */
  dates: string[];
  /** Another client's appointment with Diego at `start` on the second date. */
  blocker: number;
}

/**
 * A new client and a weekly series of four 'Corte de cabelo' with Diego, from a day at least
 * two weeks ahead (its second date within the 30 days the free times reach), at a start the
 * series check finds free on every date; then another client is booked at that start on the
 * second date, through the API, so that the wizard's check shows it taken.
 */
async function seriesWithClash(request: APIRequestContext, prefix: string): Promise<SeriesSetup> {
  const s = await agendaSetup(request, prefix, 14, 4);
  const answer = await freeTimes(request, s.token, s.idCompany, s.idService);
  const diego = answer.professionals.find((p) => p.name === DIEGO);
  expect(diego, `${DIEGO} offers the service`).toBeTruthy();
  const other = await createClient(request, s.token, `Cliente Ocupa Série ${runTag()}`);
  let day = s.day;
  for (let tries = 0; tries < 4; tries += 1) {
    const weekly = [0, 7, 14, 21].map((offset) => daysAfter(day, offset));
    if (weekly.some((date) => HOLIDAYS.includes(date.slice(5)))) {
      day = await freeDay(request, s.token, { idCompany: s.idCompany, idService: s.idService, fromDate: daysAfter(day, 1), professionals: [DIEGO] });
      continue;
    }
    const hours = (answer.times.find((entry) => entry.shortDate === day)?.freeHours ?? []).filter(
      (hour) => hour.idProfessional === diego!.idProfessional && Number(hour.start.slice(3, 5)) % 15 === 0,
    );
    // The last starts of the day first: the least likely to be taken by the other specs.
    for (const hour of hours.reverse().slice(0, 8)) {
      const form = {
        idCompanyProfessional: diego!.idCompanyProfessional,
        date: day,
        startTime: hour.start,
        endTime: hour.end,
        idServices: [s.idService],
        idUser: s.idUser,
        observation: '',
        timesType: 'ONLY_AVAILABLES',
      };
      const checked = await request.post('/api/scheduling/series/check', {
        headers: auth(s.token),
        data: { ...form, repeat: { everyWeeks: 1, count: 4 } },
      });
      expect(checked.status(), await checked.text()).toBe(200);
      const dates = (await checked.json()) as { Date: string; Free: boolean }[];
      if (!dates.every((date) => date.Free)) continue;
      const blocked = await request.post('/api/scheduling/professional', {
        headers: auth(s.token),
        data: { ...form, date: dates[1].Date, idUser: other },
      });
      if (blocked.status() === 409) continue;
      expect(blocked.status(), await blocked.text()).toBe(201);
      const blocker = ((await blocked.json()) as { IdScheduling: number }).IdScheduling;
      return { ...s, day, start: hour.start, dates: dates.map((date) => date.Date), blocker };
    }
    day = await freeDay(request, s.token, { idCompany: s.idCompany, idService: s.idService, fromDate: daysAfter(day, 1), professionals: [DIEGO] });
  }
  throw new Error(`no weekly series of ${DIEGO} free at one start from ${s.day}`);
}

/** Cancels appointments made through the API, so that Diego's agenda stays free for the other specs. */
async function cancel(request: APIRequestContext, s: AgendaSetup, path: string) {
  const response = await request.delete(`/api/${path}`, { headers: auth(s.token) });
  expect(response.ok(), await response.text()).toBeTruthy();
}

/**
 * Of `starts` (what the edit of the second appointment offers on its date), the first the
 * series check finds free on the second, third and fourth dates: where 'Este e os seguintes'
 * can move them. The check knows no edit, so a start overlapping the series' own
 * appointments is left out too. '' when none of the first twelve is.
 */
async function freeForTheRest(request: APIRequestContext, s: SeriesSetup, starts: string[]) {
  const answer = await freeTimes(request, s.token, s.idCompany, s.idService);
  const diego = answer.professionals.find((p) => p.name === DIEGO);
  expect(diego, `${DIEGO} offers the service`).toBeTruthy();
  for (const start of starts.slice(0, 12)) {
    const checked = await request.post('/api/scheduling/series/check', {
      headers: auth(s.token),
      data: {
        idCompanyProfessional: diego!.idCompanyProfessional,
        date: s.dates[1],
        startTime: start,
        idServices: [s.idService],
        idUser: s.idUser,
        observation: '',
        timesType: 'ONLY_AVAILABLES',
        repeat: { everyWeeks: 1, count: 3 },
      },
    });
    expect(checked.status(), await checked.text()).toBe(200);
    const dates = (await checked.json()) as { Date: string; Free: boolean }[];
    expect(dates.map((date) => date.Date)).toEqual(s.dates.slice(1));
    if (dates.every((date) => date.Free)) return start;
  }
  return '';
}

/**
 * The series' list after 'Verificar datas': four rows, the second taken by the other client.
 * Answers the row of a date.
 */
async function checkedDates(scope: Locator, s: SeriesSetup) {
  const list = scope.getByRole('list', { name: 'Datas da série' });
  const row = (iso: string) => list.getByRole('listitem', { name: seriesDay(iso) });
  await expect(list.getByRole('listitem')).toHaveCount(4);
  for (const date of [s.dates[0], s.dates[2], s.dates[3]]) {
    await expect(row(date)).toContainText(`${s.start} -`);
    await expect(row(date)).toContainText('Livre');
  }
  await expect(row(s.dates[1])).toContainText(TAKEN);
  return { list, row };
}

test("'Repetir' books a weekly series around a taken date; 'Este e os seguintes' moves, then cancels the rest", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const s = await seriesWithClash(request, 'Cliente Série');
  await openAgenda(page, ADMIN.email, s.day);

  // The wizard as for one booking: the client, 'Corte de cabelo', Diego's time on the first date.
  await page.getByRole('button', { name: 'Novo agendamento' }).click();
  const modal = page.getByRole('dialog', { name: 'Novo agendamento' });
  await modal.getByLabel('Buscar cliente').fill(s.client);
  await modal.getByRole('radio', { name: `Selecionar ${s.client}` }).check();
  await modal.getByRole('button', { name: 'Próximo' }).click();
  await modal.getByRole('checkbox', { name: /Corte de cabelo/ }).check();
  await modal.getByRole('button', { name: 'Próximo' }).click();
  await choose(page, 'Profissional', DIEGO, modal);
  const calendar = modal.getByRole('group', { name: 'Data do agendamento' });
  await expect(calendar.getByRole('button', { name: dayLabel(s.day), exact: true })).toHaveAttribute('aria-pressed', 'true');
  await modal.getByRole('button', { name: s.start, exact: true }).click();

  // 'Repetir': every week, 4 times (what it starts with).
  await modal.getByRole('checkbox', { name: 'Repetir' }).check();
  await expect(modal.getByLabel('Frequência')).toHaveValue('1');
  await expect(modal.getByRole('radio', { name: 'Após' })).toBeChecked();
  await expect(modal.getByLabel('Número de vezes')).toHaveValue('4');
  const book = modal.getByRole('button', { name: 'Agendar série (4)' });
  await expect(book).toBeDisabled();
  await modal.getByRole('button', { name: 'Verificar datas' }).click();
  const { list, row } = await checkedDates(modal, s);
  await expect(book).toBeDisabled();
  await list.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/agenda-series-check-1280.png' });

  // Another time on the second date: Diego's free times that day; the check then says 'Livre'.
  const second = row(s.dates[1]);
  const other = second.getByRole('combobox', { name: 'Outro horário' });
  const offered = (await other.locator('option').allTextContents()).filter((text) => /^\d{2}:\d{2}$/.test(text));
  expect(offered.length, `another free time of ${DIEGO} on ${s.dates[1]}`).toBeGreaterThan(0);
  let chosen = '';
  for (const start of offered.slice(0, 5)) {
    const checked = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/scheduling/series/check'));
    await second.getByRole('combobox', { name: 'Outro horário' }).selectOption(start);
    expect((await checked).status()).toBe(200);
    await expect(second.locator('.series-status')).not.toHaveText('Verificando...');
    if ((await second.locator('.series-status').textContent()) === 'Livre') {
      chosen = start;
      break;
    }
  }
  expect(chosen, `a free time of ${DIEGO} on ${s.dates[1]} the check confirms`).not.toBe('');
  await expect(second).toContainText(`${chosen} -`);
  await expect(book).toBeEnabled();

  const booked = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/scheduling/series');
  await book.click();
  const answer = await booked;
  expect(answer.status(), await answer.text()).toBe(201);
  const sent = answer.request().postDataJSON() as { occurrences: { date: string; startTime: string }[] };
  expect(sent.occurrences).toEqual([
    { date: s.dates[0], startTime: s.start },
    { date: s.dates[1], startTime: chosen },
    { date: s.dates[2], startTime: s.start },
    { date: s.dates[3], startTime: s.start },
  ]);
  const { IdsScheduling: ids } = (await answer.json()) as { IdsScheduling: number[] };
  expect(ids).toHaveLength(4);
  await expect(toast(page, 'Série agendada: 4 agendamentos.')).toBeVisible();
  await expect(modal).toBeHidden();

  // The second one's edit, at another time for it and the following: one the check finds
  // free on the second, third and fourth dates.
  await goToDay(page, s.dates[1]);
  const secondCard = page.getByRole('article', { name: new RegExp(`^Agendamento N\\.º ${ids[1]}:`) });
  await expect(secondCard.getByText('Série 2/4')).toBeVisible();
  await secondCard.getByRole('button', { name: `Opções do agendamento N.º ${ids[1]}` }).click();
  await page.getByRole('menuitem', { name: 'Editar' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar agendamento' });
  await expect(edit.getByRole('checkbox', { name: /Corte de cabelo/ })).toBeChecked();
  await edit.getByRole('button', { name: 'Próximo' }).click();
  await expect(edit.getByRole('combobox', { name: 'Profissional' })).toHaveValue(DIEGO);
  await expect(edit.getByRole('button', { name: chosen, exact: true })).toHaveAttribute('aria-pressed', 'true');
  const starts = (await edit.locator('.time-button').allTextContents()).map((text) => text.trim()).filter((start) => start !== chosen);
  const moved = await freeForTheRest(request, s, starts);
  expect(moved, `a time of ${DIEGO} free on ${s.dates.slice(1).join(', ')}`).not.toBe('');
  await edit.getByRole('button', { name: moved, exact: true }).click();
  await edit.getByRole('button', { name: 'Confirmar' }).click();

  // 'Alterar série': 'Somente este' unless another is chosen.
  const question = page.getByRole('dialog', { name: 'Alterar série' });
  await expect(question).toContainText('Este agendamento faz parte de uma série (Série 2/4).');
  await expect(question.getByRole('radio', { name: 'Somente este' })).toBeChecked();
  await expect(question.getByRole('radio', { name: 'Todos' })).not.toBeChecked();
  await question.getByRole('radio', { name: 'Este e os seguintes' }).check();
  await expect(question.getByRole('button', { name: 'Cancelar' })).toBeVisible();
  await page.screenshot({ path: 'test-results/agenda-series-move-1280.png' });
  const changing = page.waitForResponse(
    (r) => r.request().method() === 'PUT' && new URL(r.url()).pathname === `/api/scheduling/${ids[1]}/series`,
  );
  await question.getByRole('button', { name: 'Continuar' }).click();
  const change = await changing;
  expect(change.status(), await change.text()).toBe(200);
  expect(new URL(change.url()).searchParams.get('scope')).toBe('following');
  expect(change.request().postDataJSON()).toMatchObject({ date: s.dates[1], startTime: moved, idServices: [s.idService], idUser: s.idUser });
  expect(((await change.json()) as { IdsScheduling: number[] }).IdsScheduling).toEqual([ids[1], ids[2], ids[3]]);
  await expect(toast(page, '3 agendamentos alterados.')).toBeVisible();
  await expect(question).toBeHidden();
  await expect(edit).toBeHidden();

  // The third date's card says where it stands in the series, at the new time.
  await goToDay(page, s.dates[2]);
  const card = page.getByRole('article', { name: new RegExp(`^Agendamento N\\.º ${ids[2]}:`) });
  await expect(card).toContainText(s.client);
  await expect(card).toHaveAttribute('aria-label', `Agendamento N.º ${ids[2]}: ${s.client}, ${moved}`);
  await expect(card.locator('.appointment-time')).toHaveText(new RegExp(`^${moved} - `));
  await expect(card.getByText('Série 3/4')).toHaveAttribute('title', 'Repete toda semana');

  // 'Este e os seguintes': the third and the fourth.
  await card.getByRole('button', { name: `Opções do agendamento N.º ${ids[2]}` }).click();
  await page.getByRole('menuitem', { name: 'Cancelar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Atencão!' });
  await expect(dialog.getByRole('radio', { name: 'Somente este' })).toBeChecked();
  await expect(dialog.getByRole('radio', { name: 'Todos' })).not.toBeChecked();
  await expect(dialog).toContainText(`N.º ${ids[2]} - ${s.client} - ${moved}`);
  await dialog.getByRole('radio', { name: 'Este e os seguintes' }).check();
  await page.screenshot({ path: 'test-results/agenda-series-cancel-1280.png' });
  await dialog.getByRole('button', { name: 'Excluir' }).click();
  await expect(toast(page, '2 agendamentos cancelados.')).toBeVisible();
  await expect(card.getByText('Cancelado')).toBeVisible();

  // The fourth is cancelled too (it had moved with the second and the third); the first two
  // stay, the first at its time.
  const standing = async (id: number, date: string) => {
    const response = await request.get(`/api/scheduling/professional?idCompany=${s.idCompany}&date=${date}&status=0`, {
      headers: auth(s.token),
    });
    const items = (await response.json()) as {
      IdScheduling: number;
      Status: boolean;
      StartTime: string;
      Series?: { IdSeries: number } | null;
    }[];
    const item = items.find((entry) => entry.IdScheduling === id);
    return item ? { status: item.Status, series: item.Series?.IdSeries ?? null, start: item.StartTime.slice(0, 5) } : null;
  };
  await expect.poll(() => standing(ids[3], s.dates[3])).toEqual({ status: false, series: ids[0], start: moved });
  expect(await standing(ids[1], s.dates[1])).toEqual({ status: true, series: ids[0], start: moved });
  expect(await standing(ids[0], s.dates[0])).toEqual({ status: true, series: ids[0], start: s.start });

  // What is left goes, so that Diego's agenda stays free for the other specs.
  await cancel(request, s, `scheduling/${ids[0]}/series?scope=all`);
  await cancel(request, s, `scheduling/${s.blocker}`);
});

test("the mobile flow offers 'Repetir' and checks the series at 390 px", async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const s = await seriesWithClash(request, 'Cliente Série Celular');
  await signInAs(page, ADMIN.email);
  await page.goto('/dashboard/scheduling');
  await page.getByRole('combobox', { name: 'Filial' }).click();
  await page.getByRole('option', { name: new RegExp(CENTRO) }).click();
  await goToDay(page, s.day);

  await page.getByRole('button', { name: 'Novo agendamento' }).click();
  await page.getByRole('checkbox', { name: /Corte de cabelo/ }).first().check();
  await choose(page, 'Profissional', DIEGO);
  await pickDay(page.getByRole('group', { name: 'Data do agendamento' }), s.day);
  await page.getByRole('button', { name: s.start, exact: true }).click();
  await page.getByRole('checkbox', { name: 'Repetir' }).check();
  // The check needs the client, chosen below.
  await expect(page.getByRole('button', { name: 'Verificar datas' })).toBeDisabled();
  await page.getByRole('button', { name: 'Selecionar cliente' }).click();
  const search = page.getByRole('dialog', { name: 'Buscar cliente' });
  await search.getByLabel('Buscar cliente').fill(s.client);
  await search.getByRole('radio', { name: `Selecionar ${s.client}` }).click();
  await expect(search).toBeHidden();

  await page.getByRole('button', { name: 'Verificar datas' }).click();
  const { list, row } = await checkedDates(page.locator('body'), s);
  await expect(row(s.dates[1]).getByRole('button', { name: 'Pular' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Agendar série (4)' })).toBeDisabled();
  await list.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/agenda-series-check-390.png' });

  // 'Pular' leaves it out: three dates to book (not booked here).
  await row(s.dates[1]).getByRole('button', { name: 'Pular' }).click();
  await expect(row(s.dates[1])).toContainText('Pulada');
  await expect(page.getByRole('button', { name: 'Agendar série (3)' })).toBeEnabled();
  await cancel(request, s, `scheduling/${s.blocker}`);
});
