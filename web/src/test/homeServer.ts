import { http, HttpResponse } from 'msw';
import type { SessionCompany } from '@/api/wire';
import type { DayItem } from '@/features/agenda';
import type { Dashboard } from '@/features/home/homeApi';
import { otherCompany, ownCompany } from './fixtures';
import { apiUrl, server } from './server';

// The home's calls behind the contract of GET dashboard (docs/home.md), for Vitest.

/** A unit's week (Monday 23 to Sunday 29 November 2026), as ADMIN sees it. */
export function weekDashboard(overrides: Partial<Dashboard> = {}): Dashboard {
  const days = ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29'];
  return {
    Start: days[0],
    End: days[6],
    Own: false,
    Days: days.map((Date, i) =>
      i === 0
        ? { Date, Booked: 12, Confirmed: 4, Cancelled: 1, Attended: 9, NoShows: 1 }
        : { Date, Booked: i % 3, Confirmed: 0, Cancelled: i === 2 ? 3 : 0, Attended: 0, NoShows: 0 },
    ),
    Occupancy: [
      { IdProfessional: 4, Name: 'Diego Barbeiro', Color: '#f59e0b', BookedMinutes: 300, WorkingMinutes: 480 },
      { IdProfessional: 5, Name: 'Eduardo Barbeiro', Color: '#2e7d32', BookedMinutes: 90, WorkingMinutes: 0 },
    ],
    Services: [
      { IdService: 1, Description: 'Corte de cabelo', Count: 12, Value: 540.0 },
      { IdService: 2, Description: 'Barba', Count: 6, Value: 270.0 },
    ],
    BusyHours: [
      { Weekday: 1, Hour: 9, Count: 4 },
      { Weekday: 2, Hour: 14, Count: 2 },
      { Weekday: 6, Hour: 10, Count: 1 },
    ],
    Totals: {
      Appointments: 40,
      Cancelled: 4,
      CancellationRate: 0.0909,
      Attended: 9,
      NoShows: 1,
      NoShowRate: 0.1,
      ExpectedRevenue: 1800.0,
      NewClients: 5,
    },
    // Only the days with a closed comanda; professional 9 is no longer on the occupancy.
    Received: {
      Total: 1250.0,
      Days: [
        { Date: days[0], Value: 800.0 },
        { Date: days[2], Value: 450.0 },
      ],
      Methods: [
        { Key: 'pix', Value: 600.0 },
        { Key: 'cash', Value: 350.0 },
        { Key: 'credit', Value: 200.0 },
        { Key: 'subscription', Value: 100.0 },
      ],
      Professionals: [
        { Key: '4', Value: 700.0 },
        { Key: '5', Value: 500.0 },
        { Key: '9', Value: 50.0 },
      ],
    },
    // Issue 42: the month's commissions so far.
    Commissions: {
      Start: '2026-11-01',
      End: '2026-11-27',
      Period: 'month',
      Professionals: [
        { IdProfessional: 4, Commission: 280.0, Tips: 20.0, Earned: 300.0 },
        { IdProfessional: 5, Commission: 150.0, Tips: 0, Earned: 150.0 },
      ],
    },
    Club: {
      ActiveSubscribers: 12,
      MonthlyRecurringRevenue: 1078.8,
      Months: [
        { Month: '2026-06', Received: 0, ToReceive: 0 },
        { Month: '2026-07', Received: 200.0, ToReceive: 0 },
        { Month: '2026-08', Received: 300.0, ToReceive: 0 },
        { Month: '2026-09', Received: 400.0, ToReceive: 50.0 },
        { Month: '2026-10', Received: 450.0, ToReceive: 100.0 },
        { Month: '2026-11', Received: 500.0, ToReceive: 300.0 },
      ],
      Pending: [
        { IdSubscriptionUser: 7, UserName: 'João Conceição', PlanName: 'Clube Corte', Value: 89.9, DueDate: '2026-11-20' },
      ],
    },
    ...overrides,
  };
}

/** A barber's own figures: no club, no new clients and only their own share of what was received. */
export const ownDashboard = (): Dashboard =>
  weekDashboard({
    Own: true,
    Occupancy: [{ IdProfessional: 4, Name: 'Diego Barbeiro', Color: '#f59e0b', BookedMinutes: 300, WorkingMinutes: 480 }],
    Totals: {
      Appointments: 9,
      Cancelled: 1,
      CancellationRate: 0.1,
      Attended: 3,
      NoShows: 0,
      NoShowRate: 0,
      ExpectedRevenue: 405.0,
      NewClients: null,
    },
    // Their own share: no methods.
    Received: { Total: 320.0, Days: [{ Date: '2026-11-23', Value: 320.0 }], Methods: [], Professionals: [{ Key: '4', Value: 320.0 }] },
    Commissions: {
      Start: '2026-11-01',
      End: '2026-11-27',
      Period: 'month',
      Professionals: [{ IdProfessional: 4, Commission: 128.0, Tips: 10.0, Earned: 138.0 }],
    },
    Club: null,
  });

interface HomeServerOptions {
  /** The answer for a query (period and idCompany in `search`). */
  answer?: (search: URLSearchParams) => Dashboard;
  /** Today's day list (GET scheduling/professional). */
  day?: DayItem[];
  /** GET company: the units (Member true) the user belongs to. */
  units?: SessionCompany[];
}

export function homeServer({
  answer = () => weekDashboard(),
  day = [],
  units = [ownCompany, otherCompany],
}: HomeServerOptions = {}) {
  const dashboardReads: URLSearchParams[] = [];
  const dayReads: URLSearchParams[] = [];
  server.use(
    http.get(apiUrl('company'), () => HttpResponse.json(units.map((unit) => ({ ...unit, Member: true })))),
    http.get(apiUrl('professional-favorite-menu/'), () => HttpResponse.json([])),
    http.get(apiUrl('business'), () => HttpResponse.json({ IdBusiness: 1, Name: 'Navalha', BillingStatus: 'ACTIVE' })),
    http.get(apiUrl('dashboard'), ({ request }) => {
      const search = new URL(request.url).searchParams;
      dashboardReads.push(search);
      const period = search.get('period');
      if (period !== 'today' && period !== 'week' && period !== '30d') {
        return HttpResponse.json({ message: 'Dados inválidos.', errors: { period: 'Período inválido.' } }, { status: 422 });
      }
      return HttpResponse.json(answer(search));
    }),
    http.get(apiUrl('scheduling/professional'), ({ request }) => {
      const search = new URL(request.url).searchParams;
      dayReads.push(search);
      const professional = Number(search.get('idProfessional') ?? 0);
      return HttpResponse.json(
        day.filter((item) => item.Date === search.get('date') && (!professional || item.IdProfessional === professional)),
      );
    }),
  );
  return { dashboardReads, dayReads };
}
