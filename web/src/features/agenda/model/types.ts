// Wire shapes of the agenda's calls (spec 01 §3, §7). Answers are PascalCase except
// available-times, which is camelCase.

import type { Schemas } from '@/api/wire';

export type TimesType = 'ONLY_AVAILABLES' | 'ALL_TIMES';

/** Booking status filter: 0 all, 1 confirmed (booked), 2 cancelled (spec 01 §4). */
export type StatusFilter = 0 | 1 | 2;

export const STATUS_OPTIONS: { value: StatusFilter; label: string }[] = [
  { value: 0, label: 'Todos' },
  { value: 1, label: 'Confirmado' },
  { value: 2, label: 'Cancelado' },
];

/** A professional of a unit, for the agenda's pickers (GET professional/company/{id}). */
export type UnitProfessional = Schemas['UnitProfessional'];

/** A service as a unit sells it (GET service/company/{id}): minutes and reais, the highest. */
export type UnitService = Schemas['UnitService'];

/** An appointment of the day list. */
export type DayItem = Schemas['DayItem'];

/** A day off that covers a day shown: the timeline greys it out (issue 14). */
export type BlockedTime = Schemas['BlockedTime'];

/** A span of a day, 'HH:MM' to 'HH:MM' ('24:00' for midnight). */
export interface WorkingSpan {
  Start: string;
  End: string;
}

/** A holiday of the unit on a day: the whole day (Window null) or a window. */
export interface WorkingHoliday {
  Description: string;
  Window: WorkingSpan | null;
}

/** One professional's working periods on a day (breaks are the gaps); none: they do not work then. */
export interface WorkingProfessional {
  IdProfessional: number;
  Working: WorkingSpan[];
}

/**
 * One day of GET scheduling/company/{idCompany}/working-times?date[&dateEnd] (issue 45): what the
 * grid shades. Typed here until `npm run gen:api` brings the server's WorkingDay.
 */
export interface WorkingDay {
  /** 'YYYY-MM-DD'. */
  Date: string;
  /** The unit's opening hours; null when it is closed that day. */
  Opening: WorkingSpan | null;
  Holidays: WorkingHoliday[];
  /** The unit's active professionals (only oneself for BARBER1, BARBER2 and DEFAULT). */
  Professionals: WorkingProfessional[];
}

export interface DayQuery {
  idCompany: number;
  date: string;
  idProfessional?: number | null;
  idUser?: number | null;
  status: StatusFilter;
  /** ADMIN's past view: the day as it stood at this instant, 'YYYY-MM-DDTHH:MM:SS' on the unit's clock. */
  asOf?: string | null;
}

/** An appointment as the edit form reads it (GET scheduling/{id}); TimesType is a TimesType. */
export type SchedulingDetail = Schemas['EditedAppointment'];

export type FreeProfessional = Schemas['FreeProfessional'];

export type FreeHour = Schemas['FreeHour'];

export type FreeDay = Schemas['FreeDay'];

/** GET no-auth/scheduling/available-times (camelCase). */
export type AvailableTimes = Schemas['FreeTimes'];

export interface AvailableTimesQuery {
  idCompany: number;
  idServices: number[];
  /** Omitted by the mobile flow. */
  timesType?: TimesType;
  idProfessionals?: number[];
  idSchedulingEdit?: number | null;
}

/** A row of GET user/filter (the client search). */
export type ClientItem = Schemas['ClientItem'];

/** A page of GET user/filter (the client search). */
export type ClientPage = Schemas['Page_ClientItem'];

export interface ClientQuery {
  page: number;
  pageSize: number;
  search: string;
  status: number;
}

/**
 * Issue 45's flags of a write, declared here so that the payload compiles whether or not the
 * generated SchedulingForm carries them yet (`npm run gen:api`).
 */
export interface PromiseFlags {
  /** An edit only: `true` prices every service at the professional's prices now; absent keeps the booked ones. */
  reprice?: boolean;
  /** ADMIN and ATTENDANT: book even though the client has another appointment overlapping ('Agendar mesmo assim'). */
  allowClientOverlap?: boolean;
}

/**
 * The appointment write payload (spec 01 §3); the mobile flow omits timesType, and the flags
 * of issue 45 are sent only when the user chose them.
 */
export type SchedulingPayload = Omit<Schemas['SchedulingForm'], 'timesType' | keyof PromiseFlags> &
  Partial<Pick<Schemas['SchedulingForm'], 'timesType'>> &
  PromiseFlags;

/** The answer of POST scheduling/professional and PUT scheduling/professional/{id}. */
export type SchedulingWritten = Schemas['IdScheduling'];

/** The answer of PUT scheduling/{id}/confirm. */
export type SchedulingConfirmed = Schemas['SchedulingConfirmed'];

/** The answer of DELETE scheduling/{id}. */
export type SchedulingCancelled = Schemas['SchedulingCancelled'];

/** The answer of POST scheduling/{id}/cancel-online-origin: the appointments it cancelled. */
export type OriginSwept = Schemas['OriginSwept'];

/**
 * Where an appointment's life ended (issue 41): 'Cliente chegou', 'Atendido' (its comanda was
 * closed) or 'Não compareceu'. `DayItem.Attendance` is one of these, or null.
 */
export type Attendance = 'ARRIVED' | 'ATTENDED' | 'NO_SHOW';

/** The answer of POST scheduling/{id}/arrival, POST and DELETE scheduling/{id}/no-show. */
export type SchedulingAttendance = Schemas['SchedulingAttendance'];

/** Body of POST comanda, as the agenda opens an appointment's comanda (`idCompany`, `idScheduling`). */
export type ComandaOpenPayload = Schemas['ComandaOpenBody'];

/** The answer of POST comanda. */
export type ComandaOpened = Schemas['IdComanda'];

// Issue 45, point 4: regulars' series.

/** How a series repeats: every 1 to 8 weeks, `count` times (2 to 26) or `until` a day (within six months). */
export interface SeriesRepeat {
  everyWeeks: number;
  count?: number;
  /** 'YYYY-MM-DD'. */
  until?: string;
}

/** A date of a series and its start ('HH:MM'): a time chosen instead of the form's, or a date to book. */
export type SeriesOccurrenceChoice = Schemas['Occurrence'];

/**
 * Body of POST scheduling/series/check and POST scheduling/series: the appointment form, how it
 * repeats, and the occurrences chosen (to check: times replacing the form's; to book: exactly
 * the dates to book).
 */
export type SeriesBody = Omit<SchedulingPayload, 'reprice'> & {
  repeat: SeriesRepeat;
  occurrences?: SeriesOccurrenceChoice[];
};

/** A date of the series as POST scheduling/series/check answers it. */
export type SeriesOccurrence = Schemas['SeriesOccurrence'];

/** The answer of POST scheduling/series. */
export type SeriesBooked = Schemas['SeriesBooked'];

/** The answer of DELETE scheduling/{id}/series. */
export type SeriesCancelled = Schemas['SeriesCancelled'];

/** The answer of PUT scheduling/{id}/series: the series and the appointments changed (this one first). */
export type SeriesChanged = Schemas['SeriesChanged'];

/** An appointment's place in its series (DayItem.Series). */
export type SeriesAnswer = Schemas['SeriesAnswer'];
