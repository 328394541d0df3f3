import { http, HttpResponse, delay } from 'msw';
import type {
  AvailableTimes,
  ClientItem,
  DayItem,
  SchedulingPayload,
  UnitProfessional,
  UnitService,
} from '@/features/agenda';
import type { WorkingDay } from '@/features/agenda/model/types';
import { ownCompany } from './fixtures';
import { apiUrl, server } from './server';

// An in-memory agenda behind the HTTP contract, for whole-app tests of the agenda.

export const DAY = '2026-11-24';
export const NEXT_DAY = '2026-11-25';

export const professionals: UnitProfessional[] = [
  { IdProfessional: 3, Name: 'Caio Líder', Status: 1, BirthDate: null, Phone: '11987650002', IdCompanyProfessional: 6, Color: '#1565C0' },
  { IdProfessional: 4, Name: 'Diego Barbeiro', Status: 1, BirthDate: null, Phone: '11987650003', IdCompanyProfessional: 7, Color: '#FF9800' },
  { IdProfessional: 5, Name: 'Eduardo Barbeiro', Status: 1, BirthDate: null, Phone: '11987650004', IdCompanyProfessional: 8, Color: '#2E7D32' },
];

export const services: UnitService[] = [
  { IdService: 2, Description: 'Barba', MaxTime: 30, MaxValue: 45 },
  { IdService: 1, Description: 'Corte de cabelo', MaxTime: 30, MaxValue: 55 },
  { IdService: 4, Description: 'Sobrancelha', MaxTime: 15, MaxValue: 25 },
];

export const clients: ClientItem[] = Array.from({ length: 12 }, (_, i) => ({
  IdUser: i + 1,
  Name: ['Rafael Araújo', 'Thiago Nogueira', 'Gustavo Ribeiro', 'Felipe Magalhães', 'Pedro Henrique Lima', 'Lucas Gonçalves',
    'Matheus Albuquerque', 'João Conceição', 'Bruno Carvalho', 'André Figueiredo', 'Marcelo Pacheco', 'Vinícius Prado'][i],
  Phone: `119876501${String(i).padStart(2, '0')}`,
  Email: `cliente${i + 1}@example.com`,
  Cpf: '52998224725',
  Status: true,
  SubscriptionUser: [],
  Unconfirmed: false,
  NoShows: 0,
  NoShowsLast90Days: 0,
}));

const professionalOf = (id: number) => professionals.find((p) => p.IdProfessional === id)!;

export function appointment(id: number, overrides: Partial<DayItem> = {}): DayItem {
  const professional = professionalOf(overrides.IdProfessional ?? 4);
  const client = clients[(id - 1) % clients.length];
  return {
    IdScheduling: id,
    IdProfessional: professional.IdProfessional,
    IdCompanyProfessional: professional.IdCompanyProfessional,
    IdUser: client.IdUser,
    UserName: client.Name,
    UserPhone: client.Phone,
    UserWhatsApp: true,
    Date: DAY,
    StartTime: '10:00:00',
    EndTime: '10:30:00',
    Services: ['Corte de cabelo'],
    Observation: '',
    Status: true,
    Confirmation: false,
    TimesType: 'ONLY_AVAILABLES',
    ProfessionalColor: professional.Color,
    ProfessionalName: professional.Name,
    SubscriptionUser: [],
    Online: false,
    IntervalAfter: 0,
    ...overrides,
  };
}

/** Free times: the day and the next one, for Caio (3) and Diego (4), morning, afternoon, night. */
export function freeTimes(): AvailableTimes {
  const hours = (date: string) =>
    date === DAY
      ? [
          { start: '11:00', end: '11:30', idProfessional: 3 },
          { start: '11:00', end: '11:30', idProfessional: 4 },
          { start: '14:15', end: '14:45', idProfessional: 4 },
          { start: '18:30', end: '19:00', idProfessional: 3 },
        ]
      : [{ start: '09:00', end: '09:30', idProfessional: 3 }];
  return {
    professionals: professionals.slice(0, 2).map((p) => ({
      idProfessional: p.IdProfessional,
      idCompanyProfessional: p.IdCompanyProfessional,
      name: p.Name,
      color: p.Color,
      value: 45,
    })),
    times: [DAY, NEXT_DAY].map((shortDate) => ({ shortDate, freeHours: hours(shortDate) })),
  };
}

/**
 * A day of the working times (issue 45), like the demo's: the unit opens 09:00 to 21:00 Monday
 * to Saturday; every professional works Tuesday to Saturday, 09:00 to 12:00 and 13:00 to 19:00
 * (lunch between); no holidays.
 */
export function workingDay(date: string): WorkingDay {
  const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
  const works = weekday >= 2 && weekday <= 6;
  return {
    Date: date,
    Opening: weekday === 0 ? null : { Start: '09:00', End: '21:00' },
    Holidays: [],
    Professionals: professionals.map((p) => ({
      IdProfessional: p.IdProfessional,
      Working: works
        ? [
            { Start: '09:00', End: '12:00' },
            { Start: '13:00', End: '19:00' },
          ]
        : [],
    })),
  };
}

/** The days from `date` to `dateEnd` (at most 7), as GET scheduling/company/{id}/working-times answers them. */
export function workingDays(date: string, dateEnd: string | null, day: (date: string) => WorkingDay = workingDay): WorkingDay[] {
  const days: WorkingDay[] = [];
  for (let at = new Date(`${date}T12:00:00Z`); days.length < 7; at.setUTCDate(at.getUTCDate() + 1)) {
    const iso = at.toISOString().slice(0, 10);
    if (iso > (dateEnd ?? date)) break;
    days.push(day(iso));
  }
  return days;
}

export interface Recorded {
  method: string;
  path: string;
  search: URLSearchParams;
  body: unknown;
  headers: Headers;
}

export function agendaServer(initial: DayItem[] = [appointment(1)]) {
  const items = new Map(initial.map((item) => [item.IdScheduling, { ...item }]));
  const calls: Recorded[] = [];
  let position = 100;
  let nextId = 500;
  let nextComanda = 70;
  /** Holds PUT confirm answers until released (to see optimistic updates). */
  let holdConfirm: Promise<void> | null = null;
  const positionHeaders = () => ({ 'X-Navalha-Position': `9.${++position}` });
  /** The open live-change streams (GET /api/changes), to push events into. */
  const streams = new Set<ReadableStreamDefaultController<Uint8Array>>();
  const encoder = new TextEncoder();

  const record = async (request: Request) => {
    const url = new URL(request.url);
    let body: unknown = null;
    if (request.method !== 'GET' && request.method !== 'DELETE') body = await request.clone().json().catch(() => null);
    const entry = { method: request.method, path: url.pathname.replace('/api/', ''), search: url.searchParams, body, headers: request.headers };
    calls.push(entry);
    return entry;
  };

  const fromPayload = (id: number, payload: SchedulingPayload, base?: DayItem): DayItem => {
    const professional = professionals.find((p) => p.IdCompanyProfessional === payload.idCompanyProfessional)!;
    const client = clients.find((c) => c.IdUser === payload.idUser)!;
    return appointment(id, {
      ...base,
      IdProfessional: professional.IdProfessional,
      IdCompanyProfessional: professional.IdCompanyProfessional,
      ProfessionalName: professional.Name,
      ProfessionalColor: professional.Color,
      IdUser: client.IdUser,
      UserName: client.Name,
      UserPhone: client.Phone,
      Date: payload.date!,
      StartTime: `${payload.startTime}:00`,
      EndTime: `${payload.endTime}:00`,
      Services: services.filter((s) => payload.idServices.includes(s.IdService)).map((s) => s.Description),
      Observation: payload.observation ?? '',
    });
  };

  server.use(
    http.get(apiUrl('changes'), ({ request }) => {
      let opened: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          opened = controller;
          streams.add(controller);
          controller.enqueue(encoder.encode('event: ready\ndata: {}\n\n'));
        },
        cancel() {
          streams.delete(opened);
        },
      });
      request.signal.addEventListener('abort', () => streams.delete(opened));
      return new HttpResponse(body, { headers: { 'Content-Type': 'text/event-stream' } });
    }),
    http.get(apiUrl('day-off/company/:id'), () => HttpResponse.json([])),
    http.get(apiUrl('scheduling/company/:id/working-times'), async ({ request }) => {
      const { search } = await record(request);
      return HttpResponse.json(workingDays(search.get('date')!, search.get('dateEnd')));
    }),
    http.get(apiUrl('company'), () => HttpResponse.json([ownCompany, { ...ownCompany, IdCompany: 2, Name: 'Navalha Savassi', City: 'Belo Horizonte', State: 'MG' }])),
    http.get(apiUrl('professional-favorite-menu/'), () => HttpResponse.json([])),
    http.get(apiUrl('professional/company/:id'), () => HttpResponse.json(professionals)),
    http.get(apiUrl('service/company/:id'), () => HttpResponse.json(services)),
    http.get(apiUrl('scheduling/professional'), async ({ request }) => {
      const { search } = await record(request);
      const date = search.get('date');
      const professional = Number(search.get('idProfessional') ?? 0);
      const client = Number(search.get('idUser') ?? 0);
      const status = Number(search.get('status') ?? 0);
      const list = [...items.values()]
        .filter((item) => item.Date === date)
        .filter((item) => !professional || item.IdProfessional === professional)
        .filter((item) => !client || item.IdUser === client)
        .filter((item) => status === 0 || item.Status === (status === 1))
        .sort((a, b) => a.StartTime.localeCompare(b.StartTime));
      return HttpResponse.json(list);
    }),
    http.get(apiUrl('scheduling/:id'), async ({ request, params }) => {
      await record(request);
      const item = items.get(Number(params.id));
      if (!item) return HttpResponse.json({ message: 'Agendamento não encontrado.' }, { status: 404 });
      const professional = professionalOf(item.IdProfessional);
      return HttpResponse.json({
        IdScheduling: item.IdScheduling,
        IdCompanyProfessional: item.IdCompanyProfessional,
        CompanyProfessional: {
          IdCompanyProfessional: item.IdCompanyProfessional,
          Professional: { IdProfessional: professional.IdProfessional, Name: professional.Name, Color: professional.Color },
          Company: { IdCompany: 1 },
        },
        Date: item.Date,
        StartTime: item.StartTime,
        EndTime: item.EndTime,
        SchedulingServices: services
          .filter((s) => item.Services.includes(s.Description))
          .map((s) => ({ IdService: s.IdService, Description: s.Description, Time: s.MaxTime, Value: s.MaxValue })),
        IdUser: item.IdUser,
        UserName: item.UserName,
        UserPhone: item.UserPhone,
        UserWhatsApp: item.UserWhatsApp,
        Observation: item.Observation,
        Status: item.Status,
        Confirmation: item.Confirmation,
        TimesType: item.TimesType,
      });
    }),
    http.get(apiUrl('no-auth/scheduling/available-times'), async ({ request }) => {
      await record(request);
      return HttpResponse.json(freeTimes());
    }),
    http.get(apiUrl('user/filter'), async ({ request }) => {
      const { search } = await record(request);
      const page = Number(search.get('page'));
      const size = Number(search.get('pageSize'));
      const text = (search.get('search') ?? '').toLowerCase();
      const found = clients.filter((c) => c.Name.toLowerCase().includes(text));
      const content = found.slice((page - 1) * size, page * size);
      return HttpResponse.json({ content, total: found.length, count: content.length });
    }),
    http.post(apiUrl('scheduling/professional'), async ({ request }) => {
      const { body } = await record(request);
      const id = ++nextId;
      items.set(id, fromPayload(id, body as SchedulingPayload));
      return HttpResponse.json({ IdScheduling: id }, { status: 201, headers: positionHeaders() });
    }),
    http.put(apiUrl('scheduling/professional/:id'), async ({ request, params }) => {
      const { body } = await record(request);
      const id = Number(params.id);
      items.set(id, fromPayload(id, body as SchedulingPayload, items.get(id)));
      return HttpResponse.json({ IdScheduling: id }, { headers: positionHeaders() });
    }),
    http.put(apiUrl('scheduling/:id/confirm'), async ({ request, params }) => {
      await record(request);
      if (holdConfirm) await holdConfirm;
      const item = items.get(Number(params.id))!;
      item.Confirmation = true;
      return HttpResponse.json({ IdScheduling: item.IdScheduling, Confirmation: true }, { headers: positionHeaders() });
    }),
    // Issue 39: the sweep of one origin cancels the online bookings of the same user here.
    http.post(apiUrl('scheduling/:id/cancel-online-origin'), async ({ request, params }) => {
      await record(request);
      const from = items.get(Number(params.id))!;
      const swept = [...items.values()].filter((item) => item.Online && item.Status && item.IdUser === from.IdUser);
      swept.forEach((item) => (item.Status = false));
      const ids = swept.map((item) => item.IdScheduling);
      return HttpResponse.json({ Cancelled: ids.length, IdSchedulings: ids }, { headers: positionHeaders() });
    }),
    // Issue 41: the attendance, with the server's refusals, and the appointment's comanda.
    http.post(apiUrl('scheduling/:id/arrival'), async ({ request, params }) => {
      await record(request);
      const item = items.get(Number(params.id))!;
      item.Attendance = 'ARRIVED';
      return HttpResponse.json({ IdScheduling: item.IdScheduling, Attendance: 'ARRIVED' }, { headers: positionHeaders() });
    }),
    http.post(apiUrl('scheduling/:id/no-show'), async ({ request, params }) => {
      await record(request);
      const item = items.get(Number(params.id))!;
      if (item.Attendance === 'ARRIVED' || item.IdComanda) {
        return HttpResponse.json({ message: "O cliente chegou: não é possível marcar 'Não compareceu'.", errors: {} }, { status: 422 });
      }
      item.Attendance = 'NO_SHOW';
      return HttpResponse.json({ IdScheduling: item.IdScheduling, Attendance: 'NO_SHOW' }, { headers: positionHeaders() });
    }),
    http.delete(apiUrl('scheduling/:id/no-show'), async ({ request, params }) => {
      await record(request);
      const item = items.get(Number(params.id))!;
      item.Attendance = null;
      return HttpResponse.json({ IdScheduling: item.IdScheduling, Attendance: null }, { headers: positionHeaders() });
    }),
    http.post(apiUrl('comanda'), async ({ request }) => {
      const { body } = await record(request);
      const item = items.get((body as { idScheduling: number }).idScheduling)!;
      if (item.IdComanda) {
        return HttpResponse.json({ message: `Este agendamento já tem a comanda N.º ${item.IdComanda}.`, errors: {} }, { status: 409 });
      }
      item.IdComanda = ++nextComanda;
      return HttpResponse.json({ IdComanda: item.IdComanda }, { status: 201, headers: positionHeaders() });
    }),
    http.delete(apiUrl('scheduling/:id'), async ({ request, params }) => {
      await record(request);
      await delay(5);
      const item = items.get(Number(params.id))!;
      item.Status = false;
      return HttpResponse.json({ IdScheduling: item.IdScheduling, Status: false }, { headers: positionHeaders() });
    }),
  );

  return {
    items,
    calls,
    /** The reads of the day list, in order. */
    dayReads: () => calls.filter((c) => c.method === 'GET' && c.path === 'scheduling/professional'),
    lastPosition: () => `9.${position}`,
    /** How many live-change streams are open. */
    openStreams: () => streams.size,
    /** Tells every open stream that a read model changed (another desk's write). */
    pushChange(model: string) {
      const event = encoder.encode(`event: change\ndata: {"model":"${model}","position":"9.${++position}"}\n\n`);
      streams.forEach((stream) => stream.enqueue(event));
    },
    holdConfirms() {
      let release!: () => void;
      holdConfirm = new Promise<void>((resolve) => {
        release = resolve;
      });
      return () => {
        holdConfirm = null;
        release();
      };
    },
  };
}
