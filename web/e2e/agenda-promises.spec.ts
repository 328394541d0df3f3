import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import { expect, newContext, test } from './fixtures';
import { bookOnce, newClient, setup as onlineSetup } from './online-support';
import {
  ADMIN,
  BARBER1,
  BARBER2_NAME,
  agendaSetup,
  createClient,
  freeTimes,
  openAgenda,
  runTag,
  toast,
  type AgendaSetup,
  type FreeTimes,
} from './support';

// Issue 45, point 1: moves keep their promises. A drag to another professional asks which
// price to charge; a client cannot be in two chairs unless the front desk says so; a time
// another desk took leaves the open form; the client's online reschedule starts with the
// professional they booked. Demo data: Diego and Eduardo (Centro) both do 'Corte de cabelo',
// Eduardo a little dearer (command-api seed: +R$ 5,00 each third barber); if a run left
// their prices equal, Eduardo's is raised for the test and put back.

const DIEGO = BARBER1.name;
const EDUARDO = BARBER2_NAME;
const ATTENDANT = 'atendente@navalha.dev';
const OVERLAP = 'Este cliente já tem outro agendamento neste horário.';
const TAKEN = 'Este horário acabou de ser reservado. Escolha outro.';
/** The whole grid (9:00 to 21:00) on screen, so that nothing scrolls during a drag or a click. */
const TALL = { width: 1280, height: 1700 };

/**
 * The same moment at 390 px, for the screenshot, then back to the desk's width. Only where
 * nothing is open on the timeline: at 390 px the agenda is the mobile flow, which closes it.
 */
async function atPhoneWidth(page: Page, name: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `test-results/${name}-390.png` });
  await page.setViewportSize(TALL);
}

test.use({ viewport: TALL });

/** The grid's geometry (timeline.ts): from 9:00, 122 px an hour row, 2 px a minute. */
const yOf = (time: string) => {
  const [h, m] = time.split(':').map(Number);
  const offset = h * 60 + m - 9 * 60;
  return Math.floor(offset / 60) * 122 + (offset % 60) * 2;
};

const column = (page: Page, name: string) => page.getByRole('list', { name: `Agenda de ${name}` });
const event = (scope: Locator, id: number) => scope.getByRole('listitem', { name: new RegExp(`^Agendamento N\\.º ${id}:`) });
const dateBR = (iso: string) => iso.split('-').reverse().join('/');
/** '45,00': the digits of formatBRL for prices under R$ 1.000 (the 'R$' and its space are matched apart). */
const reais = (value: number) => value.toFixed(2).replace('.', ',');
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Drags a card by its middle so that its top lands on `time` in `target`. */
async function dragTo(card: Locator, target: Locator, time: string) {
  const box = (await card.boundingBox())!;
  const grab = { x: 10, y: Math.round(box.height / 2) };
  await card.dragTo(target, { sourcePosition: grab, targetPosition: { x: 40, y: yOf(time) + grab.y } });
}

const idOf = (answer: FreeTimes, name: string) => {
  const found = answer.professionals.find((p) => p.name === name);
  expect(found, `${name} offers the service`).toBeTruthy();
  return found!;
};

/**
 * A day from the setup's on which Diego and Eduardo are both free at the same afternoon
 * quarter hour, and that start: what a move between them needs.
 */
async function sharedFreeStart(request: APIRequestContext, s: AgendaSetup) {
  const answer = await freeTimes(request, s.token, s.idCompany, s.idService);
  const diego = idOf(answer, DIEGO);
  const eduardo = idOf(answer, EDUARDO);
  for (const day of answer.times) {
    const weekday = new Date(`${day.shortDate}T12:00:00Z`).getUTCDay();
    if (day.shortDate < s.day || weekday === 0 || weekday === 1) continue;
    const hours = (id: number) => day.freeHours.filter((h) => h.idProfessional === id && Number(h.start.slice(3, 5)) % 15 === 0);
    const theirs = new Set(hours(eduardo.idProfessional).map((h) => h.start));
    // A cancelled card still covers its time on the grid, so a click there opens it: keep
    // to times no card of either covers.
    const list = await request.get(`/api/scheduling/professional?idCompany=${s.idCompany}&date=${day.shortDate}`, {
      headers: auth(s.token),
    });
    const cards = ((await list.json()) as { IdProfessional: number; StartTime: string; EndTime: string }[]).filter(
      (card) => card.IdProfessional === diego.idProfessional || card.IdProfessional === eduardo.idProfessional,
    );
    const clear = (h: { start: string; end: string }) =>
      cards.every((card) => card.EndTime.slice(0, 5) <= h.start || card.StartTime.slice(0, 5) >= h.end);
    // The last shared afternoon start: the least likely to be taken by the other specs.
    const hour = hours(diego.idProfessional)
      .filter((h) => h.start >= '13:00' && theirs.has(h.start) && clear(h))
      .pop();
    // Another of Diego's times that day, clear of that one, for a booking that puts the
    // timeline's toggle on screen.
    const another = hour && hours(diego.idProfessional).find((h) => h.end <= hour.start || h.start >= hour.end);
    if (hour && another) return { day: day.shortDate, start: hour.start, end: hour.end, another, diego, eduardo };
  }
  throw new Error(`no day from ${s.day} with a free time shared by ${DIEGO} and ${EDUARDO}`);
}

/** Books 'Corte de cabelo' for a client with a professional at a time, through the API. */
async function bookAt(
  request: APIRequestContext,
  s: AgendaSetup,
  opts: { idCompanyProfessional: number; date: string; start: string; end: string; idUser: number },
) {
  const response = await request.post('/api/scheduling/professional', {
    headers: auth(s.token),
    data: {
      idCompanyProfessional: opts.idCompanyProfessional,
      date: opts.date,
      startTime: opts.start,
      endTime: opts.end,
      idServices: [s.idService],
      idUser: opts.idUser,
      observation: '',
      timesType: 'ONLY_AVAILABLES',
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { IdScheduling: number }).IdScheduling;
}

interface Offered {
  IdCompanyProfessionalService: number;
  IdService: number;
  Value: number;
  Time: number;
  Status: boolean;
}

/** A professional's own 'Corte de cabelo', as the professional's services screen reads it. */
async function corteOf(request: APIRequestContext, s: AgendaSetup, idProfessional: number): Promise<Offered> {
  const response = await request.get(`/api/professional-service/professional/${idProfessional}`, { headers: auth(s.token) });
  expect(response.ok(), await response.text()).toBeTruthy();
  const corte = ((await response.json()) as Offered[]).find((service) => service.IdService === s.idService);
  expect(corte, 'the professional does Corte de cabelo').toBeTruthy();
  return corte!;
}

/** Sets a professional's price for a service, as the professional's services screen saves it. */
async function setPrice(request: APIRequestContext, s: AgendaSetup, idProfessional: number, service: Offered, value: number) {
  const response = await request.put(
    `/api/professional-service/${service.IdCompanyProfessionalService}/professional/${idProfessional}`,
    { headers: auth(s.token), data: { idService: service.IdService, value, time: service.Time, status: service.Status, combo: false } },
  );
  expect(response.ok(), await response.text()).toBeTruthy();
}

/** The appointment as its edit form reads it: its professional and the price of its service. */
async function booked(request: APIRequestContext, s: AgendaSetup, id: number) {
  const response = await request.get(`/api/scheduling/${id}`, { headers: auth(s.token) });
  expect(response.ok()).toBeTruthy();
  const detail = (await response.json()) as {
    CompanyProfessional: { Professional: { IdProfessional: number } };
    SchedulingServices: { Value: number }[];
  };
  return { idProfessional: detail.CompanyProfessional.Professional.IdProfessional, value: detail.SchedulingServices[0]?.Value };
}

async function openTimeline(page: Page, email: string, day: string) {
  await openAgenda(page, email, day);
  await page.getByRole('button', { name: 'Linha do tempo' }).click();
}

/** A click on an empty slot, then the client and 'Corte de cabelo': the wizard at its time step. */
async function wizardAtSlot(page: Page, professional: string, start: string, client: string) {
  await column(page, professional).click({ position: { x: 20, y: yOf(start) + 4 } });
  const modal = page.getByRole('dialog', { name: 'Novo agendamento' });
  await modal.getByLabel('Buscar cliente').fill(client);
  await modal.getByRole('radio', { name: `Selecionar ${client}` }).check();
  await modal.getByRole('button', { name: 'Próximo' }).click();
  await modal.getByRole('checkbox', { name: /Corte de cabelo/ }).check();
  await modal.getByRole('button', { name: 'Próximo' }).click();
  await expect(modal.getByRole('combobox', { name: 'Profissional' })).toHaveValue(professional);
  await expect(modal.getByRole('button', { name: start, exact: true })).toHaveAttribute('aria-pressed', 'true');
  return modal;
}

test('a drag to another professional asks which price to charge: cancel, keep the booked one, or use theirs', async ({
  page,
  request,
}) => {
  const s = await agendaSetup(request, 'Cliente Preço', 5, 12);
  const { day, start, end, diego, eduardo } = await sharedFreeStart(request, s);
  s.day = day;
  const diegos = await corteOf(request, s, diego.idProfessional);
  let eduardos = await corteOf(request, s, eduardo.idProfessional);
  const restore = eduardos.Value === diegos.Value ? eduardos.Value : null;
  if (restore !== null) {
    await setPrice(request, s, eduardo.idProfessional, eduardos, diegos.Value + 5);
    eduardos = await corteOf(request, s, eduardo.idProfessional);
  }
  try {
    const id = await bookAt(request, s, { idCompanyProfessional: diego.idCompanyProfessional, date: day, start, end, idUser: s.idUser });
    await openTimeline(page, ADMIN.email, day);
    const card = event(page.getByRole('region', { name: 'Linha do tempo' }), id);
    await expect(event(column(page, DIEGO), id)).toBeVisible();
    const question = page.getByRole('dialog', { name: 'Valor do agendamento' });
    const moved = `Agendamento N.º ${id} movido para ${dateBR(day)} às ${start}.`;

    // To Eduardo: both totals, and 'Cancelar' puts the card back.
    await dragTo(card, column(page, EDUARDO), start);
    await expect(question).toContainText(
      new RegExp(`O valor muda de R\\$\\s${reais(diegos.Value)} para R\\$\\s${reais(eduardos.Value)}\\.`),
    );
    await expect(event(column(page, EDUARDO), id)).toBeVisible();
    await page.screenshot({ path: 'test-results/agenda-move-price-1280.png' });
    await question.getByRole('button', { name: 'Cancelar' }).click();
    await expect(event(column(page, DIEGO), id)).toBeVisible();
    expect((await booked(request, s, id)).idProfessional).toBe(diego.idProfessional);

    // 'Manter': Eduardo at the booked price.
    await dragTo(card, column(page, EDUARDO), start);
    await question.getByRole('button', { name: new RegExp(`^Manter R\\$\\s${reais(diegos.Value)}$`) }).click();
    await expect(toast(page, moved).first()).toBeVisible();
    await expect.poll(() => booked(request, s, id)).toEqual({ idProfessional: eduardo.idProfessional, value: diegos.Value });

    // Back to Diego, whose price is the booked one: no question.
    await dragTo(card, column(page, DIEGO), start);
    await expect.poll(() => booked(request, s, id)).toEqual({ idProfessional: diego.idProfessional, value: diegos.Value });
    await expect(question).toHaveCount(0);
    await expect(event(column(page, DIEGO), id)).toBeVisible();

    // 'Usar': Eduardo at his price.
    await dragTo(card, column(page, EDUARDO), start);
    await question.getByRole('button', { name: new RegExp(`^Usar R\\$\\s${reais(eduardos.Value)}$`) }).click();
    await expect.poll(() => booked(request, s, id)).toEqual({ idProfessional: eduardo.idProfessional, value: eduardos.Value });
    await expect(event(column(page, EDUARDO), id)).toBeVisible();
  } finally {
    if (restore !== null) await setPrice(request, s, eduardo.idProfessional, eduardos, restore);
  }
});

test("a client already in another chair is refused, then booked with 'Agendar mesmo assim' by an admin", async ({
  page,
  request,
}) => {
  const s = await agendaSetup(request, 'Cliente Duas Cadeiras', 6, 12);
  const { day, start, end, diego } = await sharedFreeStart(request, s);
  await bookAt(request, s, { idCompanyProfessional: diego.idCompanyProfessional, date: day, start, end, idUser: s.idUser });
  await openTimeline(page, ADMIN.email, day);

  // The same client, the same time, with Eduardo.
  const modal = await wizardAtSlot(page, EDUARDO, start, s.client);
  await modal.getByRole('button', { name: 'Confirmar' }).click();
  const question = page.getByRole('dialog', { name: 'Cliente já agendado' });
  await expect(question).toContainText(OVERLAP);
  // Said once: in the question, not in a toast too.
  await expect(toast(page, OVERLAP)).toHaveCount(0);
  await page.screenshot({ path: 'test-results/agenda-client-overlap-1280.png' });
  await question.getByRole('button', { name: 'Agendar mesmo assim' }).click();

  await expect(toast(page, `Agendamento realizado com sucesso! ${dateBR(day)} às ${start}.`)).toBeVisible();
  await expect(column(page, EDUARDO).getByRole('listitem', { name: new RegExp(`${s.client}, ${start}`) })).toBeVisible();
  await expect(column(page, DIEGO).getByRole('listitem', { name: new RegExp(`${s.client}, ${start}`) })).toBeVisible();
  await expect(toast(page, OVERLAP)).toHaveCount(0);
});

/** A desk: its own browser, signed in, on Centro's timeline of `day`. */
async function desk(browser: Browser, email: string, day: string): Promise<Page> {
  const page = await (await newContext(browser, { viewport: TALL })).newPage();
  await openTimeline(page, email, day);
  return page;
}

test('two desks: the time one desk books leaves the form open at the other, with a message', async ({ browser, request }) => {
  const s = await agendaSetup(request, 'Cliente Mesa B', 7, 12);
  const other = `Cliente Mesa A ${runTag()}`;
  await createClient(request, s.token, other);
  const { day, start, another, diego } = await sharedFreeStart(request, s);
  // The view toggle shows on a day with appointments: one at another time.
  const idUser = await createClient(request, s.token, `Cliente Mesa Extra ${runTag()}`);
  await bookAt(request, s, { idCompanyProfessional: diego.idCompanyProfessional, date: day, start: another.start, end: another.end, idUser });
  const deskB = await desk(browser, ATTENDANT, day);
  const deskA = await desk(browser, ADMIN.email, day);

  // Desk B has Diego's time chosen, not yet confirmed.
  const formB = await wizardAtSlot(deskB, DIEGO, start, s.client);
  // Desk A books it.
  const formA = await wizardAtSlot(deskA, DIEGO, start, other);
  await formA.getByRole('button', { name: 'Confirmar' }).click();
  await expect(toast(deskA, `Agendamento realizado com sucesso! ${dateBR(day)} às ${start}.`)).toBeVisible();

  // Desk B is told at once (live changes), and the time is no longer chosen nor offered.
  await expect(formB.getByRole('alert').filter({ hasText: TAKEN })).toBeVisible({ timeout: 15_000 });
  await expect(formB.getByRole('button', { name: start, exact: true })).toHaveCount(0);
  await expect(formB.getByRole('button', { name: 'Confirmar' })).toBeDisabled();
  await deskB.screenshot({ path: 'test-results/agenda-time-taken-1280.png' });
  await atPhoneWidth(deskB, 'agenda-time-taken');
  for (const page of [deskA, deskB]) await page.context().close();
});

test("the client's online reschedule starts with the professional they booked", async ({ page }) => {
  test.setTimeout(120_000);
  const { idCompany, day } = await onlineSetup(page.request, 4);
  const client = newClient('Remarcar');
  const time = await bookOnce(page, idCompany, day, client);
  await expect(page.getByRole('region', { name: 'Agendamento confirmado!' })).toContainText(DIEGO);

  await page.getByRole('link', { name: 'Cancelar ou remarcar' }).click();
  await page.getByRole('button', { name: 'Remarcar' }).click();
  const panel = page.getByRole('region', { name: 'Remarcar' });
  await expect(panel.getByRole('radio', { name: DIEGO })).toBeChecked();
  await expect(panel.getByRole('radio', { name: 'Sem preferência' })).not.toBeChecked();
  await expect(panel.getByRole('button', { name: `${time} Horário atual`, exact: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/online-reschedule-booked-professional-1280.png', fullPage: true });

  // Another of Diego's times: the move names him.
  const other = (await panel.getByRole('button', { name: /^\d{2}:\d{2}$/ }).allTextContents()).find((start) => start !== time);
  expect(other, `another free time of ${DIEGO} that day`).toBeTruthy();
  await panel.getByRole('button', { name: other!, exact: true }).click();
  const sent = page.waitForRequest((r) => r.method() === 'PUT' && r.url().includes('/online-booking/booking/'));
  await panel.getByRole('button', { name: 'Confirmar remarcação' }).click();
  expect(((await sent).postDataJSON() as { idProfessional: number | null }).idProfessional).not.toBeNull();
  await expect(page.getByText('Agendamento remarcado.')).toBeVisible();
  await expect(page.getByText(new RegExp(`^${other} às`))).toBeVisible();

  // Cancelled through its link: the agenda stays free for the other specs.
  await page.getByRole('button', { name: 'Cancelar agendamento' }).click();
  await page.getByRole('dialog', { name: 'Cancelar agendamento?' }).getByRole('button', { name: 'Cancelar agendamento' }).click();
  await expect(page.getByText('Agendamento cancelado.')).toBeVisible();
});
