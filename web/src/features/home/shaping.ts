// Pure shaping of the dashboard's answer into what the charts, tables and figures show
// (pt-BR labels: R$ via lib/money, dd/mm via lib/dates).

import type { RoleType } from '@/api/types';
import { addDays, formatDateBR, minutesOf, MONTH_NAMES, weekdayOf, WEEKDAY_NAMES, WEEKDAY_SHORT } from '@/lib/dates';
import { formatBRL } from '@/lib/money';
import type { DayItem } from '@/features/agenda';
import type {
  ClubMonth,
  DashboardBusyHour,
  DashboardCommissions,
  DashboardDay,
  DashboardOccupancy,
  DashboardService,
  MessageSummaryDay,
  MessageTotals,
  Period,
  ReceivedBy,
  ReceivedDay,
} from './homeApi';

export const PERIOD_OPTIONS: { value: Period; label: string }[] = [
  { value: 'today', label: 'Hoje' },
  { value: 'week', label: 'Esta semana' },
  { value: '30d', label: 'Últimos 30 dias' },
];

export const ALL_UNITS = 'Todas as unidades';
export const EMPTY_CHART = 'Sem dados no período.';
export const NO_NEXT_APPOINTMENT = 'Nenhum próximo agendamento hoje.';
/** How many of today's next appointments the mobile home lists. */
export const NEXT_APPOINTMENTS = 5;

/** The stock's screen (issue 43), where the low-stock card leads. */
export const STOCK_PATH = '/dashboard/stock';

const quantity = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 3 });

/** '2', '1.250', '−1' (a unit selling without stock), as the stock's screen writes them. */
const quantityText = (value: number) => `${value < 0 ? '\u2212' : ''}${quantity.format(Math.abs(value))}`;

/** A product below its minimum: 'Qtd 2 / mín. 5 un'. */
export const lowStockText = (item: { Quantity: number; Minimum: number; Unit: string }) =>
  `Qtd ${quantityText(item.Quantity)} / mín. ${quantityText(item.Minimum)} ${item.Unit}`;

/** 'dd/mm'. */
export const dayMonth = (iso: string) => formatDateBR(iso).slice(0, 5);

const percent = new Intl.NumberFormat('pt-BR', { style: 'percent', maximumFractionDigits: 1 });

/** '9,1%' of 0.0909; '—' when there is nothing to divide by. */
export const percentText = (fraction: number | null) => (fraction === null ? '—' : percent.format(fraction));

/** '5h', '5h30', '45min'. */
export function hoursText(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = Math.round(minutes % 60);
  if (h === 0) return `${m}min`;
  return m ? `${h}h${String(m).padStart(2, '0')}` : `${h}h`;
}

/** '9h'. */
export const hourText = (hour: number) => `${hour}h`;

/** 'nov/26' of '2026-11'. */
export function monthText(month: string): string {
  const [year, number] = month.split('-');
  return `${MONTH_NAMES[Number(number) - 1].slice(0, 3).toLowerCase()}/${year.slice(2)}`;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

// ---- Appointments per day ----

export interface DayBar {
  date: string;
  /** 'dd/mm'. */
  label: string;
  confirmed: number;
  /** Booked and not confirmed yet: Booked − Confirmed. */
  toConfirm: number;
  cancelled: number;
}

/** One stacked bar per day: confirmados, a confirmar, cancelados. */
export const dayBars = (days: DashboardDay[]): DayBar[] =>
  days.map((day) => ({
    date: day.Date,
    label: dayMonth(day.Date),
    confirmed: day.Confirmed,
    toConfirm: Math.max(0, day.Booked - day.Confirmed),
    cancelled: day.Cancelled,
  }));

export const hasDayData = (bars: DayBar[]) => bars.some((bar) => bar.confirmed + bar.toConfirm + bar.cancelled > 0);

// ---- Occupancy per professional ----

export interface OccupancyBar {
  id: number;
  name: string;
  color: string;
  /** Booked over working minutes, in % (one decimal); null without working minutes. */
  percent: number | null;
  booked: number;
  working: number;
}

const oneDecimal = (value: number) => Math.round(value * 10) / 10;

/** One bar per professional with working time or bookings (staff with neither are left out). */
export const occupancyBars = (list: DashboardOccupancy[]): OccupancyBar[] =>
  list
    .filter((row) => row.WorkingMinutes > 0 || row.BookedMinutes > 0)
    .map((row) => ({
      id: row.IdProfessional,
      name: row.Name,
      color: row.Color || 'var(--color-muted)',
      percent: row.WorkingMinutes > 0 ? oneDecimal((row.BookedMinutes / row.WorkingMinutes) * 100) : null,
      booked: row.BookedMinutes,
      working: row.WorkingMinutes,
    }));

/** '62,5%' of a bar; '—' without working minutes. */
export const occupancyText = (bar: OccupancyBar) => percentText(bar.percent === null ? null : bar.percent / 100);

/** The chart's percent axis: 0 to 100, or further when someone is booked past their hours. */
export const occupancyDomainMax = (bars: OccupancyBar[]) =>
  Math.max(100, ...bars.map((bar) => Math.ceil((bar.percent ?? 0) / 10) * 10));

/** The whole team's occupancy (sum booked over sum working), 0 to 1; null without working minutes. */
export function totalOccupancy(list: DashboardOccupancy[]): number | null {
  const working = list.reduce((sum, row) => sum + row.WorkingMinutes, 0);
  const booked = list.reduce((sum, row) => sum + row.BookedMinutes, 0);
  return working > 0 ? booked / working : null;
}

// ---- Expected revenue per service ----

export interface ServiceBar {
  id: number;
  name: string;
  count: number;
  value: number;
}

/** Highest value first (the server's order, kept when equal). */
export const serviceBars = (services: DashboardService[]): ServiceBar[] =>
  services
    .map((s) => ({ id: s.IdService, name: s.Description, count: s.Count, value: s.Value }))
    .sort((a, b) => b.value - a.value);

// ---- Received (issue 41): the closed comandas' payments ----

export interface ReceivedDayBar {
  date: string;
  /** 'dd/mm'. */
  label: string;
  received: number;
}

/**
 * One column per day of the period (the answer's Days), zero on a day nothing was received
 * (Received.Days lists only the days with something); a received day outside them is kept.
 */
export function receivedDayBars(days: DashboardDay[], received: ReceivedDay[]): ReceivedDayBar[] {
  const values = new Map(received.map((day) => [day.Date, day.Value]));
  const dates = [...new Set([...days.map((day) => day.Date), ...received.map((day) => day.Date)])].sort();
  return dates.map((date) => ({ date, label: dayMonth(date), received: values.get(date) ?? 0 }));
}

export const hasReceivedData = (bars: ReceivedDayBar[]) => bars.some((bar) => bar.received !== 0);

/** The comanda's payment methods, in the order the desk offers them. */
export const METHOD_LABELS: Record<string, string> = {
  cash: 'Dinheiro',
  pix: 'Pix',
  credit: 'Cartão de crédito',
  debit: 'Cartão de débito',
  subscription: 'Assinatura',
};

export const METHOD_COLORS: Record<string, string> = {
  cash: '#2e7d32',
  pix: '#0f766e',
  credit: '#1d4ed8',
  debit: '#7c3aed',
  subscription: '#b45309',
};

const METHOD_ORDER = Object.keys(METHOD_LABELS);

/** A method or professional without a colour of its own. */
const UNCOLOURED = '#6b7280';

export const methodLabel = (key: string) => METHOD_LABELS[key] ?? key;

/** 'Profissional n.º 7' for a professional the answer's occupancy does not name. */
export const unnamedProfessional = (key: string) => `Profissional n.º ${key}`;

export interface ReceivedBar {
  key: string;
  name: string;
  color: string;
  value: number;
  /** Its part of the breakdown's total, 0 to 1; null when the total is not positive. */
  share: number | null;
}

/** Highest value first, then `tie` (the method's place, the name), zero sums left out. */
function receivedBars(
  list: ReceivedBy[],
  bar: (row: ReceivedBy) => Omit<ReceivedBar, 'value' | 'share'>,
  tie: (a: ReceivedBar, b: ReceivedBar) => number,
): ReceivedBar[] {
  const rows = list.filter((row) => row.Value !== 0);
  const total = rows.reduce((sum, row) => sum + row.Value, 0);
  return rows
    .map((row) => ({ ...bar(row), value: row.Value, share: total > 0 ? row.Value / total : null }))
    .sort((a, b) => b.value - a.value || tie(a, b));
}

const methodRank = (key: string) => {
  const index = METHOD_ORDER.indexOf(key);
  return index === -1 ? METHOD_ORDER.length : index;
};

/** 'Recebido por forma de pagamento': Dinheiro, Pix, Cartão de crédito, Cartão de débito, Assinatura. */
export const methodBars = (methods: ReceivedBy[]): ReceivedBar[] =>
  receivedBars(
    methods,
    (row) => ({ key: row.Key, name: methodLabel(row.Key), color: METHOD_COLORS[row.Key] ?? UNCOLOURED }),
    (a, b) => methodRank(a.key) - methodRank(b.key) || a.name.localeCompare(b.name, 'pt-BR'),
  );

/**
 * 'Recebido por profissional': named and coloured as in the occupancy (the answer's
 * Occupancy), 'Profissional n.º X' for one it does not list.
 */
export function professionalReceivedBars(professionals: ReceivedBy[], occupancy: DashboardOccupancy[]): ReceivedBar[] {
  const known = new Map(occupancy.map((row) => [String(row.IdProfessional), row]));
  return receivedBars(
    professionals,
    (row) => {
      const staff = known.get(row.Key);
      return { key: row.Key, name: staff?.Name || unnamedProfessional(row.Key), color: staff?.Color || UNCOLOURED };
    },
    (a, b) => a.name.localeCompare(b.name, 'pt-BR'),
  );
}

/** Issue 42: the commission period's earnings per professional, as bars like 'Recebido por profissional'. */
export const commissionBars = (commissions: DashboardCommissions, occupancy: DashboardOccupancy[]): ReceivedBar[] =>
  professionalReceivedBars(
    commissions.Professionals.map((row) => ({ Key: String(row.IdProfessional), Value: row.Earned })),
    occupancy,
  );

/** 'Comissões de 01/11 a 27/11'. */
export const commissionTitle = (commissions: DashboardCommissions) =>
  `Comissões de ${dayMonth(commissions.Start)} a ${dayMonth(commissions.End)}`;

/** What the period's comandas earned everyone on the answer (one's own, on a barber's home). */
export const commissionsTotal = (commissions: DashboardCommissions) =>
  commissions.Professionals.reduce((sum, row) => sum + row.Earned, 0);

/** 'R$ 120,00 (40%)'. */
export const receivedText = (bar: ReceivedBar) =>
  bar.share === null ? formatBRL(bar.value) : `${formatBRL(bar.value)} (${percentText(bar.share)})`;

// ---- Busy hours ----

/** Monday first, like the period 'Esta semana' (Monday to Sunday). */
export const HEAT_WEEKDAYS = [1, 2, 3, 4, 5, 6, 0] as const;
/** The hours the map always shows, so that one busy hour does not make a one-column map. */
const HEAT_FIRST_HOUR = 8;
const HEAT_LAST_HOUR = 18;

export interface HeatCell {
  weekday: number;
  hour: number;
  count: number;
  /** count over the busiest cell's, 0 to 1. */
  intensity: number;
  /** 'Terça-feira, 9h: 4 agendamentos'. */
  text: string;
}

export interface HeatRow {
  weekday: number;
  /** 'Seg'. */
  label: string;
  /** 'Segunda-feira'. */
  name: string;
  cells: HeatCell[];
}

export interface HeatMap {
  hours: number[];
  rows: HeatRow[];
  max: number;
}

export const weekdayName = (weekday: number) => capitalized(WEEKDAY_NAMES[weekday]);

export const countText = (count: number) => `${count} ${count === 1 ? 'agendamento' : 'agendamentos'}`;

/** Weekday × hour grid: every hour from 8h to 18h and any other hour with appointments. */
export function heatMap(busy: DashboardBusyHour[]): HeatMap {
  const counts = new Map(busy.map((cell) => [`${cell.Weekday}-${cell.Hour}`, cell.Count]));
  const max = busy.reduce((top, cell) => Math.max(top, cell.Count), 0);
  const first = Math.min(HEAT_FIRST_HOUR, ...busy.map((cell) => cell.Hour));
  const last = Math.max(HEAT_LAST_HOUR, ...busy.map((cell) => cell.Hour));
  const hours = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  const rows = HEAT_WEEKDAYS.map((weekday) => ({
    weekday,
    label: WEEKDAY_SHORT[weekday],
    name: weekdayName(weekday),
    cells: hours.map((hour) => {
      const count = counts.get(`${weekday}-${hour}`) ?? 0;
      return {
        weekday,
        hour,
        count,
        intensity: max > 0 ? count / max : 0,
        text: `${weekdayName(weekday)}, ${hourText(hour)}: ${countText(count)}`,
      };
    }),
  }));
  return { hours, rows, max };
}

/** The cells with appointments, in the map's order, for the screen-reader table. */
export const busyCells = (map: HeatMap): HeatCell[] => map.rows.flatMap((row) => row.cells.filter((cell) => cell.count > 0));

// ---- Club ----

export interface MonthBar {
  month: string;
  /** 'nov/26'. */
  label: string;
  received: number;
  toReceive: number;
}

export const monthBars = (months: ClubMonth[]): MonthBar[] =>
  months.map((m) => ({ month: m.Month, label: monthText(m.Month), received: m.Received, toReceive: m.ToReceive }));

export const hasMonthData = (bars: MonthBar[]) => bars.some((bar) => bar.received > 0 || bar.toReceive > 0);

// ---- Units and the mobile home ----

/** ADMIN and ATTENDANT with several units may look at all of them at once. */
export const mayChooseAllUnits = (role: RoleType | null, units: number) =>
  units > 1 && (role === 'ADMIN' || role === 'ATTENDANT');

/**
 * The unit the home opens on (issue 45): the one the user last chose there ('' for every unit)
 * while it is still theirs; otherwise, and on a first visit, every unit when the user may
 * choose that, else `fallback` (the shell's unit).
 */
export function homeUnit(
  remembered: string | undefined,
  allowAll: boolean,
  units: { IdCompany: number }[],
  fallback: { IdCompany: number } | null,
): string {
  if (remembered === '' && allowAll) return '';
  if (remembered && units.some((unit) => String(unit.IdCompany) === remembered)) return remembered;
  return allowAll ? '' : String(fallback?.IdCompany ?? '');
}

/** Roles whose figures and next appointments are their own (the server enforces the figures). */
export const seesOwnOnly = (role: RoleType | null) => role !== 'ADMIN' && role !== 'ATTENDANT';

/** Today's booked appointments starting from now (the current minute included), earliest first. */
export function nextAppointments(items: DayItem[], today: string, nowMinutes: number, limit = NEXT_APPOINTMENTS): DayItem[] {
  return items
    .filter((item) => item.Status && item.Date === today && minutesOf(item.StartTime) >= nowMinutes)
    .sort((a, b) => a.StartTime.localeCompare(b.StartTime))
    .slice(0, limit);
}

// ---- Reminders' confirmation (issue 44) ----

/** Only ADMIN reads the reminders' figures (GET message/summary answers the others 403). */
export const mayReadReminders = (role: RoleType | null) => role === 'ADMIN';

/**
 * The days of a period on the unit's clock, as GET dashboard counts them: today; the week
 * from Monday to Sunday (future days included); the last 30 days, today included.
 */
export function periodDays(period: Period, today: string): { start: string; end: string } {
  if (period === 'week') {
    const monday = addDays(today, -((weekdayOf(today) + 6) % 7));
    return { start: monday, end: addDays(monday, 6) };
  }
  if (period === '30d') return { start: addDays(today, -29), end: today };
  return { start: today, end: today };
}

/** '33,3%' of the server's 33.3 (percent, one decimal); '—' when none was sent. */
export const confirmationRateText = (rate: number | null | undefined) => percentText(rate == null ? null : rate / 100);

/** '1 de 3 confirmados' (of those sent); 'Nenhum lembrete enviado.' when none was. */
export function confirmedText(totals: Pick<MessageTotals, 'Sent' | 'Confirmed'>): string {
  if (totals.Sent === 0) return NO_REMINDERS;
  return `${totals.Confirmed} de ${totals.Sent} ${totals.Sent === 1 ? 'confirmado' : 'confirmados'}`;
}

export const NO_REMINDERS = 'Nenhum lembrete enviado.';

export interface ReminderDayBar {
  date: string;
  /** 'dd/mm'. */
  label: string;
  sent: number;
  confirmed: number;
}

/** One pair of columns per day of the period, zero on a day without messages (the answer lists only the others). */
export function reminderDayBars(days: MessageSummaryDay[], start: string, end: string): ReminderDayBar[] {
  const byDate = new Map(days.map((day) => [day.Date, day]));
  const bars: ReminderDayBar[] = [];
  for (let date = start; date <= end; date = addDays(date, 1)) {
    const day = byDate.get(date);
    bars.push({ date, label: dayMonth(date), sent: day?.Sent ?? 0, confirmed: day?.Confirmed ?? 0 });
  }
  return bars;
}

export const hasReminderData = (bars: ReminderDayBar[]) => bars.some((bar) => bar.sent > 0 || bar.confirmed > 0);
