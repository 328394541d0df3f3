import * as yup from 'yup';
import { WEEKDAY_NAMES, WEEKDAY_SHORT, addDays, formatDateBR, parseIso, shortTime, todayIso, weekdayOf } from '@/lib/dates';
import { onlyDigits } from '@/lib/masks';
import { formatBRL } from '@/lib/money';
import { cpfRule, mobileRule, nameRule } from '@/lib/rules';
import { EMAIL_PATTERN } from '@/lib/validation';
import type { FreeDay, FreeHour } from '@/features/agenda';
import type { CodeRequest, OnlineBooking, OnlineHours, OnlineProfessional, OnlineService, SlotChoice } from './types';

// The page's rules and texts, kept apart from the components so they are tested alone.

export const NO_FREE_DAYS_MESSAGE = 'Nenhum horário livre nos próximos dias. Tente outro profissional ou fale com a barbearia.';
export const CHOOSE_TIME_MESSAGE = 'Escolha um horário.';
export const EXPIRED_MESSAGE = 'Sua verificação expirou. Peça um novo código.';
export const CUTOFF_MESSAGE = 'O prazo para alterar online terminou. Fale com a barbearia.';

/** Reais of cents, in BRL. */
export const brlOfCents = (cents: number) => formatBRL(cents / 100);

/** 'a partir de R$ 40,00': each professional may charge differently. */
export const priceLabel = (service: OnlineService) => `a partir de ${brlOfCents(service.MinCents)}`;

/** '45 min', '1h', '1h30'. */
export function minutesLabel(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return `${Math.floor(minutes / 60)}h${rest ? String(rest).padStart(2, '0') : ''}`;
}

/** '30 min', or '30 min a 45 min' when professionals take different times. */
export const durationLabel = (service: OnlineService) =>
  service.MinMinutes === service.MaxMinutes
    ? minutesLabel(service.MinMinutes)
    : `${minutesLabel(service.MinMinutes)} a ${minutesLabel(service.MaxMinutes)}`;

/** The professionals who do every chosen service. */
export const professionalsFor = (professionals: OnlineProfessional[], idServices: number[]) =>
  professionals.filter((professional) => idServices.every((id) => professional.IdServices.includes(id)));

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The week from Monday, each day with its hours or null when closed. */
export function weekHours(hours: OnlineHours[]): { weekDay: number; name: string; hours: string | null }[] {
  return [1, 2, 3, 4, 5, 6, 0].map((weekDay) => {
    const open = hours.filter((entry) => entry.WeekDay === weekDay);
    return {
      weekDay,
      name: capitalized(WEEKDAY_NAMES[weekDay]),
      hours: open.length ? open.map((entry) => `${shortTime(entry.Start)} às ${shortTime(entry.End)}`).join(', ') : null,
    };
  });
}

/** 'Hoje, 09:00 às 19:00' or 'Hoje, fechado'. */
export function todayHoursLabel(hours: OnlineHours[], now: number = Date.now(), timeZone?: string): string {
  const today = weekHours(hours).find((day) => day.weekDay === weekdayOf(todayIso(now, timeZone)));
  return `Hoje, ${today?.hours ?? 'fechado'}`;
}

/** A day button's parts: 'Hoje' / 'Amanhã' / 'Ter', and '24/11'. */
export function dayButtonParts(iso: string, now: number = Date.now(), timeZone?: string): { top: string; bottom: string } {
  const today = todayIso(now, timeZone);
  const [, month, day] = parseIso(iso);
  const top = iso === today ? 'Hoje' : iso === addDays(today, 1) ? 'Amanhã' : WEEKDAY_SHORT[weekdayOf(iso)];
  return { top, bottom: `${String(day).padStart(2, '0')}/${String(month).padStart(2, '0')}` };
}

/** 'segunda-feira, 30/11/2026'. */
export const dayLongLabel = (iso: string) => `${WEEKDAY_NAMES[weekdayOf(iso)]}, ${formatDateBR(iso)}`;

/** '10:00 às 10:45'. */
export const timeRangeLabel = (booking: Pick<OnlineBooking, 'StartTime' | 'EndTime'>) =>
  `${shortTime(booking.StartTime)} às ${shortTime(booking.EndTime)}`;

/** 'dd/mm/aaaa às HH:MM' of the unit's wall clock 'YYYY-MM-DDTHH:MM:SS'. */
export const wallClockLabel = (value: string) => `${formatDateBR(value.slice(0, 10))} às ${value.slice(11, 16)}`;

/** A time that was taken while the client chose it: not offered again on this page. */
export type TakenSlot = SlotChoice;

const isTaken = (taken: TakenSlot[], date: string, hour: FreeHour) =>
  taken.some(
    (slot) =>
      slot.date === date &&
      slot.startTime === hour.start &&
      (slot.idProfessional === null || slot.idProfessional === hour.idProfessional),
  );

/**
 * The free times without those the server refused meanwhile: the read model catches up a
 * moment after a booking, and a client must not be offered the time they just lost.
 */
export function withoutTaken(times: FreeDay[] | undefined, taken: TakenSlot[]): FreeDay[] | undefined {
  if (!times || !taken.length) return times;
  return times.map((day) => ({ ...day, freeHours: day.freeHours.filter((hour) => !isTaken(taken, day.shortDate, hour)) }));
}

/** The days that have a free time for the professional (null: anyone). */
export const availableDates = (times: FreeDay[] | undefined, idProfessional: number | null): string[] =>
  (times ?? [])
    .filter((day) => day.freeHours.some((hour) => idProfessional === null || hour.idProfessional === idProfessional))
    .map((day) => day.shortDate);

export type DayPeriod = 'Manhã' | 'Tarde' | 'Noite';

/** Manhã before 12h, Tarde until 17:59, Noite from 18h. */
const periodOf = (start: string): DayPeriod => {
  const hour = Number(start.slice(0, 2));
  return hour < 12 ? 'Manhã' : hour < 18 ? 'Tarde' : 'Noite';
};

/**
 * A day's times to offer, by period: a professional's, or for 'Sem preferência' each start
 * once (whoever is free then: the server picks).
 */
export function dayPeriods(times: FreeDay[] | undefined, date: string, idProfessional: number | null) {
  const hours = times?.find((day) => day.shortDate === date)?.freeHours ?? [];
  const starts = new Map<string, FreeHour>();
  for (const hour of hours) {
    if (idProfessional !== null && hour.idProfessional !== idProfessional) continue;
    if (!starts.has(hour.start)) starts.set(hour.start, hour);
  }
  const periods: { period: DayPeriod; hours: FreeHour[] }[] = [];
  for (const hour of [...starts.values()].sort((a, b) => a.start.localeCompare(b.start))) {
    const period = periodOf(hour.start);
    const last = periods[periods.length - 1];
    if (last?.period === period) last.hours.push(hour);
    else periods.push({ period, hours: [hour] });
  }
  return periods;
}

/** Whether a start is still offered on a day for the professional (null: anyone). */
export const isOffered = (times: FreeDay[] | undefined, date: string, start: string, idProfessional: number | null) =>
  !!times
    ?.find((day) => day.shortDate === date)
    ?.freeHours.some((hour) => hour.start === start && (idProfessional === null || hour.idProfessional === idProfessional));

// ---------------------------------------------------------------------------
// The client's details.

export interface ClientValues {
  name: string;
  phone: string;
  cpf: string;
  email: string;
  /** Consent to the booking's confirmation and reminders by WhatsApp (issue 44): off unless ticked (LGPD). */
  whatsApp: boolean;
}

/** The label of the WhatsApp consent checkbox. */
export const WHATSAPP_CONSENT_LABEL = 'Quero receber a confirmação e os lembretes pelo WhatsApp';

export const EMPTY_CLIENT_VALUES: ClientValues = { name: '', phone: '', cpf: '', email: '', whatsApp: false };

/** The same rules as a staff registration of a client, the e-mail optional. */
export const clientSchema = yup.object({
  name: nameRule('Digite o nome completo', 3),
  phone: mobileRule(),
  cpf: cpfRule(),
  email: yup.string().trim().default('').matches(EMAIL_PATTERN, { message: 'E-mail inválido', excludeEmptyString: true }),
  whatsApp: yup.boolean().default(false),
}) as yup.ObjectSchema<ClientValues>;

export const codeRequestOf = (values: ClientValues): CodeRequest => ({
  name: values.name.trim().split(/\s+/).join(' '),
  phone: onlyDigits(values.phone),
  cpf: onlyDigits(values.cpf),
  email: values.email.trim(),
  whatsApp: values.whatsApp,
});

export interface CodeValues {
  code: string;
}

export const codeSchema = yup.object({
  code: yup
    .string()
    .trim()
    .required('Digite o código.')
    .matches(/^\d{6}$/, { message: 'O código tem 6 dígitos.', excludeEmptyString: true }),
}) as yup.ObjectSchema<CodeValues>;
