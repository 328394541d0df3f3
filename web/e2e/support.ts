import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { workingDayAhead } from './clock';

export { daysAfter, workingDayAhead } from './clock';

export const PASSWORD = 'Navalha@2026';
export const ADMIN = { email: 'admin@navalha.dev', password: PASSWORD };
export const BARBER1 = { email: 'barbeiro1@navalha.dev', password: PASSWORD, name: 'Diego Barbeiro' };
export const BARBER2_NAME = 'Eduardo Barbeiro';
export const CENTRO = 'Navalha Centro';

/** Signs in through the public pages, as a person would. */
export async function signIn(page: Page, email: string, password: string) {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Login', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Continuar com e-mail' }).click();
  await expect(page.getByRole('heading', { name: 'Login | E-mail' })).toBeVisible();
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Senha', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
}

/**
 * Signs in and waits until the session is in local storage (redux-persist writes it a
 * moment after the sign-in), so a page.goto that reloads the app keeps it.
 */
export async function signInAs(page: Page, email: string, password = PASSWORD, landing = /\/dashboard/) {
  await signIn(page, email, password);
  await expect(page).toHaveURL(landing);
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('persist:navalha-session')?.includes('eyJ') ?? false))
    .toBe(true);
}

/** Signs out through the menu and waits until the stored session is gone too. */
export async function signOut(page: Page) {
  await sideMenu(page).getByRole('button', { name: 'Sair', exact: true }).click();
  await page.getByRole('dialog', { name: 'Atencão!' }).getByRole('button', { name: 'Sair', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('persist:navalha-session')?.includes('eyJ') ?? false))
    .toBe(false);
}

export const sideMenu = (page: Page) => page.getByRole('navigation', { name: 'Menu principal' });

/** A success or error toast with this text. */
export const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

// ---------------------------------------------------------------------------
// Dates on the unit's clock (UTC-3), independent of the machine's time zone.

const MONTHS = [
  'janeiro',
  'fevereiro',
  'março',
  'abril',
  'maio',
  'junho',
  'julho',
  'agosto',
  'setembro',
  'outubro',
  'novembro',
  'dezembro',
];

/** '24 de novembro de 2026': how the calendars name a day. */
export function dayLabel(isoDate: string): string {
  const [y, m, d] = isoDate.split('-').map(Number);
  return `${d} de ${MONTHS[m - 1]} de ${y}`;
}

/** 'Novembro 2026': the calendar's month heading. */
const monthLabel = (isoDate: string) => {
  const [y, m] = isoDate.split('-').map(Number);
  return `${MONTHS[m - 1][0].toUpperCase()}${MONTHS[m - 1].slice(1)} ${y}`;
};

/** Chooses a day in a calendar (a DatePicker), moving to its month first. */
export async function pickDay(calendar: Locator, isoDate: string) {
  const target = monthLabel(isoDate);
  const heading = calendar.locator('.datepicker-month');
  const [ty, tm] = isoDate.split('-').map(Number);
  for (let i = 0; i < 24 && (await heading.textContent())?.trim() !== target; i += 1) {
    const [name, year] = ((await heading.textContent()) ?? '').trim().split(' ');
    const current = Number(year) * 12 + MONTHS.indexOf(name.toLowerCase());
    const wanted = ty * 12 + (tm - 1);
    await calendar.getByRole('button', { name: wanted > current ? 'Próximo mês' : 'Mês anterior' }).click();
  }
  await expect(heading).toHaveText(target);
  await calendar.getByRole('button', { name: dayLabel(isoDate), exact: true }).click();
}

/** Opens the agenda's date picker and goes to a day. */
export async function goToDay(page: Page, isoDate: string) {
  await page.getByRole('button', { name: /^Dia exibido:/ }).click();
  await pickDay(page.getByRole('group', { name: 'Escolher data' }), isoDate);
}

/** Signs in and opens Centro's agenda on a day (desktop). */
export async function openAgenda(page: Page, email: string, isoDate: string) {
  await signInAs(page, email);
  await showAgenda(page, isoDate);
}

/** Opens Centro's agenda on a day (desktop), signed in already. */
export async function showAgenda(page: Page, isoDate: string) {
  await page.goto('/dashboard/scheduling');
  await page.getByRole('combobox', { name: 'Barbearia', exact: true }).click();
  await page.getByRole('option', { name: new RegExp(CENTRO) }).first().click();
  await goToDay(page, isoDate);
}

// ---------------------------------------------------------------------------
// Data through the API (what a test needs, never the demo's exact appointments).

export async function apiToken(request: APIRequestContext, email: string, password = PASSWORD): Promise<string> {
  const response = await request.post('/api/session-professional/login', { data: { email, password } });
  expect(response.ok()).toBeTruthy();
  return ((await response.json()) as { Token: string }).Token;
}

/** A valid CPF from 9 random digits. */
export function randomCpf(): string {
  const digits = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10));
  if (digits.every((d) => d === digits[0])) digits[0] = (digits[0] + 1) % 10;
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((total, d, i) => total + d * (length + 1 - i), 0);
    const rest = (sum * 10) % 11;
    digits.push(rest === 10 ? 0 : rest);
  }
  return digits.join('');
}

/** A unique suffix for names this run creates. */
export const runTag = () => Math.random().toString(36).slice(2, 8);

/** Registers an active client and returns its id. */
export async function createClient(request: APIRequestContext, token: string, name: string, whatsApp = true) {
  const response = await request.post('/api/user/professional', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      name,
      cpf: randomCpf(),
      email: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@example.com`,
      phone: `1197${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`,
      whatsApp,
      birthDate: '1990-05-20',
      status: true,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { IdUser: number }).IdUser;
}

export interface FreeTimes {
  professionals: { idProfessional: number; idCompanyProfessional: number; name: string }[];
  times: { shortDate: string; freeHours: { start: string; end: string; idProfessional: number }[] }[];
}

/** Free times of a unit for a service; with `editing`, as they are for moving that appointment. */
export async function freeTimes(
  request: APIRequestContext,
  token: string,
  idCompany: number,
  idService: number,
  editing?: number,
) {
  const extra = editing ? `&idSchedulingEdit=${editing}` : '';
  const free = await request.get(
    `/api/no-auth/scheduling/available-times?idCompany=${idCompany}&idServices=[${idService}]&timesType=ONLY_AVAILABLES${extra}`,
    { headers: { Authorization: `Bearer ${token}` } },
  );
  expect(free.ok()).toBeTruthy();
  return (await free.json()) as FreeTimes;
}

/** What an agenda test starts from: the admin's token, Centro, 'Corte de cabelo', a new client. */
export interface AgendaSetup {
  token: string;
  idCompany: number;
  idService: number;
  client: string;
  idUser: number;
  /** A day from `ahead` working days on when Diego has a free 'Corte de cabelo'. */
  day: string;
}

export async function agendaSetup(
  request: APIRequestContext,
  clientPrefix: string,
  ahead: number,
  minFree = 1,
): Promise<AgendaSetup> {
  const token = await apiToken(request, ADMIN.email);
  const client = `${clientPrefix} ${runTag()}`;
  const idUser = await createClient(request, token, client);
  const idCompany = await companyId(request, token, CENTRO);
  const idService = await serviceId(request, token, idCompany, 'Corte de cabelo');
  const day = await freeDay(request, token, {
    idCompany,
    idService,
    fromDate: workingDayAhead(ahead),
    professionals: [BARBER1.name],
    minFree,
  });
  return { token, idCompany, idService, client, idUser, day };
}

/**
 * The first Tuesday-Saturday from `fromDate` on which each named professional (or, with
 * none named, anyone) has a free time for the service: runs against a long-lived
 * database fill days up.
 */
export async function freeDay(
  request: APIRequestContext,
  token: string,
  opts: { idCompany: number; idService: number; fromDate: string; professionals?: string[]; minFree?: number },
): Promise<string> {
  const answer = await freeTimes(request, token, opts.idCompany, opts.idService);
  const ids = (opts.professionals ?? []).map((name) => {
    const found = answer.professionals.find((p) => p.name === name);
    expect(found, `${name} offers the service`).toBeTruthy();
    return found!.idProfessional;
  });
  const day = answer.times.find((entry) => {
    const weekday = new Date(`${entry.shortDate}T12:00:00Z`).getUTCDay();
    if (entry.shortDate < opts.fromDate || weekday === 0 || weekday === 1) return false;
    const enough = (id: number) => entry.freeHours.filter((hour) => hour.idProfessional === id).length >= (opts.minFree ?? 1);
    return ids.length ? ids.every(enough) : entry.freeHours.length > 0;
  });
  expect(day, `a day from ${opts.fromDate} with free times`).toBeTruthy();
  return day!.shortDate;
}

/**
 * Books the first free time of a professional on a day, through the API. Free times are
 * read without the position of the bookings just made (this test's or another's), so a time
 * taken meanwhile is answered 409: the next free time is tried then, up to twenty.
 */
export async function bookFirstFree(
  request: APIRequestContext,
  token: string,
  opts: { idCompany: number; professional: string; date: string; idUser: number; idService: number },
) {
  const auth = { Authorization: `Bearer ${token}` };
  const answer = await freeTimes(request, token, opts.idCompany, opts.idService);
  const professional = answer.professionals.find((p) => p.name === opts.professional);
  expect(professional, `${opts.professional} offers the service`).toBeTruthy();
  const hours = (answer.times.find((day) => day.shortDate === opts.date)?.freeHours ?? []).filter(
    (h) => h.idProfessional === professional!.idProfessional,
  );
  expect(hours.length, `${opts.professional} has a free time on ${opts.date}`).toBeGreaterThan(0);
  for (const hour of hours.slice(0, 20)) {
    const booked = await request.post('/api/scheduling/professional', {
      headers: auth,
      data: {
        idCompanyProfessional: professional!.idCompanyProfessional,
        date: opts.date,
        startTime: hour.start,
        endTime: hour.end,
        idServices: [opts.idService],
        idUser: opts.idUser,
        observation: '',
        timesType: 'ONLY_AVAILABLES',
      },
    });
    if (booked.status() === 409) continue;
    // Today's first free time may begin between reading it and booking it (the minute turned).
    if (booked.status() === 422 && (await booked.text()).includes('horário passado')) continue;
    expect(booked.status(), await booked.text()).toBe(201);
    return {
      id: ((await booked.json()) as { IdScheduling: number }).IdScheduling,
      start: hour.start,
      // Sent back as X-Navalha-Position, a read waits until it sees the booking.
      position: booked.headers()['x-navalha-position'],
    };
  }
  throw new Error(`${opts.professional}'s first twenty free times on ${opts.date} were all taken`);
}

/**
 * Moves an appointment to another free time of the same professional and day, as `token`;
 * answers the new start. Free times are read as the admin, as they are for moving it.
 */
export async function moveToAnotherFreeTime(
  request: APIRequestContext,
  token: string,
  opts: { id: number; idCompany: number; idService: number; idUser: number; professional: string; date: string; from: string },
) {
  const admin = await apiToken(request, ADMIN.email);
  const answer = await freeTimes(request, admin, opts.idCompany, opts.idService, opts.id);
  const professional = answer.professionals.find((p) => p.name === opts.professional)!;
  const hour = answer.times
    .find((day) => day.shortDate === opts.date)
    ?.freeHours.find((h) => h.idProfessional === professional.idProfessional && h.start !== opts.from);
  expect(hour, `another free time of ${opts.professional} on ${opts.date}`).toBeTruthy();
  const moved = await request.put(`/api/scheduling/professional/${opts.id}`, {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      idCompanyProfessional: professional.idCompanyProfessional,
      date: opts.date,
      startTime: hour!.start,
      endTime: hour!.end,
      idServices: [opts.idService],
      idUser: opts.idUser,
      observation: '',
      timesType: 'ONLY_AVAILABLES',
    },
  });
  expect(moved.status(), await moved.text()).toBe(200);
  return hour!.start;
}

/** Id of a unit by name. */
export async function companyId(request: APIRequestContext, token: string, name: string): Promise<number> {
  const response = await request.get('/api/company', { headers: { Authorization: `Bearer ${token}` } });
  const companies = (await response.json()) as { IdCompany: number; Name: string }[];
  const company = companies.find((c) => c.Name === name);
  expect(company).toBeTruthy();
  return company!.IdCompany;
}

/** Id of a service of a unit by name. */
export async function serviceId(request: APIRequestContext, token: string, idCompany: number, name: string) {
  const response = await request.get(`/api/service/company/${idCompany}`, { headers: { Authorization: `Bearer ${token}` } });
  const services = (await response.json()) as { IdService: number; Description: string }[];
  const service = services.find((s) => s.Description === name);
  expect(service).toBeTruthy();
  return service!.IdService;
}

// ---------------------------------------------------------------------------
// The outbox: e-mails the system wrote instead of sending (NAVALHA_OUTBOX_DIR).

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  at: string;
}

/** The newest e-mail to `to` written at or after `since`, if any. */
async function newestMail(to: string, since: number): Promise<OutboxMail | null> {
  const dir = process.env.NAVALHA_OUTBOX_DIR;
  if (!dir) throw new Error('NAVALHA_OUTBOX_DIR is not set: the recovery test reads the code from the outbox');
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  } catch {
    return null;
  }
  for (const name of names.reverse()) {
    const mail = JSON.parse(await readFile(join(dir, name), 'utf8')) as OutboxMail;
    if (mail.to === to && Date.parse(mail.at) >= since) return mail;
  }
  return null;
}

/** Waits for the recovery e-mail and returns its 6-digit code. */
export async function recoveryCodeFor(to: string, since: number): Promise<string> {
  let code = '';
  await expect
    .poll(
      async () => {
        const mail = await newestMail(to, since);
        code = /Seu código: (\d{6})/.exec(mail?.text ?? '')?.[1] ?? '';
        return code;
      },
      { message: `a recovery e-mail to ${to} in the outbox`, timeout: 15_000 },
    )
    .toMatch(/^\d{6}$/);
  return code;
}
