import { api } from '@/api/api';
import { queryString } from '@/api/queryString';
import type { Schemas } from '@/api/wire';
import type { DayItem } from '@/features/agenda';

// The home's calls: GET dashboard (issue 17, docs/home.md), today's day list for the
// mobile home and the reminders' confirmation (issue 44, docs/messages.md; ADMIN only). Answers are PascalCase; money in reais; dates 'YYYY-MM-DD'.

export type Period = 'today' | 'week' | '30d';

export interface DashboardQuery {
  period: Period;
  /** null: every unit of the user. */
  idCompany: number | null;
}

/** A day's appointments: Booked (not cancelled), the part Confirmed, and Cancelled. */
export type DashboardDay = Schemas['DayFigures'];

/** A professional's booked and working minutes (WorkingMinutes may be 0). */
export type DashboardOccupancy = Schemas['Occupancy'];

export type DashboardService = Schemas['ServiceFigures'];

/** Weekday 0 domingo ... 6 sábado. */
export type DashboardBusyHour = Schemas['BusyHour'];

/**
 * CancellationRate is Cancelled / (Appointments + Cancelled), 0 to 1; NoShowRate is NoShows /
 * (Attended + NoShows), 0 to 1; no NewClients when Own.
 */
export type DashboardTotals = Schemas['Totals'];

/** Month 'YYYY-MM'. */
export type ClubMonth = Schemas['ClubMonth'];

export type PendingCharge = Schemas['PendingCharge'];

export type DashboardClub = Schemas['Club'];

/**
 * 'Recebido' (issue 41): the closed comandas' payments by the day they were opened, by
 * method and by professional (Key the IdProfessional as text); a barber's own home has no
 * Methods and only their own share.
 */
export type DashboardReceived = Schemas['ReceivedFigures'];

/** Only the days with something received. */
export type ReceivedDay = Schemas['ReceivedDay'];

/** A method ('cash', 'pix', 'credit', 'debit', 'subscription') or a professional, and its sum. */
export type ReceivedBy = Schemas['ReceivedBy'];

/** Issue 43: a product below its minimum in a unit (Unit: 'un', 'ml' or 'g'). */
export type LowStockItem = Schemas['LowStockItem'];

/**
 * GET dashboard; Own: the signed-in professional's own figures (no Club then). LowStock
 * (issue 43): the products below their minimum, for ADMIN and ATTENDANT (empty for the
 * others; absent from a server before it).
 */
export type Dashboard = Omit<Schemas['Answer'], 'LowStock'> & { LowStock?: LowStockItem[] | null };

/** Issue 42: what the current commission period's closed comandas earned each professional. */
export type DashboardCommissions = Schemas['CommissionFigures'];

/**
 * Issue 44: what the period's WhatsApp reminders came to (Sent, Confirmed, ConfirmationRate in
 * percent with one decimal, null when none was sent, ...), and per day with any message.
 */
export type MessageSummary = Schemas['MessageSummary'];

export type MessageSummaryDay = Schemas['MessageSummaryDay'];

export type MessageTotals = Schemas['MessageTotals'];

/** GET message/summary's parameters (ADMIN only; at most 92 days). */
export interface MessageSummaryQuery {
  /** null: every unit of the user. */
  idCompany: number | null;
  /** 'YYYY-MM-DD', the first and last day of the period on the unit's clock. */
  start: string;
  end: string;
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

export const messageSummaryUrl = ({ idCompany, start, end }: MessageSummaryQuery) =>
  `message/summary?${queryString({ idCompany, start, end })}`;

export function todayUrl({ idCompany, date, idProfessional }: TodayQuery): string {
  const search = new URLSearchParams({ idCompany: String(idCompany), date, status: '1' });
  if (idProfessional !== null) search.set('idProfessional', String(idProfessional));
  return `scheduling/professional?${search}`;
}

// The figures follow the appointments, the club and the stock: a booking, a cancellation, a
// payment or a stock movement made in this tab refreshes them.
const FIGURE_TAGS = [
  { type: 'Scheduling' as const, id: 'LIST' },
  { type: 'SubscriptionUser' as const, id: 'LIST' },
  { type: 'Product' as const, id: 'STOCK' },
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
    getMessageSummary: build.query<MessageSummary, MessageSummaryQuery>({
      query: messageSummaryUrl,
      // It follows the appointments too: 'Cancelled' counts a 'Cancelar' only while its
      // appointment stays cancelled.
      providesTags: [
        { type: 'Message', id: 'LIST' },
        { type: 'Scheduling', id: 'LIST' },
      ],
    }),
  }),
});

export const { useGetDashboardQuery, useGetTodayAppointmentsQuery, useGetMessageSummaryQuery } = homeApi;
