import { api } from '@/api/api';
import type { DayItem } from '@/features/agenda';

// The home's calls: GET dashboard (issue 17, docs/home.md) and today's day list for the
// mobile home. Answers are PascalCase; money in reais; dates 'YYYY-MM-DD'.

export type Period = 'today' | 'week' | '30d';

export interface DashboardQuery {
  period: Period;
  /** null: every unit of the user. */
  idCompany: number | null;
}

export interface DashboardDay {
  Date: string;
  /** Active (not cancelled) appointments. */
  Booked: number;
  /** The part of Booked the client confirmed. */
  Confirmed: number;
  Cancelled: number;
}

export interface DashboardOccupancy {
  IdProfessional: number;
  Name: string;
  Color: string;
  BookedMinutes: number;
  /** May be 0 (no working hours in the period). */
  WorkingMinutes: number;
}

export interface DashboardService {
  IdService: number;
  Description: string;
  Count: number;
  Value: number;
}

export interface DashboardBusyHour {
  /** 0 domingo ... 6 sábado. */
  Weekday: number;
  Hour: number;
  Count: number;
}

export interface DashboardTotals {
  Appointments: number;
  Cancelled: number;
  /** Cancelled / (Appointments + Cancelled), 0 to 1. */
  CancellationRate: number;
  ExpectedRevenue: number;
  /** null when the figures are the user's own. */
  NewClients: number | null;
}

export interface ClubMonth {
  /** 'YYYY-MM'. */
  Month: string;
  Received: number;
  ToReceive: number;
}

export interface PendingCharge {
  IdSubscriptionUser: number;
  UserName: string;
  PlanName: string;
  Value: number;
  DueDate: string | null;
}

export interface DashboardClub {
  ActiveSubscribers: number;
  MonthlyRecurringRevenue: number;
  Months: ClubMonth[];
  Pending: PendingCharge[];
}

export interface Dashboard {
  Start: string;
  End: string;
  /** The signed-in professional's own figures (every role but ADMIN and ATTENDANT). */
  Own: boolean;
  Days: DashboardDay[];
  Occupancy: DashboardOccupancy[];
  Services: DashboardService[];
  BusyHours: DashboardBusyHour[];
  Totals: DashboardTotals;
  /** null when Own. */
  Club: DashboardClub | null;
}

/** Today's booked appointments of a unit (the agenda's day list, status 1). */
export interface TodayQuery {
  idCompany: number;
  date: string;
  /** Only this professional's (the user's own); null: everyone's. */
  idProfessional: number | null;
}

export function dashboardUrl({ period, idCompany }: DashboardQuery): string {
  const search = new URLSearchParams({ period });
  if (idCompany !== null) search.set('idCompany', String(idCompany));
  return `dashboard?${search}`;
}

export function todayUrl({ idCompany, date, idProfessional }: TodayQuery): string {
  const search = new URLSearchParams({ idCompany: String(idCompany), date, status: '1' });
  if (idProfessional !== null) search.set('idProfessional', String(idProfessional));
  return `scheduling/professional?${search}`;
}

// The figures follow the appointments and the club: a booking, a cancellation or a payment
// made in this tab refreshes them.
const FIGURE_TAGS = [
  { type: 'Scheduling' as const, id: 'LIST' },
  { type: 'SubscriptionUser' as const, id: 'LIST' },
];

export const homeApi = api.injectEndpoints({
  endpoints: (build) => ({
    getDashboard: build.query<Dashboard, DashboardQuery>({
      query: dashboardUrl,
      providesTags: FIGURE_TAGS,
    }),
    getTodayAppointments: build.query<DayItem[], TodayQuery>({
      query: todayUrl,
      providesTags: [{ type: 'Scheduling', id: 'LIST' }],
    }),
  }),
});

export const { useGetDashboardQuery, useGetTodayAppointmentsQuery } = homeApi;
