import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { unitNow, unitToday } from './clock';
import { BARBER1, daysAfter, freeTimes } from './support';

// Helpers of the counter's specs (issue 41): the agenda's cards and their attendance, bookings
// made after the fact or for today, the unit's caixa, products, money on the screens and axe.
// Shared by attendance.spec.ts, caixa.spec.ts, comandas.spec.ts and counter-day.spec.ts.

/** The API's bearer header for `token`. */
export const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

export const ATTENDANT = 'atendente@navalha.dev';

// ---------------------------------------------------------------------------
// The agenda's cards.

export const card = (page: Page, id: number) => page.getByRole('article', { name: new RegExp(`^Agendamento N\\.º ${id}: `) });
export const options = (page: Page, id: number) => page.getByRole('button', { name: `Opções do agendamento N.º ${id}` });

// ---------------------------------------------------------------------------
// Bookings through the API at times the free-times call does not offer (ALL_TIMES).

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The units' opening hours (the demo's, Monday to Saturday), in minutes. */
const OPENS = 9 * 60;
const CLOSES = 21 * 60;

/** The open days before today, newest first: the units open Monday to Saturday, not on the demo holidays. */
function openDaysBefore(count: number): string[] {
  const days: string[] = [];
  for (let day = daysAfter(unitToday(), -1); days.length < count; day = daysAfter(day, -1)) {
    const sunday = new Date(`${day}T12:00:00Z`).getUTCDay() === 0;
    if (!sunday && !['12-25', '01-01'].includes(day.slice(5))) days.push(day);
  }
  return days;
}

/** A professional of the unit who does the service, and the service's length for them. */
interface Offering {
  name: string;
  idCompanyProfessional: number;
  length: number;
}

/** The unit's professionals who do the service, `first` first, each with the service's length as their free times give it. */
async function offerings(
  request: APIRequestContext,
  token: string,
  opts: { idCompany: number; idService: number },
  first: string,
): Promise<Offering[]> {
  const answer = await freeTimes(request, token, opts.idCompany, opts.idService);
  const hours = answer.times.flatMap((day) => day.freeHours);
  return answer.professionals
    .map((professional) => {
      const hour = hours.find((h) => h.idProfessional === professional.idProfessional);
      return {
        name: professional.name,
        idCompanyProfessional: professional.idCompanyProfessional,
        length: hour ? minutesOf(hour.end) - minutesOf(hour.start) : 30,
      };
    })
    .sort((a, b) => Number(b.name === first) - Number(a.name === first));
}

/**
 * Books the first of `starts` (minutes) on `date` that is free, ALL_TIMES, as the desk records
 * a visit. A start taken by another booking (409) gives way to the next; any other answer (the
 * unit closed that day) ends the day. The booking, or the last answer.
 */
async function bookFirstOf(
  request: APIRequestContext,
  token: string,
  opts: { offering: Offering; date: string; starts: number[]; idService: number; idUser: number },
): Promise<{ id: number } | { last: string }> {
  let last = 'no start to try';
  for (const start of opts.starts) {
    const booked = await request.post('/api/scheduling/professional', {
      headers: auth(token),
      data: {
        idCompanyProfessional: opts.offering.idCompanyProfessional,
        date: opts.date,
        startTime: hhmm(start),
        endTime: hhmm(start + opts.offering.length),
        idServices: [opts.idService],
        idUser: opts.idUser,
        observation: '',
        timesType: 'ALL_TIMES',
      },
    });
    if (booked.status() === 201) return { id: ((await booked.json()) as { IdScheduling: number }).IdScheduling };
    last = `${booked.status()} ${await booked.text()}`;
    // Taken by another booking of the professional's: the next start.
    if (booked.status() !== 409) break;
  }
  return { last };
}

/** The starts of a day on the quarter hours, for a service this long. */
const quarterHours = (length: number) => {
  const starts: number[] = [];
  for (let start = OPENS; start + length <= CLOSES; start += 15) starts.push(start);
  return starts;
};

/**
 * Books a 'Corte de cabelo' with Diego on a past open day, through the API, as the desk records
 * a visit after the fact: ALL_TIMES checks only the unit's opening hours (09:00-21:00) and the
 * professional's other bookings. Starts are tried from the evening back, past days from
 * yesterday back, until one is free (a long-lived database fills them up).
 */
export async function bookInThePast(
  request: APIRequestContext,
  token: string,
  opts: { idCompany: number; idService: number; idUser: number },
): Promise<{ id: number; date: string }> {
  const diego = (await offerings(request, token, opts, BARBER1.name)).find((o) => o.name === BARBER1.name);
  expect(diego, `${BARBER1.name} offers the service`).toBeTruthy();
  let last = '';
  // From the evening back: the last start that ends by closing time, then every 15 minutes.
  const starts: number[] = [];
  for (let start = CLOSES - diego!.length; start >= OPENS; start -= 15) starts.push(start);
  for (const date of openDaysBefore(3)) {
    const booked = await bookFirstOf(request, token, { offering: diego!, date, starts, idService: opts.idService, idUser: opts.idUser });
    if ('id' in booked) return { id: booked.id, date };
    last = booked.last;
  }
  throw new Error(`no past time of ${BARBER1.name} could be booked; the last answer: ${last}`);
}

/** A booking of the counter's day: its id, day and professional. */
export interface CounterBooking {
  id: number;
  date: string;
  professional: string;
}

/**
 * Books a client for today, ALL_TIMES, with the unit's professionals who do the service
 * (Diego first): `now`, at the quarter hour nearest to the unit's clock, past or coming; or
 * `started`, at one that has begun already, the latest first. Null when there is none: the
 * unit is closed today (Sunday), it is not open yet, or every such start is taken.
 */
export async function bookToday(
  request: APIRequestContext,
  token: string,
  opts: { idCompany: number; idService: number; idUser: number; when: 'now' | 'started' },
): Promise<CounterBooking | null> {
  const date = unitToday();
  const clock = unitNow();
  const now = clock.getUTCHours() * 60 + clock.getUTCMinutes();
  for (const offering of await offerings(request, token, opts, BARBER1.name)) {
    const day = quarterHours(offering.length);
    const starts =
      opts.when === 'now'
        ? day.sort((a, b) => Math.abs(a - now) - Math.abs(b - now))
        : // Two minutes of margin: the agenda and the server see it started.
          day.filter((start) => start <= now - 2).reverse();
    const booked = await bookFirstOf(request, token, { offering, date, starts, idService: opts.idService, idUser: opts.idUser });
    if ('id' in booked) return { id: booked.id, date, professional: offering.name };
  }
  return null;
}

// ---------------------------------------------------------------------------
// The unit's caixa.

/** Closes the unit's open caixa, if any (counted as expected), so the test starts from 'Abrir caixa'. */
export async function closeOpenCaixa(request: APIRequestContext, token: string, idCompany: number) {
  const listed = await request.get(`/api/caixa?idCompany=${idCompany}&status=OPEN&page=1&pageSize=1`, { headers: auth(token) });
  expect(listed.ok(), await listed.text()).toBeTruthy();
  const open = ((await listed.json()) as { content: { IdCaixa: number; ExpectedCash: number }[] }).content[0];
  if (!open) return;
  const closed = await request.post(`/api/caixa/${open.IdCaixa}/close`, {
    headers: auth(token),
    data: { countedCash: open.ExpectedCash },
  });
  // 409: closed meanwhile (the list had not seen it yet).
  expect([200, 409], await closed.text()).toContain(closed.status());
}

/** A figure's row (a card's table row) by its label. */
export const figure = (scope: Locator, label: string) =>
  scope.getByRole('row').filter({ has: scope.page().getByRole('rowheader', { name: label, exact: true }) });

// ---------------------------------------------------------------------------
// Products.

/** A product on sale, through the API (the products' screen is tested on its own). */
export async function createProduct(request: APIRequestContext, token: string, name: string, price: number) {
  const created = await request.post('/api/product', { headers: auth(token), data: { name, price, active: true } });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { IdProduct: number }).IdProduct;
}

/**
 * `quantity` of a product received at a unit ('Entrada', issue 43): a unit sells only what it
 * holds unless it allows negative stock.
 */
export async function receiveStock(request: APIRequestContext, token: string, idProduct: number, idCompany: number, quantity: number) {
  const received = await request.post(`/api/product/${idProduct}/movements`, {
    headers: auth(token),
    data: { kind: 'entrada', idCompany, quantity, unitCost: 10, supplier: 'Distribuidora de teste' },
  });
  expect(received.status(), await received.text()).toBe(201);
}

/**
 * A product on sale named `name`: the one there is, or a new one at `price`. One product
 * for every run, so the comanda's picker (the first 100 products on sale, by name) lists it
 * however many runs the database has seen. Its id and price in centavos.
 */
export async function productOnSale(request: APIRequestContext, token: string, name: string, price: number) {
  const listed = await request.get(`/api/product?page=1&pageSize=20&status=1&search=${encodeURIComponent(name)}`, {
    headers: auth(token),
  });
  expect(listed.ok(), await listed.text()).toBeTruthy();
  const found = ((await listed.json()) as { content: { IdProduct: number; Name: string; Price: number }[] }).content.find(
    (product) => product.Name === name,
  );
  if (found) return { idProduct: found.IdProduct, cents: Math.round(found.Price * 100) };
  return { idProduct: await createProduct(request, token, name, price), cents: Math.round(price * 100) };
}

// ---------------------------------------------------------------------------
// Money as the screens show it.

/** 'R$ 84,90' as the screens write it (Intl's space is a non-breaking one). */
export const money = (text: string) => new RegExp(`R\\$\\s${text.replace(/[.$]/g, '\\$&')}`);

/** 'R$ 84,90' in centavos. */
export const centsOf = (text: string | null) => Number((text ?? '').replace(/\D/g, ''));

/** '1.234,56' of 123456 centavos: what follows 'R$ ' on the screens. */
export const reais = (cents: number) =>
  new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(cents / 100);

// ---------------------------------------------------------------------------
// Accessibility.

/** The serious and critical WCAG 2.1 A/AA violations on the page (as a11y.spec.ts reads them). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`));
}
