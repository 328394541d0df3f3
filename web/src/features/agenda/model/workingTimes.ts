// When nobody can be booked (issue 45, point 2): the grid shades it, and a click there says why
// at once with the server's own messages. One pure rule serves both, so that what is shaded
// and what a click answers never disagree.

import { minutesOf, unitWallClock } from '@/lib/dates';
import { TIMELINE_END, TIMELINE_START, type Span } from './timeline';
import type { BlockedTime, WorkingDay, WorkingSpan } from './types';

/** The booking check's messages (domain::appointment::AppointmentError). */
export const PAST_MESSAGE = 'Não é possível agendar em um horário passado';
export const CLOSED_MESSAGE = 'A barbearia está fechada neste horário.';
export const OFF_HOURS_MESSAGE = 'Horário fora do expediente do profissional.';
export const BLOCKED_MESSAGE = 'O profissional não atende neste horário (folga, férias ou feriado).';

/**
 * Why nobody can take a minute, in the order they are told: the past; the unit closed (a day
 * without opening hours, or outside them); a holiday of the unit; the professional's day off
 * (or blocked time); outside the professional's working periods (a break included).
 */
export type ShadeKind = 'past' | 'closed' | 'holiday' | 'dayOff' | 'off';

export const SHADE_MESSAGES: Record<ShadeKind, string> = {
  past: PAST_MESSAGE,
  closed: CLOSED_MESSAGE,
  holiday: BLOCKED_MESSAGE,
  dayOff: BLOCKED_MESSAGE,
  off: OFF_HOURS_MESSAGE,
};

const DAY_MINUTES = 24 * 60;

/** What decides one column's day: the unit's clock, the day's working times and the days off. */
export interface ColumnRules {
  /** The column's day, 'YYYY-MM-DD'. */
  date: string;
  /** Today on the unit's clock. */
  today: string;
  /** Minutes since the unit's midnight now, with the seconds as a fraction (`unitMinutesNow`). */
  nowMinutes: number;
  idProfessional: number;
  /**
   * The day's entry of `working-times`; undefined while it is unread (then only the past and
   * the days off are known, and the booking check says the rest).
   */
  day?: WorkingDay;
  /** The unit's days off and blocked times (GET day-off/company), any professional's. */
  blocked: BlockedTime[];
}

/** A stretch of a column nobody can take, and why. */
export interface Shade extends Span {
  kind: ShadeKind;
  /** A holiday's description ('Natal'). */
  label?: string;
}

/** Minutes since the unit's midnight at `now`, seconds included as a fraction. */
export function unitMinutesNow(now: number, timeZone?: string): number {
  const clock = unitWallClock(now, timeZone);
  return (
    clock.getUTCHours() * 60 + clock.getUTCMinutes() + clock.getUTCSeconds() / 60 + clock.getUTCMilliseconds() / 60_000
  );
}

const spanOf = (span: WorkingSpan): Span => ({ start: minutesOf(span.Start), end: minutesOf(span.End) });
const covers = (span: Span, minute: number) => span.start <= minute && minute < span.end;

/**
 * The part of a day off that falls on `date` (domain::availability::blocked_on): an all-day one
 * blocks its days whole; one with a time window runs from its first day's start time to its
 * last day's end time.
 */
export function blockedSpanOn(block: Pick<BlockedTime, 'AllDay' | 'DateStart' | 'DateEnd' | 'StartTime' | 'EndTime'>, date: string): Span | null {
  if (date < block.DateStart || date > block.DateEnd) return null;
  if (block.AllDay || !block.StartTime || !block.EndTime) return { start: 0, end: DAY_MINUTES };
  const start = date === block.DateStart ? minutesOf(block.StartTime) : 0;
  const end = date === block.DateEnd ? minutesOf(block.EndTime) : DAY_MINUTES;
  return start < end ? { start, end } : null;
}

/** The holiday of the day that covers a minute, if any. */
function holidayAt(day: WorkingDay, minute: number) {
  return day.Holidays.find((holiday) => !holiday.Window || covers(spanOf(holiday.Window), minute));
}

/** Why nobody can take `minute` (minutes since midnight) in the column, or null when it is free to ask. */
export function shadeAt(rules: ColumnRules, minute: number): ShadeKind | null {
  const { date, today, nowMinutes, idProfessional, day, blocked } = rules;
  if (date < today || (date === today && minute < nowMinutes)) return 'past';
  if (day && (!day.Opening || !covers(spanOf(day.Opening), minute))) return 'closed';
  if (day && holidayAt(day, minute)) return 'holiday';
  if (
    blocked.some((block) => {
      if (block.IdProfessional !== idProfessional) return false;
      const span = blockedSpanOn(block, date);
      return span !== null && covers(span, minute);
    })
  ) {
    return 'dayOff';
  }
  // A professional the answer does not list (not active here) is not judged: the server is.
  const professional = day?.Professionals.find((p) => p.IdProfessional === idProfessional);
  if (professional && !professional.Working.some((period) => covers(spanOf(period), minute))) return 'off';
  return null;
}

/**
 * What a click on the quarter hour starting at `start` ('HH:MM') answers at once: the server's
 * message for a time nobody can take, or null to open 'Novo agendamento' there.
 */
export function slotRefusal(rules: ColumnRules, start: string): string | null {
  const kind = shadeAt(rules, minutesOf(start));
  return kind ? SHADE_MESSAGES[kind] : null;
}

/**
 * The column's shaded stretches between `from` and `to` (the grid's hours): every minute gets
 * `shadeAt`'s answer, and neighbours with the same answer are one stretch.
 */
export function columnShades(rules: ColumnRules, from = TIMELINE_START, to = TIMELINE_END): Shade[] {
  const bounds = new Set<number>([from, to, rules.nowMinutes]);
  const add = (span: Span) => {
    bounds.add(span.start);
    bounds.add(span.end);
  };
  if (rules.day) {
    if (rules.day.Opening) add(spanOf(rules.day.Opening));
    for (const holiday of rules.day.Holidays) if (holiday.Window) add(spanOf(holiday.Window));
    for (const professional of rules.day.Professionals) {
      if (professional.IdProfessional === rules.idProfessional) professional.Working.forEach((period) => add(spanOf(period)));
    }
  }
  for (const block of rules.blocked) {
    const span = block.IdProfessional === rules.idProfessional ? blockedSpanOn(block, rules.date) : null;
    if (span) add(span);
  }
  const points = [...bounds].filter((point) => point >= from && point <= to).sort((a, b) => a - b);
  const shades: Shade[] = [];
  for (let i = 0; i + 1 < points.length; i += 1) {
    const [start, end] = [points[i], points[i + 1]];
    const kind = shadeAt(rules, start);
    if (!kind) continue;
    const label = kind === 'holiday' && rules.day ? holidayAt(rules.day, start)?.Description : undefined;
    const last = shades[shades.length - 1];
    if (last && last.end === start && last.kind === kind && last.label === label) last.end = end;
    else shades.push({ start, end, kind, ...(label ? { label } : {}) });
  }
  return shades;
}
