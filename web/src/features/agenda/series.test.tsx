import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { DAY, agendaServer, appointment, clients, freeTimes, professionals, type Recorded } from '@/test/agendaServer';
import { editToTimeStep, moveAndConfirm, loadAgendaFirst, renderAgenda } from '@/test/agendaSteps';
import { apiUrl, server } from '@/test/server';
import { addDays, formatDateBR, hhmm, minutesOf } from '@/lib/dates';
import type { SchedulingPayload, SeriesBody } from './model/types';

// Issue 45, point 4: 'Repetir' on a new booking, the series' badge, its cancellation, and the
// change of its appointments from an edit's save or a move on the grid.

// 12:00 UTC is 09:00 on the unit's clock (UTC-3), on DAY (a Tuesday).
const NOW = new Date(`${DAY}T12:00:00Z`);
const SECOND = addDays(DAY, 7);
const THIRD = addDays(DAY, 14);
const FOURTH = addDays(DAY, 21);
const TAKEN = 'Horário indisponível: o profissional já tem um agendamento neste horário.';

/** The form the wizard sends for Rafael, 'Corte de cabelo', Diego at 14:15 on DAY. */
const FORM = {
  idCompanyProfessional: 7,
  date: DAY,
  startTime: '14:15',
  endTime: '14:45',
  idServices: [1],
  idUser: 1,
  observation: '',
  timesType: 'ONLY_AVAILABLES',
};

loadAgendaFirst();

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  window.innerWidth = 1280;
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/**
 * The series' calls behind the HTTP contract: each date of `repeat` at the form's start or the
 * one chosen for it, free unless `taken` has 'date start'; a booking of a taken date is 409.
 */
function seriesServer(agenda: ReturnType<typeof agendaServer>, taken: Map<string, string>) {
  const calls: Recorded[] = [];
  let nextId = 700;
  const record = async (request: Request) => {
    const url = new URL(request.url);
    const body = request.method === 'DELETE' ? null : await request.clone().json();
    const entry = { method: request.method, path: url.pathname.replace('/api/', ''), search: url.searchParams, body, headers: request.headers };
    calls.push(entry);
    return entry;
  };
  const datesOf = (body: SeriesBody) => {
    const { everyWeeks, count, until } = body.repeat;
    const dates: string[] = [];
    for (let at = body.date!; count ? dates.length < count : at <= until!; at = addDays(at, 7 * everyWeeks)) dates.push(at);
    return dates;
  };
  const startOn = (body: SeriesBody, date: string) => body.occurrences?.find((o) => o.date === date)?.startTime ?? body.startTime!;
  server.use(
    http.post(apiUrl('scheduling/series/check'), async ({ request }) => {
      const body = (await record(request)).body as SeriesBody;
      return HttpResponse.json(
        datesOf(body).map((date) => {
          const start = startOn(body, date);
          const reason = taken.get(`${date} ${start}`) ?? null;
          return { Date: date, StartTime: start, EndTime: hhmm(minutesOf(start) + 30), Free: !reason, Reason: reason };
        }),
      );
    }),
    http.post(apiUrl('scheduling/series'), async ({ request }) => {
      const body = (await record(request)).body as SeriesBody;
      const occurrences = body.occurrences ?? [];
      const clash = occurrences.find((o) => taken.has(`${o.date} ${o.startTime}`));
      if (clash) {
        const message = `${formatDateBR(clash.date)}: ${taken.get(`${clash.date} ${clash.startTime}`)}`;
        return HttpResponse.json({ message, errors: { occurrences: message } }, { status: 409 });
      }
      const ids = occurrences.map(() => ++nextId);
      const client = clients.find((c) => c.IdUser === body.idUser)!;
      const professional = professionals.find((p) => p.IdCompanyProfessional === body.idCompanyProfessional)!;
      occurrences.forEach((o, index) =>
        agenda.items.set(
          ids[index],
          appointment(ids[index], {
            IdProfessional: professional.IdProfessional,
            IdUser: client.IdUser,
            UserName: client.Name,
            UserPhone: client.Phone,
            Date: o.date,
            StartTime: `${o.startTime}:00`,
            EndTime: `${hhmm(minutesOf(o.startTime) + 30)}:00`,
            Series: { IdSeries: ids[0], Index: index + 1, Count: ids.length, EveryWeeks: body.repeat.everyWeeks },
          }),
        ),
      );
      return HttpResponse.json({ IdSeries: ids[0], IdsScheduling: ids }, { status: 201, headers: { 'X-Navalha-Position': '9.900' } });
    }),
    http.delete(apiUrl('scheduling/:id/series'), async ({ request, params }) => {
      await record(request);
      const item = agenda.items.get(Number(params.id))!;
      item.Status = false;
      const scope = new URL(request.url).searchParams.get('scope');
      const ids = scope === 'all' ? [item.IdScheduling, 901, 902, 903] : [item.IdScheduling, 901, 902];
      return HttpResponse.json({ IdSeries: item.Series!.IdSeries, IdsScheduling: ids }, { headers: { 'X-Navalha-Position': '9.950' } });
    }),
  );
  return {
    calls,
    checks: () => calls.filter((c) => c.path === 'scheduling/series/check').map((c) => c.body as SeriesBody),
    bookings: () => calls.filter((c) => c.path === 'scheduling/series'),
  };
}

/** Free times that reach the series' second date too: Diego at 09:00 and 16:00. */
function freeTimesWithSecondDate() {
  const answer = freeTimes();
  answer.times.push({
    shortDate: SECOND,
    freeHours: [
      { start: '09:00', end: '09:30', idProfessional: 4 },
      { start: '16:00', end: '16:30', idProfessional: 4 },
    ],
  });
  server.use(http.get(apiUrl('no-auth/scheduling/available-times'), () => HttpResponse.json(answer)));
}

/** Opens 'Novo agendamento' and chooses Rafael, 'Corte de cabelo' and Diego's 14:15 on DAY. */
async function toTimeStep(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Novo agendamento' }));
  const modal = screen.getByRole('dialog', { name: 'Novo agendamento' });
  await user.click(await within(modal).findByRole('row', { name: /Rafael Araújo/ }));
  await user.click(within(modal).getByRole('button', { name: 'Próximo' }));
  await user.click(within(modal).getByRole('checkbox', { name: /Corte de cabelo/ }));
  await waitFor(() => expect(within(modal).getByRole('button', { name: 'Próximo' }).hasAttribute('disabled')).toBe(false));
  await user.click(within(modal).getByRole('button', { name: 'Próximo' }));
  await user.click(await within(modal).findByRole('button', { name: '14:15' }));
  return modal;
}

const rowOf = (scope: HTMLElement, date: string) => within(scope).getByRole('listitem', { name: date });
const disabled = (button: HTMLElement) => button.hasAttribute('disabled');

describe("'Repetir' in the wizard", () => {
  it('checks the dates, takes another time for the one that clashes, skips one and books the rest', async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([]);
    const series = seriesServer(agenda, new Map([[`${SECOND} 14:15`, TAKEN]]));
    freeTimesWithSecondDate();
    const { store } = renderAgenda();
    const modal = await toTimeStep(user);

    await user.click(within(modal).getByRole('checkbox', { name: 'Repetir' }));
    const book = within(modal).getByRole('button', { name: 'Agendar série (4)' });
    expect(disabled(book)).toBe(true);
    expect(within(modal).getByRole('tooltip').textContent).toBe('Verifique as datas da série.');
    expect(within(modal).queryByRole('button', { name: 'Confirmar' })).toBeNull();
    const frequency = within(modal).getByLabelText('Frequência') as HTMLSelectElement;
    expect([...frequency.options].map((option) => option.textContent)).toEqual([
      'Toda semana',
      'A cada 2 semanas',
      'A cada 3 semanas',
      'A cada 4 semanas',
      'A cada 5 semanas',
      'A cada 6 semanas',
      'A cada 7 semanas',
      'A cada 8 semanas',
    ]);
    expect(frequency.value).toBe('1');
    expect((within(modal).getByRole('radio', { name: 'Após' }) as HTMLInputElement).checked).toBe(true);
    expect((within(modal).getByLabelText('Número de vezes') as HTMLInputElement).value).toBe('4');
    // 'Em' starts about three months on.
    expect((within(modal).getByLabelText('Data final') as HTMLInputElement).value).toBe(addDays(DAY, 91));

    await user.click(within(modal).getByRole('button', { name: 'Verificar datas' }));
    const list = await within(modal).findByRole('list', { name: 'Datas da série' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(4);
    expect(series.checks()[0]).toEqual({ ...FORM, repeat: { everyWeeks: 1, count: 4 } });
    expect(rowOf(list, 'ter., 24/11/2026').textContent).toContain('14:15 - 14:45');
    expect(rowOf(list, 'ter., 24/11/2026').textContent).toContain('Livre');
    const second = rowOf(list, 'ter., 01/12/2026');
    expect(second.textContent).toContain(TAKEN);
    expect(within(second).getByText(TAKEN).className).toContain('series-busy');
    expect(disabled(book)).toBe(true);
    expect(within(modal).getByRole('tooltip').textContent).toBe('Escolha outro horário ou pule as datas indisponíveis.');

    // Another time that day: the professional's free ones, and the series is checked again.
    const other = within(second).getByRole('combobox', { name: 'Outro horário' }) as HTMLSelectElement;
    expect([...other.options].map((option) => option.textContent)).toEqual(['Outro horário', '09:00', '16:00']);
    await user.selectOptions(other, '16:00');
    await waitFor(() => expect(rowOf(list, 'ter., 01/12/2026').textContent).toContain('Livre'));
    expect(rowOf(list, 'ter., 01/12/2026').textContent).toContain('16:00 - 16:30');
    expect(series.checks()[1]).toEqual({ ...FORM, repeat: { everyWeeks: 1, count: 4 }, occurrences: [{ date: SECOND, startTime: '16:00' }] });
    expect(disabled(within(modal).getByRole('button', { name: 'Agendar série (4)' }))).toBe(false);

    // A free date left out.
    await user.click(within(list).getByRole('checkbox', { name: 'Agendar em ter., 15/12/2026' }));
    expect(rowOf(list, 'ter., 15/12/2026').textContent).toContain('Pulada');
    await user.click(within(modal).getByRole('button', { name: 'Agendar série (3)' }));

    expect(await screen.findByText('Série agendada: 3 agendamentos.')).toBeTruthy();
    const [booking] = series.bookings();
    expect(booking.body).toEqual({
      ...FORM,
      repeat: { everyWeeks: 1, count: 4 },
      occurrences: [
        { date: DAY, startTime: '14:15' },
        { date: SECOND, startTime: '16:00' },
        { date: THIRD, startTime: '14:15' },
      ],
    });
    expect(booking.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(screen.queryByRole('dialog', { name: 'Novo agendamento' })).toBeNull();
    // Closed like a booking: the agenda on the first date, read at the series' position.
    expect(store.getState().agenda.date).toBe(DAY);
    const card = await screen.findByRole('article', { name: /Rafael Araújo, 14:15/ });
    expect(within(card).getByText('Série 1/3').getAttribute('title')).toBe('Repete toda semana');
    await waitFor(() => expect(agenda.dayReads().at(-1)!.headers.get('X-Navalha-Position')).toBe('9.900'));
  });

  it("'Pular' leaves a clash out; a date taken meanwhile is said and the series checked again", async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([]);
    const taken = new Map([[`${SECOND} 14:15`, TAKEN]]);
    const series = seriesServer(agenda, taken);
    renderAgenda();
    const modal = await toTimeStep(user);
    await user.click(within(modal).getByRole('checkbox', { name: 'Repetir' }));
    await user.click(within(modal).getByRole('button', { name: 'Verificar datas' }));
    const list = await within(modal).findByRole('list', { name: 'Datas da série' });
    // The free times read have nothing for Diego that day: nothing else to offer.
    expect(within(rowOf(list, 'ter., 01/12/2026')).getByText('Nenhum outro horário livre neste dia.')).toBeTruthy();

    await user.click(within(rowOf(list, 'ter., 01/12/2026')).getByRole('button', { name: 'Pular' }));
    expect(rowOf(list, 'ter., 01/12/2026').textContent).toContain('Pulada');
    expect((within(list).getByRole('checkbox', { name: 'Agendar em ter., 01/12/2026' }) as HTMLInputElement).checked).toBe(false);
    const book = within(modal).getByRole('button', { name: 'Agendar série (3)' });
    expect(disabled(book)).toBe(false);

    // Another desk takes the third date before the booking.
    taken.set(`${THIRD} 14:15`, TAKEN);
    await user.click(book);
    const message = `${formatDateBR(THIRD)}: ${TAKEN}`;
    expect(await screen.findByText(message)).toBeTruthy();
    await waitFor(() => expect(series.checks()).toHaveLength(2));
    await waitFor(() => expect(rowOf(list, 'ter., 08/12/2026').textContent).toContain(TAKEN));
    // What the desk skipped stays skipped; nothing was booked, the wizard stays open.
    expect(rowOf(list, 'ter., 01/12/2026').textContent).toContain('Pulada');
    expect(disabled(within(modal).getByRole('button', { name: 'Agendar série (3)' }))).toBe(true);
    expect(series.bookings()).toHaveLength(1);
    expect([...agenda.items.values()]).toHaveLength(0);

    // Left out too: two dates remain, which is a series.
    await user.click(within(list).getByRole('checkbox', { name: 'Agendar em ter., 08/12/2026' }));
    await user.click(within(modal).getByRole('button', { name: 'Agendar série (2)' }));
    expect(await screen.findByText('Série agendada: 2 agendamentos.')).toBeTruthy();
    expect(series.bookings()[1].body).toMatchObject({
      occurrences: [
        { date: DAY, startTime: '14:15' },
        { date: FOURTH, startTime: '14:15' },
      ],
    });
    // Another request: another key.
    expect(series.bookings()[1].headers.get('Idempotency-Key')).not.toBe(series.bookings()[0].headers.get('Idempotency-Key'));
  });

  it("checks the repetition before sending, with the server's messages, and a change asks for a new check", async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([]);
    const series = seriesServer(agenda, new Map());
    renderAgenda();
    const modal = await toTimeStep(user);
    await user.click(within(modal).getByRole('checkbox', { name: 'Repetir' }));
    const count = within(modal).getByLabelText('Número de vezes');
    await user.clear(count);
    await user.type(count, '27');
    await user.click(within(modal).getByRole('button', { name: 'Verificar datas' }));
    expect((await within(modal).findByRole('alert')).textContent).toBe('Repita de 2 a 26 vezes.');
    await user.clear(count);
    await user.type(count, '1');
    expect(within(modal).getByRole('alert').textContent).toBe('Repita de 2 a 26 vezes.');

    const until = within(modal).getByLabelText('Data final');
    await user.click(within(modal).getByRole('radio', { name: 'Em' }));
    await user.clear(until);
    await user.type(until, '2027-07-01');
    expect(within(modal).getByRole('alert').textContent).toBe('A série pode durar no máximo 6 meses.');
    await user.selectOptions(within(modal).getByLabelText('Frequência'), 'A cada 2 semanas');
    await user.clear(until);
    await user.type(until, '2026-12-01');
    expect(within(modal).getByRole('alert').textContent).toBe('A data final deve permitir pelo menos uma repetição.');
    expect(series.checks()).toHaveLength(0);

    await user.clear(until);
    await user.type(until, '2026-12-22');
    expect(within(modal).queryByRole('alert')).toBeNull();
    expect(within(modal).getByRole('button', { name: 'Agendar série (3)' })).toBeTruthy();
    await user.click(within(modal).getByRole('button', { name: 'Verificar datas' }));
    const list = await within(modal).findByRole('list', { name: 'Datas da série' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    expect(series.checks()[0]).toEqual({ ...FORM, repeat: { everyWeeks: 2, until: '2026-12-22' } });
    expect(disabled(within(modal).getByRole('button', { name: 'Agendar série (3)' }))).toBe(false);

    // Another time of the booking: the dates are checked again before booking.
    await user.click(within(modal).getByRole('button', { name: '11:00' }));
    expect(within(modal).queryByRole('list', { name: 'Datas da série' })).toBeNull();
    expect(within(modal).getByText('A série mudou desde a verificação: verifique as datas novamente.')).toBeTruthy();
    expect(disabled(within(modal).getByRole('button', { name: 'Agendar série (3)' }))).toBe(true);

    // The server's own 422 is shown under its field.
    server.use(
      http.post(apiUrl('scheduling/series/check'), () =>
        HttpResponse.json(
          { message: 'Dados inválidos.', errors: { 'repeat.until': 'A série pode durar no máximo 6 meses.' } },
          { status: 422 },
        ),
      ),
    );
    await user.click(within(modal).getByRole('button', { name: 'Verificar datas' }));
    expect((await within(modal).findByRole('alert')).textContent).toBe('A série pode durar no máximo 6 meses.');
    // Unticked, the wizard books one appointment as before.
    await user.click(within(modal).getByRole('checkbox', { name: 'Repetir' }));
    expect(disabled(within(modal).getByRole('button', { name: 'Confirmar' }))).toBe(false);
  });

  it("offers, beyond the free times' 30 days, the starts that fit the professional's working hours", async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([]);
    const far = addDays(DAY, 35);
    seriesServer(agenda, new Map([[`${far} 14:15`, TAKEN]]));
    renderAgenda();
    const modal = await toTimeStep(user);
    await user.click(within(modal).getByRole('checkbox', { name: 'Repetir' }));
    const count = within(modal).getByLabelText('Número de vezes');
    await user.clear(count);
    await user.type(count, '6');
    await user.click(within(modal).getByRole('button', { name: 'Verificar datas' }));
    const list = await within(modal).findByRole('list', { name: 'Datas da série' });
    const row = rowOf(list, 'ter., 29/12/2026');
    expect(row.textContent).toContain(TAKEN);
    // Diego works 09:00-12:00 and 13:00-19:00 that Tuesday: 30 minutes fit from 09:00 to 18:30.
    const other = (await within(row).findByRole('combobox', { name: 'Outro horário' })) as HTMLSelectElement;
    const starts = [...other.options].map((option) => option.value).filter(Boolean);
    expect(starts.slice(0, 3)).toEqual(['09:00', '09:15', '09:30']);
    expect(starts).toContain('13:00');
    expect(starts).not.toContain('14:15');
    expect(starts).not.toContain('11:45');
    expect(starts.at(-1)).toBe('18:30');
    expect(agenda.calls.some((c) => c.path === 'scheduling/company/1/working-times' && c.search.get('date') === far)).toBe(true);
  });

  it('is not offered when editing an appointment', async () => {
    const user = userEvent.setup();
    agendaServer([appointment(9, { Date: DAY, StartTime: '11:00:00', EndTime: '11:30:00' })]);
    renderAgenda();
    const modal = await editToTimeStep(user, 9);
    expect(await within(modal).findByRole('region', { name: 'Horário' })).toBeTruthy();
    expect(within(modal).queryByRole('checkbox', { name: 'Repetir' })).toBeNull();
  });
});

describe("'Repetir' in the mobile flow", () => {
  beforeEach(() => {
    window.innerWidth = 390;
  });

  it('checks once a client is chosen and books the series without timesType', async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([]);
    const series = seriesServer(agenda, new Map([[`${SECOND} 18:30`, TAKEN]]));
    renderAgenda();
    await screen.findByText('Nenhum agendamento encontrado...');
    await user.click(screen.getByRole('button', { name: 'Novo agendamento' }));
    await user.click(await screen.findByRole('checkbox', { name: /Barba/ }));
    await user.click(await screen.findByRole('button', { name: '18:30' }));
    await user.click(screen.getByRole('checkbox', { name: 'Repetir' }));
    expect(disabled(screen.getByRole('button', { name: 'Verificar datas' }))).toBe(true);
    expect(screen.getByText('Escolha o cliente, os serviços e o horário para verificar as datas.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Selecionar cliente' }));
    await user.click(await within(screen.getByRole('dialog', { name: 'Buscar cliente' })).findByRole('row', { name: /Gustavo Ribeiro/ }));
    await user.click(screen.getByRole('button', { name: 'Verificar datas' }));
    const list = await screen.findByRole('list', { name: 'Datas da série' });
    expect(rowOf(list, 'ter., 01/12/2026').textContent).toContain(TAKEN);
    await user.click(within(rowOf(list, 'ter., 01/12/2026')).getByRole('button', { name: 'Pular' }));
    await user.click(screen.getByRole('button', { name: 'Agendar série (3)' }));

    expect(await screen.findByText('Série agendada: 3 agendamentos.')).toBeTruthy();
    const body = series.bookings()[0].body as SeriesBody;
    expect(body).not.toHaveProperty('timesType');
    expect(body).toMatchObject({ idCompanyProfessional: 6, idServices: [2], idUser: 3, startTime: '18:30', repeat: { everyWeeks: 1, count: 4 } });
    expect(body.occurrences!.map((o) => o.date)).toEqual([DAY, THIRD, FOURTH]);
    // Back on the list, which shows the first date's card with its badge.
    const card = await screen.findByRole('article', { name: /Gustavo Ribeiro, 18:30/ });
    expect(within(card).getByText('Série 1/3')).toBeTruthy();
  });
});

describe("cancelling a series' appointment", () => {
  const seriesOf = (Index: number, Count: number, EveryWeeks = 1, IdSeries = 40) => ({ IdSeries, Index, Count, EveryWeeks });

  it("badges the cards and offers 'Somente este', 'Este e os seguintes' and 'Todos'", async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([
      appointment(1, { Series: seriesOf(2, 4) }),
      appointment(2, { StartTime: '11:00:00', EndTime: '11:30:00', Series: seriesOf(1, 3, 2, 2) }),
      appointment(3, { StartTime: '12:00:00', EndTime: '12:30:00', Series: seriesOf(3, 5, 1, 3) }),
      appointment(4, { StartTime: '13:00:00', EndTime: '13:30:00' }),
    ]);
    const series = seriesServer(agenda, new Map());
    renderAgenda();
    const card = async (id: number) => screen.findByRole('article', { name: new RegExp(`N\\.º ${id}:`) });
    const badge = within(await card(1)).getByText('Série 2/4');
    expect(badge.getAttribute('title')).toBe('Repete toda semana');
    expect(badge.className).toBe('badge badge-series');
    expect(within(await card(2)).getByText('Série 1/3').getAttribute('title')).toBe('Repete a cada 2 semanas');
    expect((await card(4)).querySelector('.badge-series')).toBeNull();

    const cancel = async (id: number) => {
      await user.click(screen.getByRole('button', { name: `Opções do agendamento N.º ${id}` }));
      await user.click(screen.getByRole('menuitem', { name: 'Cancelar' }));
      return screen.getByRole('dialog', { name: 'Atencão!' });
    };

    // 'Este e os seguintes'.
    let dialog = await cancel(1);
    expect(within(dialog).getAllByRole('radio').map((radio) => radio.parentElement!.textContent)).toEqual([
      'Somente este',
      'Este e os seguintes',
      'Todos',
    ]);
    expect((within(dialog).getByRole('radio', { name: 'Somente este' }) as HTMLInputElement).checked).toBe(true);
    expect(within(dialog).getByText(/Agendamentos da série \(Série 2\/4, repete toda semana\)/)).toBeTruthy();
    await user.click(within(dialog).getByRole('radio', { name: 'Este e os seguintes' }));
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('3 agendamentos cancelados.')).toBeTruthy();
    const [following] = series.calls;
    expect([following.method, following.path, following.search.get('scope')]).toEqual(['DELETE', 'scheduling/1/series', 'following']);
    await waitFor(async () => expect(within(await card(1)).getByText('Cancelado')).toBeTruthy());

    // 'Todos'.
    dialog = await cancel(2);
    await user.click(within(dialog).getByRole('radio', { name: 'Todos' }));
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('4 agendamentos cancelados.')).toBeTruthy();
    expect(series.calls[1].search.get('scope')).toBe('all');

    // 'Somente este': the usual cancellation, and the choice starts there again.
    dialog = await cancel(3);
    expect((within(dialog).getByRole('radio', { name: 'Somente este' }) as HTMLInputElement).checked).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('Agendamento N.º 3 excluído com sucesso!')).toBeTruthy();
    expect(agenda.calls.some((call) => call.method === 'DELETE' && call.path === 'scheduling/3')).toBe(true);
    expect(series.calls).toHaveLength(2);

    // Not in a series: no choice.
    dialog = await cancel(4);
    expect(within(dialog).queryByRole('radio')).toBeNull();
  });
});

describe("changing a series' appointment", () => {
  const SERIES = { IdSeries: 8, Index: 2, Count: 4, EveryWeeks: 1 };
  const OVERLAP = 'Este cliente já tem outro agendamento neste horário.';

  /**
   * PUT scheduling/{id}/series behind the HTTP contract: this appointment takes the form (the
   * others are on other weeks, not shown), and the answer names 3 ('following') or 4 ('all');
   * `refuse` answers instead when it returns a response (nothing changes then).
   */
  function changeServer(agenda: ReturnType<typeof agendaServer>, refuse?: (body: SchedulingPayload) => Response | undefined) {
    const calls: Recorded[] = [];
    server.use(
      http.put(apiUrl('scheduling/:id/series'), async ({ request, params }) => {
        const url = new URL(request.url);
        const body = (await request.clone().json()) as SchedulingPayload;
        calls.push({ method: 'PUT', path: url.pathname.replace('/api/', ''), search: url.searchParams, body, headers: request.headers });
        const refusal = refuse?.(body);
        if (refusal) return refusal;
        const id = Number(params.id);
        const item = agenda.items.get(id)!;
        const professional = professionals.find((p) => p.IdCompanyProfessional === body.idCompanyProfessional)!;
        agenda.items.set(
          id,
          appointment(id, {
            ...item,
            IdProfessional: professional.IdProfessional,
            IdCompanyProfessional: professional.IdCompanyProfessional,
            ProfessionalName: professional.Name,
            ProfessionalColor: professional.Color,
            Date: body.date!,
            StartTime: `${body.startTime}:00`,
            EndTime: `${body.endTime}:00`,
          }),
        );
        const ids = url.searchParams.get('scope') === 'all' ? [id, 901, 902, 903] : [id, 902, 903];
        return HttpResponse.json({ IdSeries: item.Series!.IdSeries, IdsScheduling: ids }, { headers: { 'X-Navalha-Position': '9.970' } });
      }),
    );
    return calls;
  }

  /** The single edits sent (PUT scheduling/professional/{id}). */
  const singleEdits = (agenda: ReturnType<typeof agendaServer>) =>
    agenda.calls.filter((c) => c.method === 'PUT' && c.path.startsWith('scheduling/professional/'));

  /** 'Alterar série', once it is asked: its text, its choices ('Somente este' chosen) and its buttons. */
  async function seriesQuestion() {
    const dialog = await screen.findByRole('dialog', { name: 'Alterar série' });
    expect(within(dialog).getByText('Este agendamento faz parte de uma série (Série 2/4).')).toBeTruthy();
    expect(within(dialog).getAllByRole('radio').map((radio) => radio.parentElement!.textContent)).toEqual([
      'Somente este',
      'Este e os seguintes',
      'Todos',
    ]);
    expect((within(dialog).getByRole('radio', { name: 'Somente este' }) as HTMLInputElement).checked).toBe(true);
    expect(within(dialog).getAllByRole('button').map((button) => button.textContent)).toEqual(['Continuar', 'Cancelar']);
    return dialog;
  }

  /** Edits appointment 9 (Diego, 11:00 on DAY) to 14:15 and presses 'Confirmar'; answers the wizard. */
  async function editTo1415(user: ReturnType<typeof userEvent.setup>) {
    const modal = await editToTimeStep(user, 9);
    await moveAndConfirm(user, modal, '11:00', '14:15');
    return modal;
  }

  /** What the wizard's single edit of appointment 9 to 14:15 sends. */
  const EDITED = {
    idCompanyProfessional: 7,
    date: DAY,
    startTime: '14:15',
    endTime: '14:45',
    idServices: [1],
    idUser: 9,
    observation: '',
    timesType: 'ONLY_AVAILABLES',
  };

  const inSeries = () => appointment(9, { StartTime: '11:00:00', EndTime: '11:30:00', Series: SERIES });

  it("asks in the edit wizard; 'Este e os seguintes' sends the edit's body to the series and says how many", async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([inSeries()]);
    const changes = changeServer(agenda);
    const { store } = renderAgenda();
    const modal = await editTo1415(user);

    // 'Cancelar': nothing sent, the wizard stays as it was.
    await user.click(within(await seriesQuestion()).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog', { name: 'Alterar série' })).toBeNull();
    expect(within(modal).getByRole('button', { name: '14:15' }).getAttribute('aria-pressed')).toBe('true');
    expect(changes).toHaveLength(0);
    expect(singleEdits(agenda)).toHaveLength(0);

    await user.click(within(modal).getByRole('button', { name: 'Confirmar' }));
    const dialog = await seriesQuestion();
    await user.click(within(dialog).getByRole('radio', { name: 'Este e os seguintes' }));
    await user.click(within(dialog).getByRole('button', { name: 'Continuar' }));

    expect(await screen.findByText('3 agendamentos alterados.')).toBeTruthy();
    expect(screen.queryByText(/^Agendamento realizado com sucesso!/)).toBeNull();
    expect(changes).toHaveLength(1);
    expect([changes[0].path, changes[0].search.get('scope')]).toEqual(['scheduling/9/series', 'following']);
    expect(changes[0].body).toEqual(EDITED);
    expect(singleEdits(agenda)).toHaveLength(0);
    expect(screen.queryByRole('dialog', { name: 'Editar agendamento' })).toBeNull();
    expect(store.getState().agenda.modal.open).toBe(false);
    // Read again at the change's position.
    expect(await screen.findByRole('article', { name: /N\.º 9: .*, 14:15/ })).toBeTruthy();
    await waitFor(() => expect(agenda.dayReads().at(-1)!.headers.get('X-Navalha-Position')).toBe('9.970'));
  });

  it("'Somente este' is the single edit as before; an appointment not in a series is not asked", async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([inSeries(), appointment(10, { StartTime: '12:00:00', EndTime: '12:30:00' })]);
    const changes = changeServer(agenda);
    renderAgenda();
    await editTo1415(user);
    await user.click(within(await seriesQuestion()).getByRole('button', { name: 'Continuar' }));
    expect(await screen.findByText('Agendamento realizado com sucesso! 24/11/2026 às 14:15.')).toBeTruthy();
    expect(singleEdits(agenda).map((c) => [c.path, c.body])).toEqual([['scheduling/professional/9', EDITED]]);
    expect(changes).toHaveLength(0);

    await user.click(await screen.findByRole('button', { name: 'Opções do agendamento N.º 10' }));
    await user.click(screen.getByRole('menuitem', { name: 'Editar' }));
    const modal = screen.getByRole('dialog', { name: 'Editar agendamento' });
    await waitFor(() => expect(within(modal).getByRole('button', { name: 'Próximo' }).hasAttribute('disabled')).toBe(false));
    await user.click(within(modal).getByRole('button', { name: 'Próximo' }));
    await waitFor(
      () => expect((within(modal).getByRole('combobox', { name: 'Profissional' }) as HTMLInputElement).value).toBe('Diego Barbeiro'),
      { timeout: 3000 },
    );
    await user.click(within(modal).getByRole('button', { name: '11:00' }));
    await user.click(within(modal).getByRole('button', { name: 'Confirmar' }));
    expect(await screen.findByText('Agendamento realizado com sucesso! 24/11/2026 às 11:00.')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Alterar série' })).toBeNull();
    expect(singleEdits(agenda)[1]).toMatchObject({ path: 'scheduling/professional/10', body: { idCompanyProfessional: 7, startTime: '11:00' } });
  });

  it('asks the price after the series, and sends the chosen reprice with it', async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([inSeries()]);
    const changes = changeServer(agenda);
    // Caio charges R$ 65,00 for 'Corte de cabelo'; it was booked at R$ 55,00.
    server.use(
      http.get(apiUrl('professional-service/professional/3'), () =>
        HttpResponse.json([
          { IdCompanyProfessionalService: 31, IdService: 1, Description: 'Corte de cabelo', Time: 30, Value: 65, Combo: false, Status: true },
        ]),
      ),
    );
    renderAgenda();
    const modal = await editToTimeStep(user, 9);
    await moveAndConfirm(user, modal, '11:00', '11:00', 'Caio Líder');

    const dialog = await seriesQuestion();
    expect(screen.queryByRole('dialog', { name: 'Valor do agendamento' })).toBeNull();
    await user.click(within(dialog).getByRole('radio', { name: 'Todos' }));
    await user.click(within(dialog).getByRole('button', { name: 'Continuar' }));
    const price = await screen.findByRole('dialog', { name: 'Valor do agendamento' });
    expect(screen.queryByRole('dialog', { name: 'Alterar série' })).toBeNull();
    await user.click(within(price).getByRole('button', { name: /^Usar R\$\s65,00$/ }));

    expect(await screen.findByText('4 agendamentos alterados.')).toBeTruthy();
    expect(changes[0].search.get('scope')).toBe('all');
    expect(changes[0].body).toEqual({ ...EDITED, idCompanyProfessional: 6, startTime: '11:00', endTime: '11:30', reprice: true });
  });

  it("shows a refusal (an occurrence not free, the client's other appointment) as a toast, and keeps the wizard as it was", async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([inSeries()]);
    const clash = `${formatDateBR(THIRD)}: ${TAKEN}`;
    let answer = () => HttpResponse.json({ message: clash, errors: { occurrences: clash } }, { status: 409 });
    const changes = changeServer(agenda, () => answer());
    renderAgenda('ADMIN');
    const modal = await editTo1415(user);
    let dialog = await seriesQuestion();
    await user.click(within(dialog).getByRole('radio', { name: 'Este e os seguintes' }));
    await user.click(within(dialog).getByRole('button', { name: 'Continuar' }));
    expect(await screen.findByText(clash)).toBeTruthy();
    expect(screen.getAllByText(clash)).toHaveLength(1);
    expect(within(modal).getByRole('button', { name: '14:15' }).getAttribute('aria-pressed')).toBe('true');
    expect(agenda.items.get(9)!.StartTime).toBe('11:00:00');

    // The client's other appointment: no 'Agendar mesmo assim' for a series, the message only.
    answer = () => HttpResponse.json({ message: OVERLAP, errors: { allowClientOverlap: OVERLAP } }, { status: 409 });
    await user.click(within(modal).getByRole('button', { name: 'Confirmar' }));
    dialog = await seriesQuestion();
    await user.click(within(dialog).getByRole('radio', { name: 'Todos' }));
    await user.click(within(dialog).getByRole('button', { name: 'Continuar' }));
    expect(await screen.findByText(OVERLAP)).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Cliente já agendado' })).toBeNull();
    expect(changes).toHaveLength(2);
    expect(changes[1].body).not.toHaveProperty('allowClientOverlap');
    expect(singleEdits(agenda)).toHaveLength(0);
    expect(screen.getByRole('dialog', { name: 'Editar agendamento' })).toBeTruthy();
  });

  /**
   * The timeline, and a drag of appointment 9 (from Diego's column to Eduardo's) to 14:00. jsdom has
   * no DragEvent nor PointerEvent: ones with the pointer's position stand in.
   */
  async function onTimeline(user: ReturnType<typeof userEvent.setup>) {
    vi.stubGlobal('DragEvent', class extends MouseEvent {});
    vi.stubGlobal('PointerEvent', class extends MouseEvent {});
    onTestFinished(() => {
      vi.unstubAllGlobals();
    });
    await screen.findByRole('article', { name: /N\.º 9:/ });
    await user.click(screen.getByRole('button', { name: 'Linha do tempo' }));
    const timeline = screen.getByRole('region', { name: 'Linha do tempo' });
    const column = (name: string) => within(timeline).getByRole('list', { name: `Agenda de ${name}` });
    const drag = () => {
      const card = within(column('Diego Barbeiro')).getByRole('listitem', { name: /N\.º 9:/ });
      // Held by its top, dropped five hour rows below 9:00.
      fireEvent.pointerDown(card, { clientY: 0 });
      fireEvent.dragStart(card, { dataTransfer: { setData: () => undefined, effectAllowed: 'move' } });
      fireEvent.drop(column('Eduardo Barbeiro'), { clientY: 5 * 122 });
    };
    return { column, drag };
  }

  /** What a drop of appointment 9 on Eduardo's 14:00 sends. */
  const MOVED = {
    idCompanyProfessional: 8,
    date: DAY,
    startTime: '14:00',
    endTime: '14:30',
    idServices: [1],
    idUser: 9,
    observation: '',
    timesType: 'ONLY_AVAILABLES',
  };

  it("asks before a drag moves a series' appointment: cancel puts it back, 'Todos' asks the price and moves them", async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([appointment(9, { Series: SERIES })]);
    const changes = changeServer(agenda);
    // Eduardo charges R$ 45,00 for 'Corte de cabelo'; it was booked at R$ 55,00.
    server.use(
      http.get(apiUrl('professional-service/professional/5'), () =>
        HttpResponse.json([
          { IdCompanyProfessionalService: 51, IdService: 1, Description: 'Corte de cabelo', Time: 30, Value: 45, Combo: false, Status: true },
        ]),
      ),
    );
    renderAgenda();
    const { column, drag } = await onTimeline(user);

    drag();
    let dialog = await seriesQuestion();
    // Shown at its new place while asked; nothing read nor sent yet.
    expect(within(column('Eduardo Barbeiro')).getByRole('listitem', { name: /N\.º 9: .*, 14:00 - 14:30/ })).toBeTruthy();
    expect(agenda.calls.some((c) => c.path === 'scheduling/9')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(await within(column('Diego Barbeiro')).findByRole('listitem', { name: /N\.º 9: .*, 10:00 - 10:30/ })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Valor do agendamento' })).toBeNull();
    expect(changes).toHaveLength(0);

    drag();
    dialog = await seriesQuestion();
    await user.click(within(dialog).getByRole('radio', { name: 'Todos' }));
    await user.click(within(dialog).getByRole('button', { name: 'Continuar' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Valor do agendamento' })).getByRole('button', { name: /^Manter R\$\s55,00$/ }));
    expect(await screen.findByText('4 agendamentos alterados.')).toBeTruthy();
    expect(screen.queryByText(/movido para/)).toBeNull();
    expect([changes[0].path, changes[0].search.get('scope')]).toEqual(['scheduling/9/series', 'all']);
    expect(changes[0].body).toEqual(MOVED);
    expect(singleEdits(agenda)).toHaveLength(0);
    expect(await within(column('Eduardo Barbeiro')).findByRole('listitem', { name: /N\.º 9: .*, 14:00 - 14:30/ })).toBeTruthy();
    await waitFor(() => expect(agenda.dayReads().at(-1)!.headers.get('X-Navalha-Position')).toBe('9.970'));
  });

  it("puts the card back when the series' move is refused, and moves it alone with 'Somente este'", async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([appointment(9, { Series: SERIES })]);
    const clash = `${formatDateBR(FOURTH)}: ${TAKEN}`;
    const changes = changeServer(agenda, () => HttpResponse.json({ message: clash, errors: { occurrences: clash } }, { status: 409 }));
    // Eduardo charges what it was booked at: no price question.
    server.use(
      http.get(apiUrl('professional-service/professional/5'), () =>
        HttpResponse.json([
          { IdCompanyProfessionalService: 51, IdService: 1, Description: 'Corte de cabelo', Time: 30, Value: 55, Combo: false, Status: true },
        ]),
      ),
    );
    renderAgenda('ATTENDANT');
    const { column, drag } = await onTimeline(user);

    drag();
    let dialog = await seriesQuestion();
    await user.click(within(dialog).getByRole('radio', { name: 'Este e os seguintes' }));
    await user.click(within(dialog).getByRole('button', { name: 'Continuar' }));
    expect(await screen.findByText(clash)).toBeTruthy();
    expect(await within(column('Diego Barbeiro')).findByRole('listitem', { name: /N\.º 9: .*, 10:00 - 10:30/ })).toBeTruthy();
    expect(within(column('Eduardo Barbeiro')).queryByRole('listitem', { name: /N\.º 9:/ })).toBeNull();
    expect(changes).toHaveLength(1);
    expect(changes[0].search.get('scope')).toBe('following');

    drag();
    dialog = await seriesQuestion();
    await user.click(within(dialog).getByRole('button', { name: 'Continuar' }));
    expect(await screen.findByText('Agendamento N.º 9 movido para 24/11/2026 às 14:00.')).toBeTruthy();
    expect(singleEdits(agenda).map((c) => [c.path, c.body])).toEqual([['scheduling/professional/9', MOVED]]);
    expect(changes).toHaveLength(1);
  });
});
