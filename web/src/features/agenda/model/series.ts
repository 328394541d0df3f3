import { addDays, formatDateBR, hhmm, minutesOf, weekdayOf } from '@/lib/dates';
import { offeredHours, DAY_PERIODS, type WizardState } from './wizardSlice';
import type {
  FreeDay,
  SchedulingPayload,
  SeriesAnswer,
  SeriesBody,
  SeriesOccurrence,
  SeriesOccurrenceChoice,
  SeriesRepeat,
  WorkingDay,
} from './types';

// Issue 45, point 4: regulars. 'Repetir' on a new booking books it every 1 to 8 weeks, a number
// of times or until a day, for at most six months (domain::series on the server). The desk
// checks the dates first (each with its time and whether it is free, or why not), picks
// another time for a date that clashes or skips it, then books them all or none. Each
// occurrence is an ordinary appointment; the series only links them, so that one, this and
// the following, or all can be cancelled, or changed (an edit's save or a move on the grid asks
// which ones; each other occurrence's date moves by as many days as this one's).

/** Most weeks between two occurrences. */
export const MAX_EVERY_WEEKS = 8;
/** Fewest occurrences, the first included. */
export const MIN_COUNT = 2;
/** Most occurrences, the first included (six months of weeks). */
export const MAX_COUNT = 26;
/** Longest a series may run, first to last occurrence (days). */
export const MAX_DAYS = 183;
/** 'Após 4 vezes' is what 'Repetir' starts with. */
export const DEFAULT_COUNT = 4;
/** 'Em' starts about three months after the first date (13 weeks). */
export const DEFAULT_UNTIL_DAYS = 91;
/** How many days the free times cover: today and the next 29 (docs/agenda.md). */
export const FREE_TIMES_DAYS = 30;
/** The grid of the times offered where the free times do not reach (minutes). */
export const TIME_STEP_MINUTES = 15;

// The server's messages (domain::series), mirrored so that the form says them before sending.
export const EVERY_WEEKS_MESSAGE = 'Repita a cada 1 a 8 semanas.';
export const COUNT_MESSAGE = 'Repita de 2 a 26 vezes.';
export const UNTIL_REQUIRED_MESSAGE = 'Informe até quando repetir: um número de vezes ou uma data.';
export const UNTIL_TOO_SOON_MESSAGE = 'A data final deve permitir pelo menos uma repetição.';
export const TOO_LONG_MESSAGE = 'A série pode durar no máximo 6 meses.';
/** The server's MSG_TOO_FEW: what the booking button says with fewer than two dates kept. */
export const TOO_FEW_MESSAGE = 'Uma série precisa de pelo menos duas datas.';

export const VERIFY_FIRST_MESSAGE = 'Verifique as datas da série.';
export const CLASHES_MESSAGE = 'Escolha outro horário ou pule as datas indisponíveis.';
export const VERIFY_NEEDS_MESSAGE = 'Escolha o cliente, os serviços e o horário para verificar as datas.';
export const STALE_MESSAGE = 'A série mudou desde a verificação: verifique as datas novamente.';
export const NO_OTHER_TIME_MESSAGE = 'Nenhum outro horário livre neste dia.';

export const REPEAT_LABEL = 'Repetir';
export const FREE_LABEL = 'Livre';
export const SKIPPED_LABEL = 'Pulada';
export const SKIP_LABEL = 'Pular';
export const VERIFY_LABEL = 'Verificar datas';
export const CHECKING_LABEL = 'Verificando...';
export const OTHER_TIME_LABEL = 'Outro horário';

/** 'Agendar série (4)': the wizard's main button while 'Repetir' is on. */
export const bookSeriesLabel = (count: number) => `Agendar série (${count})`;
/** The toast after a series was booked. */
export const seriesBookedMessage = (count: number) => `Série agendada: ${count} agendamentos.`;
/** The toast after a cancellation of a series' appointments. */
export const seriesCancelledMessage = (count: number) =>
  count === 0
    ? 'Nenhum agendamento cancelado.'
    : count === 1
      ? '1 agendamento cancelado.'
      : `${count} agendamentos cancelados.`;

/** 'Toda semana', 'A cada 2 semanas' … 'A cada 8 semanas'. */
export const frequencyLabel = (weeks: number) => (weeks === 1 ? 'Toda semana' : `A cada ${weeks} semanas`);
export const FREQUENCIES = Array.from({ length: MAX_EVERY_WEEKS }, (_, i) => ({ value: i + 1, label: frequencyLabel(i + 1) }));

/** The card's badge: 'Série 3/4'. */
export const seriesBadgeText = (series: Pick<SeriesAnswer, 'Index' | 'Count'>) => `Série ${series.Index}/${series.Count}`;
/** The badge's hint: 'Repete toda semana', 'Repete a cada 2 semanas'. */
export const seriesRepeatText = (everyWeeks: number) =>
  everyWeeks === 1 ? 'Repete toda semana' : `Repete a cada ${everyWeeks} semanas`;

const WEEKDAY_ABBREVIATIONS = ['dom.', 'seg.', 'ter.', 'qua.', 'qui.', 'sex.', 'sáb.'] as const;

/** 'ter., 05/01/2027': a date of the series' list, as pt-BR abbreviates it. */
export const seriesDayLabel = (iso: string) => `${WEEKDAY_ABBREVIATIONS[weekdayOf(iso)]}, ${formatDateBR(iso)}`;

// ---------------------------------------------------------------------------
// How it repeats.

/** 'Termina': after a number of times, or on a date. */
export type SeriesEnd = 'COUNT' | 'UNTIL';

/** The 'Repetir' form as typed. */
export interface RepeatForm {
  everyWeeks: number;
  end: SeriesEnd;
  /** 'Após … vezes', as typed. */
  count: string;
  /** 'Em', 'YYYY-MM-DD'; null until the user picks one: about three months after the first date. */
  until: string | null;
}

export const initialRepeat: RepeatForm = { everyWeeks: 1, end: 'COUNT', count: String(DEFAULT_COUNT), until: null };

/** The 'Em' date shown before the user picks one. */
export const defaultUntil = (first: string) => addDays(first, DEFAULT_UNTIL_DAYS);
/** The last day a series from `first` may reach. */
export const lastAllowed = (first: string) => addDays(first, MAX_DAYS);
/** The 'Em' date in effect. */
export const untilOf = (form: RepeatForm, first: string) => form.until ?? defaultUntil(first);

/** What the form says is wrong, by field. */
export type RepeatErrors = Partial<Record<'everyWeeks' | 'count' | 'until', string>>;

/** A repetition the server will take, with its dates; or what is wrong with it. */
export type RepeatPlan = { repeat: SeriesRepeat; dates: string[] } | { errors: RepeatErrors };

const days = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** The dates from `first`, every `everyWeeks` weeks, `count` of them. */
export function seriesDates(first: string, everyWeeks: number, count: number): string[] {
  return Array.from({ length: count }, (_, n) => addDays(first, 7 * everyWeeks * n));
}

/**
 * The repetition of the form from `first`, checked as the server checks it (`Repeat::dates`):
 * every 1 to 8 weeks; 2 to 26 times, or until a day that leaves at least one repetition; at
 * most six months from the first date to the last.
 */
export function planRepeat(form: RepeatForm, first: string): RepeatPlan {
  const errors: RepeatErrors = {};
  const every = Number.isInteger(form.everyWeeks) && form.everyWeeks >= 1 && form.everyWeeks <= MAX_EVERY_WEEKS ? form.everyWeeks : null;
  if (every === null) errors.everyWeeks = EVERY_WEEKS_MESSAGE;
  let count: number | null = null;
  let repeat: SeriesRepeat | null = null;
  if (form.end === 'COUNT') {
    const text = form.count.trim();
    if (!text) errors.count = UNTIL_REQUIRED_MESSAGE;
    else if (!/^\d+$/.test(text) || Number(text) < MIN_COUNT || Number(text) > MAX_COUNT) errors.count = COUNT_MESSAGE;
    else count = Number(text);
    if (every !== null && count !== null) repeat = { everyWeeks: every, count };
  } else {
    const until = untilOf(form, first);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(until)) errors.until = UNTIL_REQUIRED_MESSAGE;
    else if (until > lastAllowed(first)) errors.until = TOO_LONG_MESSAGE;
    else if (every !== null) {
      // As the server divides: whole periods, truncated toward zero.
      count = Math.trunc(days(first, until) / (7 * every)) + 1;
      if (count < MIN_COUNT) errors.until = UNTIL_TOO_SOON_MESSAGE;
      else repeat = { everyWeeks: every, until };
    }
  }
  if (every === null || count === null || !repeat || Object.keys(errors).length) return { errors };
  const dates = seriesDates(first, every, count);
  if (dates[dates.length - 1] > lastAllowed(first)) return { errors: { count: TOO_LONG_MESSAGE } };
  return { repeat, dates };
}

/**
 * The server's 422 of a check or a booking, by the form's fields: `repeat.count` names the
 * missing end too, which the form shows under the field in use.
 */
export function repeatErrorsOf(errors: Record<string, string> | undefined, end: SeriesEnd): { fields: RepeatErrors; other: string[] } {
  const fields: RepeatErrors = {};
  const other: string[] = [];
  for (const [key, message] of Object.entries(errors ?? {})) {
    if (key === 'repeat.everyWeeks') fields.everyWeeks = message;
    else if (key === 'repeat.count') fields[end === 'UNTIL' ? 'until' : 'count'] = message;
    else if (key === 'repeat.until') fields.until = message;
    else other.push(message);
  }
  return { fields, other };
}

// ---------------------------------------------------------------------------
// The bodies.

/**
 * The appointment form of the wizard's choices (POST scheduling/professional's body, and the
 * base of a series'), or null while a time, a client or a service is missing. The mobile flow
 * omits timesType (`withTimesType` false).
 */
export function wizardPayload(
  state: Pick<WizardState, 'hour' | 'client' | 'date' | 'serviceIds' | 'observation' | 'timesType'>,
  idCompanyProfessional: number | undefined,
  withTimesType = true,
): SchedulingPayload | null {
  const { hour, client, date } = state;
  if (!hour || !client || !date || !state.serviceIds.length || idCompanyProfessional === undefined) return null;
  return {
    idCompanyProfessional,
    date,
    startTime: hour.start,
    endTime: hour.end,
    idServices: state.serviceIds,
    idUser: client.IdUser,
    observation: state.observation.trim(),
    ...(withTimesType ? { timesType: state.timesType } : {}),
  };
}

/** The body of POST scheduling/series/check and POST scheduling/series. */
export function seriesBody(form: SchedulingPayload, repeat: SeriesRepeat, occurrences?: SeriesOccurrenceChoice[]): SeriesBody {
  return { ...form, repeat, ...(occurrences ? { occurrences } : {}) };
}

/** What identifies the booking a check was made for: a change of any of it asks for a new check. */
export const formKey = (form: SchedulingPayload) =>
  JSON.stringify([form.idCompanyProfessional, form.date, form.startTime, [...form.idServices].sort((a, b) => a - b), form.idUser, form.timesType ?? null]);
export const repeatKey = (repeat: SeriesRepeat) => JSON.stringify([repeat.everyWeeks, repeat.count ?? null, repeat.until ?? null]);

// ---------------------------------------------------------------------------
// The checked dates.

/** A date of the series as checked, and what the desk chose for it. */
export interface SeriesRow {
  date: string;
  /** 'HH:MM'. */
  startTime: string;
  endTime: string | null;
  free: boolean;
  reason: string | null;
  /** Left out of the booking ('Pular', or its box unticked). */
  skipped: boolean;
}

/**
 * The rows of a check's answer. What the desk decided before (a date skipped) stays, for the
 * dates still in the series.
 */
export function rowsOf(answer: SeriesOccurrence[], before: SeriesRow[] = []): SeriesRow[] {
  return answer.map((occurrence) => ({
    date: occurrence.Date,
    startTime: occurrence.StartTime.slice(0, 5),
    endTime: occurrence.EndTime ? occurrence.EndTime.slice(0, 5) : null,
    free: occurrence.Free,
    reason: occurrence.Free ? null : (occurrence.Reason ?? null),
    skipped: before.find((row) => row.date === occurrence.Date)?.skipped ?? false,
  }));
}

/**
 * The times the desk chose instead of the form's (the `occurrences` of a check), for the dates
 * of the series `dates` (a date no longer in it would be refused).
 */
export function chosenTimes(rows: SeriesRow[], formStart: string, dates: string[]): SeriesOccurrenceChoice[] {
  return rows
    .filter((row) => row.startTime !== formStart && dates.includes(row.date))
    .map((row) => ({ date: row.date, startTime: row.startTime }));
}

/** The rows that will be booked. */
export const keptRows = (rows: SeriesRow[]) => rows.filter((row) => !row.skipped);

/** The `occurrences` of the booking: exactly the dates kept, with their times. */
export const occurrencesToBook = (rows: SeriesRow[]): SeriesOccurrenceChoice[] =>
  keptRows(rows).map((row) => ({ date: row.date, startTime: row.startTime }));

/**
 * Why the series cannot be booked yet (the button's hint), or null: it was not checked (or the
 * booking changed since), a date kept is not free, or fewer than two are kept.
 */
export function bookingBlock(rows: SeriesRow[] | null): string | null {
  if (!rows) return VERIFY_FIRST_MESSAGE;
  const kept = keptRows(rows);
  if (kept.some((row) => !row.free)) return CLASHES_MESSAGE;
  if (kept.length < MIN_COUNT) return TOO_FEW_MESSAGE;
  return null;
}

// ---------------------------------------------------------------------------
// Other times for a date that clashes.

/**
 * The professional's free starts on a day the free times cover, but `except` (the time that
 * clashes), in order.
 */
export function freeStarts(day: FreeDay | undefined, idProfessional: number, except: string): string[] {
  const groups = offeredHours(day?.freeHours ?? [], idProfessional);
  return DAY_PERIODS.flatMap((period) => groups[period].map((hour) => hour.start)).filter((start) => start !== except);
}

/**
 * Where the free times do not reach (they cover 30 days): the starts on a 15-minute grid at
 * which `minutes` fit the professional's working periods that day (with 'Todos os horários',
 * the unit's opening hours), but `except`. The check then says whether each is free.
 */
export function workingStarts(
  day: WorkingDay | undefined,
  idProfessional: number,
  minutes: number,
  timesType: string | null | undefined,
  except: string,
): string[] {
  if (!day) return [];
  const spans =
    timesType === 'ALL_TIMES'
      ? day.Opening
        ? [day.Opening]
        : []
      : (day.Professionals.find((p) => p.IdProfessional === idProfessional)?.Working ?? []);
  const starts: string[] = [];
  for (const span of spans) {
    const end = minutesOf(span.End);
    const first = Math.ceil(minutesOf(span.Start) / TIME_STEP_MINUTES) * TIME_STEP_MINUTES;
    for (let at = first; at + Math.max(minutes, 1) <= end; at += TIME_STEP_MINUTES) {
      const start = hhmm(at);
      if (start !== except && !starts.includes(start)) starts.push(start);
    }
  }
  return starts.sort();
}

/** How long the booking takes, from its form (the start and end the free times gave). */
export const durationOf = (form: Pick<SchedulingPayload, 'startTime' | 'endTime'>) =>
  form.startTime && form.endTime ? Math.max(minutesOf(form.endTime) - minutesOf(form.startTime), 0) : 0;

// ---------------------------------------------------------------------------
// Cancelling.

/** Which of a series' appointments a cancellation or a change takes. */
export type SeriesScope = 'ONE' | 'FOLLOWING' | 'ALL';

export const SERIES_SCOPES: { value: SeriesScope; label: string }[] = [
  { value: 'ONE', label: 'Somente este' },
  { value: 'FOLLOWING', label: 'Este e os seguintes' },
  { value: 'ALL', label: 'Todos' },
];

export const SERIES_SCOPE_LEGEND = 'Agendamentos da série';

/** The `scope` of DELETE and PUT scheduling/{id}/series. */
export const scopeParam = (scope: Exclude<SeriesScope, 'ONE'>) => (scope === 'FOLLOWING' ? 'following' : 'all');

// ---------------------------------------------------------------------------
// Changing (an edit's save, a move on the grid).

/** The question asked before a series' appointment is changed. */
export const CHANGE_SERIES_TITLE = 'Alterar série';
export const CONTINUE_LABEL = 'Continuar';
/** 'Este agendamento faz parte de uma série (Série 2/4).' */
export const changeSeriesText = (series: Pick<SeriesAnswer, 'Index' | 'Count'>) =>
  `Este agendamento faz parte de uma série (${seriesBadgeText(series)}).`;

/** The toast after a change of a series' appointments. */
export const seriesChangedMessage = (count: number) =>
  count === 0
    ? 'Nenhum agendamento alterado.'
    : count === 1
      ? '1 agendamento alterado.'
      : `${count} agendamentos alterados.`;

/** What 'Este e os seguintes' or 'Todos' of a change sends. */
export interface SeriesChange {
  id: number;
  scope: Exclude<SeriesScope, 'ONE'>;
  /** The single edit's body (PUT scheduling/professional/{id}), `reprice` included. */
  payload: SchedulingPayload;
}

/**
 * PUT scheduling/{id}/series?scope=following|all: the body of the single edit. The series'
 * change has no 'Agendar mesmo assim': `allowClientOverlap` is never sent.
 */
export function seriesChangeRequest({ id, scope, payload }: SeriesChange) {
  const { allowClientOverlap: _ignored, ...body } = payload;
  return { url: `scheduling/${id}/series?scope=${scopeParam(scope)}`, method: 'PUT' as const, body };
}
