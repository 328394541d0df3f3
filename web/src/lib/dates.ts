// Dates and times as the unit sees them: on the unit's IANA time zone (ADR 0013, issue 39;
// spec 01 §5's "UTC-3" is São Paulo's clock, the zone every unit starts in). Days travel as
// ISO 'YYYY-MM-DD' strings and times as 'HH:MM'; no Date object ever crosses a component
// boundary, so the browser's own time zone never matters.

/** The zone every unit starts in, and the clock of what belongs to no unit (the club). */
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

const wallClockFormats = new Map<string, Intl.DateTimeFormat>();

/** The formatter of `timeZone`'s wall clock; São Paulo's for a zone the browser does not know. */
function wallClockFormat(timeZone: string): Intl.DateTimeFormat {
  let format = wallClockFormats.get(timeZone);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    };
    try {
      format = new Intl.DateTimeFormat('en-US', { ...options, timeZone });
    } catch {
      format = new Intl.DateTimeFormat('en-US', { ...options, timeZone: DEFAULT_TIME_ZONE });
    }
    wallClockFormats.set(timeZone, format);
  }
  return format;
}

export const MONTH_NAMES = [
  'Janeiro',
  'Fevereiro',
  'Março',
  'Abril',
  'Maio',
  'Junho',
  'Julho',
  'Agosto',
  'Setembro',
  'Outubro',
  'Novembro',
  'Dezembro',
] as const;

/** Weekday abbreviations, Sunday first (weeks start on Sunday). */
export const WEEKDAY_SHORT = ['Dom', 'Seg', 'Ter', 'Qua', 'Qui', 'Sex', 'Sab'] as const;

export const WEEKDAY_NAMES = [
  'domingo',
  'segunda-feira',
  'terça-feira',
  'quarta-feira',
  'quinta-feira',
  'sexta-feira',
  'sábado',
] as const;

const pad = (n: number) => String(n).padStart(2, '0');

/** The wall clock of `timeZone` at `now`, as a Date whose UTC fields hold the local values. */
export function unitWallClock(now: number = Date.now(), timeZone: string = DEFAULT_TIME_ZONE): Date {
  const parts = wallClockFormat(timeZone).formatToParts(new Date(now));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const milliseconds = ((now % 1000) + 1000) % 1000;
  return new Date(Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'), milliseconds));
}

/** Today on the unit's clock, 'YYYY-MM-DD'. */
export function todayIso(now: number = Date.now(), timeZone: string = DEFAULT_TIME_ZONE): string {
  return isoOfUtcFields(unitWallClock(now, timeZone));
}

/** Minutes since the unit's midnight. */
export function minutesNow(now: number = Date.now(), timeZone: string = DEFAULT_TIME_ZONE): number {
  const clock = unitWallClock(now, timeZone);
  return clock.getUTCHours() * 60 + clock.getUTCMinutes();
}

/** 'HH:MM:SS' of the unit's clock (the live clock). */
export function clockText(now: number = Date.now(), timeZone: string = DEFAULT_TIME_ZONE): string {
  const clock = unitWallClock(now, timeZone);
  return `${pad(clock.getUTCHours())}:${pad(clock.getUTCMinutes())}:${pad(clock.getUTCSeconds())}`;
}

function isoOfUtcFields(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** Parses 'YYYY-MM-DD' (or the date part of a longer ISO text) into [year, month 1-12, day]. */
export function parseIso(iso: string): [number, number, number] {
  const [y, m, d] = iso.slice(0, 10).split('-').map(Number);
  return [y, m, d];
}

const utcOf = (iso: string) => {
  const [y, m, d] = parseIso(iso);
  return new Date(Date.UTC(y, m - 1, d));
};

export function isoOf(year: number, month: number, day: number): string {
  return isoOfUtcFields(new Date(Date.UTC(year, month - 1, day)));
}

export function addDays(iso: string, days: number): string {
  const date = utcOf(iso);
  date.setUTCDate(date.getUTCDate() + days);
  return isoOfUtcFields(date);
}

/** 0 (Sunday) to 6. */
export function weekdayOf(iso: string): number {
  return utcOf(iso).getUTCDay();
}

/** 'dd/mm/aaaa'. */
export function formatDateBR(iso: string): string {
  const [y, m, d] = parseIso(iso);
  return `${pad(d)}/${pad(m)}/${y}`;
}

/** '24 de novembro de 2026'. */
export function longDateBR(iso: string): string {
  const [y, m, d] = parseIso(iso);
  return `${d} de ${MONTH_NAMES[m - 1].toLowerCase()} de ${y}`;
}

/** 'terça-feira, 24 de novembro de 2026'. */
export function weekdayDateBR(iso: string): string {
  return `${WEEKDAY_NAMES[weekdayOf(iso)]}, ${longDateBR(iso)}`;
}

/** Minutes since midnight of 'HH:MM' or 'HH:MM:SS'. */
export function minutesOf(time: string): number {
  const [h, m] = time.split(':').map(Number);
  return h * 60 + m;
}

/** 'HH:MM' of minutes since midnight. */
export function hhmm(minutes: number): string {
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/** 'HH:MM' of 'HH:MM:SS'. */
export const shortTime = (time: string) => time.slice(0, 5);

/** Whether the unit's clock is past the given day and time. */
export function isPast(dateIso: string, time: string, now: number = Date.now()): boolean {
  const today = todayIso(now);
  if (dateIso !== today) return dateIso < today;
  return minutesOf(time) <= minutesNow(now);
}

/**
 * The weeks of a month for a calendar: rows of 7 cells from Sunday, with null for the
 * days of the neighbouring months.
 */
export function monthWeeks(year: number, month: number): (string | null)[][] {
  const first = new Date(Date.UTC(year, month - 1, 1));
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const cells: (string | null)[] = Array.from({ length: first.getUTCDay() }, () => null);
  for (let day = 1; day <= days; day += 1) cells.push(isoOf(year, month, day));
  while (cells.length % 7) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}
