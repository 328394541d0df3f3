import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

/** Chooses an option of a searchable dropdown (the agenda's). */
export async function choose(page: Page, label: string, option: string | RegExp, scope: Page | Locator = page) {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option }).first().click();
}

/** '999.999.999-99'. */
export const maskedCpf = (digits: string) =>
  `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}`;

/** 'dd/mm/aaaa'. */
export const dateBR = (iso: string) => iso.split('-').reverse().join('/');

/** 0 (Sunday) to 6. */
export const weekdayOf = (iso: string) => new Date(`${iso}T12:00:00Z`).getUTCDay();

export const WEEK_DAYS = ['Domingo', 'Segunda-feira', 'Terça-feira', 'Quarta-feira', 'Quinta-feira', 'Sexta-feira', 'Sábado'];

interface FreeTimes {
  professionals: { idProfessional: number; name: string }[];
  times: { shortDate: string; freeHours: { start: string; end: string; idProfessional: number }[] }[];
}

/**
 * A professional's free start times for a service, by day, as the agenda's call answers
 * them (only days with at least one), and whether the professional is offered at all.
 */
export async function freeTimesOf(
  request: APIRequestContext,
  token: string,
  opts: { idCompany: number; idService: number; idProfessional: number },
): Promise<{ offered: boolean; days: Map<string, string[]> }> {
  const response = await request.get(
    `/api/no-auth/scheduling/available-times?idCompany=${opts.idCompany}&idServices=[${opts.idService}]&timesType=ONLY_AVAILABLES`,
    { headers: { Authorization: `Bearer ${token}` } },
  );
  expect(response.ok(), await response.text()).toBeTruthy();
  const answer = (await response.json()) as FreeTimes;
  const days = new Map<string, string[]>();
  for (const day of answer.times) {
    const starts = day.freeHours.filter((h) => h.idProfessional === opts.idProfessional).map((h) => h.start);
    if (starts.length) days.set(day.shortDate, starts);
  }
  return { offered: answer.professionals.some((p) => p.idProfessional === opts.idProfessional), days };
}

/** Registers a professional through the API (pending, no hours or services) and returns its id. */
export async function createProfessional(
  request: APIRequestContext,
  token: string,
  opts: { name: string; cpf: string; email: string; idCompany: number },
): Promise<number> {
  const response = await request.post('/api/professional', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      name: opts.name,
      cpf: opts.cpf,
      email: opts.email,
      phone: `1197${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`,
      whatsApp: true,
      birthDate: '1988-08-08',
      cep: '01310100',
      street: 'Avenida Paulista',
      number: '900',
      complement: '',
      district: 'Bela Vista',
      city: 'São Paulo',
      state: 'SP',
      idCompany: opts.idCompany,
      color: '#7B1FA2',
      idTypeProfile: 5,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { IdProfessional: number }).IdProfessional;
}

/** Adds a day off through the API. */
export async function createDayOff(
  request: APIRequestContext,
  token: string,
  body: { idProfessional: number; description: string; dateStart: string; dateEnd: string; allDay: boolean; startTime?: string; endTime?: string },
) {
  const response = await request.post('/api/day-off', { headers: { Authorization: `Bearer ${token}` }, data: body });
  expect(response.status(), await response.text()).toBe(201);
}

const MONTHS = ['janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro'];

/** Moves a calendar (a DatePicker) to the month of a day, without choosing it. */
export async function showMonth(calendar: Locator, isoDate: string) {
  const heading = calendar.locator('.datepicker-month');
  const [year, month] = isoDate.split('-').map(Number);
  const target = `${MONTHS[month - 1][0].toUpperCase()}${MONTHS[month - 1].slice(1)} ${year}`;
  for (let i = 0; i < 24 && (await heading.textContent())?.trim() !== target; i += 1) {
    const [name, shown] = ((await heading.textContent()) ?? '').trim().split(' ');
    const current = Number(shown) * 12 + MONTHS.indexOf(name.toLowerCase());
    await calendar.getByRole('button', { name: year * 12 + month - 1 > current ? 'Próximo mês' : 'Mês anterior' }).click();
  }
  await expect(heading).toHaveText(target);
}
