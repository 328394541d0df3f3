import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { useCallback, useMemo, useState } from 'react';
import type { ApiErrorBody } from '@/api/types';
import { useIdempotencyKey } from '@/lib/idempotency';
import { notifyError, notifySuccess } from '@/lib/notify';
import { useBookSeriesMutation, useCheckSeriesMutation } from '../api/agendaApi';
import { writeFailureMessage } from '../model/promises';
import {
  bookingBlock,
  chosenTimes,
  formKey,
  initialRepeat,
  keptRows,
  occurrencesToBook,
  planRepeat,
  repeatErrorsOf,
  repeatKey,
  rowsOf,
  seriesBody,
  seriesBookedMessage,
  type RepeatErrors,
  type RepeatForm,
  type SeriesRow,
} from '../model/series';
import type { AvailableTimes, SchedulingPayload } from '../model/types';

/** A check's rows, and what they were checked for. */
interface Checked {
  form: string;
  repeat: string;
  rows: SeriesRow[];
}

export interface SeriesOptions {
  /** The booking as the wizard would send it now; null while a time, client or service is missing. */
  form: SchedulingPayload | null;
  /** The professional of the chosen time. */
  idProfessional: number | null;
  idCompany: number | null;
  /** The wizard's free times (other times for a date that clashes). */
  answer: AvailableTimes | undefined;
  /** The unit's day, 'YYYY-MM-DD'. */
  today: string;
}

/** 'Repetir' of a new booking (issue 45): the form, the checked dates, and the booking of them. */
export interface SeriesControl extends SeriesOptions {
  on: boolean;
  setOn: (on: boolean) => void;
  repeat: RepeatForm;
  changeRepeat: (change: Partial<RepeatForm>) => void;
  /** What is wrong with the repetition (shown once 'Verificar datas' was pressed). */
  errors: RepeatErrors;
  /** The server's other refusals of the check (a form field, an occurrence). */
  otherErrors: string[];
  /** The checked dates, while they are the current booking's; null otherwise. */
  rows: SeriesRow[] | null;
  /** Dates were checked, but the booking or the repetition changed since. */
  stale: boolean;
  checking: boolean;
  /** The date whose other time is being checked. */
  pendingDate: string | null;
  booking: boolean;
  /** How many dates 'Agendar série (N)' books: the ones kept, or before the check all of them. */
  count: number;
  /** Why the series cannot be booked yet, or null. */
  blocked: string | null;
  verify: () => Promise<void>;
  /** Another time for a date (then the series is checked again). */
  chooseTime: (date: string, startTime: string) => Promise<void>;
  /** Keeps a date in the booking, or leaves it out. */
  keep: (date: string, kept: boolean) => void;
  /** Books the dates kept; answers the first one's day, or null when nothing was booked. */
  book: () => Promise<string | null>;
}

const failedStatus = (error: unknown) =>
  error && typeof error === 'object' && 'status' in error ? (error as FetchBaseQueryError).status : null;

const fieldErrorsOf = (error: unknown) => {
  const body = (error as FetchBaseQueryError).data as ApiErrorBody | undefined;
  return body && typeof body === 'object' ? (body.errors as Record<string, string> | undefined) : undefined;
};

/** The state and calls of 'Repetir', shared by the desktop wizard and the mobile flow. */
export function useSeries(options: SeriesOptions): SeriesControl {
  const { form } = options;
  const [on, setOn] = useState(false);
  const [repeat, setRepeat] = useState<RepeatForm>(initialRepeat);
  const [tried, setTried] = useState(false);
  const [serverErrors, setServerErrors] = useState<{ fields: RepeatErrors; other: string[] }>({ fields: {}, other: [] });
  const [checked, setChecked] = useState<Checked | null>(null);
  const [pendingDate, setPendingDate] = useState<string | null>(null);
  const [check, checking] = useCheckSeriesMutation();
  const [bookSeries, booking] = useBookSeriesMutation();
  const withKey = useIdempotencyKey();

  const plan = useMemo(() => (form?.date ? planRepeat(repeat, form.date) : null), [repeat, form?.date]);
  const currentForm = form ? formKey(form) : null;
  const currentRepeat = plan && 'repeat' in plan ? repeatKey(plan.repeat) : null;
  const current = checked !== null && checked.form === currentForm && checked.repeat === currentRepeat;
  const rows = current ? checked.rows : null;

  const changeRepeat = useCallback((change: Partial<RepeatForm>) => {
    setRepeat((before) => ({ ...before, ...change }));
    setServerErrors({ fields: {}, other: [] });
  }, []);

  /**
   * Checks the series, with the times chosen instead of the form's (`times`; by default those
   * of the last check of the same booking). A 422 is shown on the form, anything else as a toast.
   */
  const run = async (times?: SeriesRow[]): Promise<boolean> => {
    setTried(true);
    if (!form || !plan || !('repeat' in plan)) return false;
    const key = formKey(form);
    const before = checked?.form === key ? checked.rows : [];
    const occurrences = chosenTimes(times ?? before, form.startTime ?? '', plan.dates);
    const body = seriesBody(form, plan.repeat, occurrences.length ? occurrences : undefined);
    try {
      const answer = await check(body).unwrap();
      setServerErrors({ fields: {}, other: [] });
      setChecked({ form: key, repeat: repeatKey(plan.repeat), rows: rowsOf(answer, before) });
      return true;
    } catch (error) {
      if (failedStatus(error) === 422) {
        setServerErrors(repeatErrorsOf(fieldErrorsOf(error), repeat.end));
      } else {
        const message = writeFailureMessage(error);
        if (message) notifyError(message);
      }
      return false;
    }
  };

  const verify = async () => {
    await run();
  };

  const chooseTime = async (date: string, startTime: string) => {
    if (!rows) return;
    setPendingDate(date);
    const times = rows.map((row) => (row.date === date ? { ...row, startTime } : row));
    // Shown at once with its new time while the server checks it; put back if the check fails.
    const shown = (list: SeriesRow[]) => (before: Checked | null) => (before ? { ...before, rows: list } : before);
    setChecked(shown(times.map((row) => (row.date === date ? { ...row, free: false, reason: null } : row))));
    try {
      if (!(await run(times))) setChecked(shown(rows));
    } finally {
      setPendingDate(null);
    }
  };

  const keep = (date: string, kept: boolean) =>
    setChecked((before) =>
      before ? { ...before, rows: before.rows.map((row) => (row.date === date ? { ...row, skipped: !kept } : row)) } : before,
    );

  const blocked = bookingBlock(rows);

  const book = async (): Promise<string | null> => {
    if (!form || !rows || blocked || !plan || !('repeat' in plan)) return null;
    const body = seriesBody(form, plan.repeat, occurrencesToBook(rows));
    try {
      const booked = await withKey((idempotencyKey) => bookSeries({ body, idempotencyKey }).unwrap(), JSON.stringify(body));
      notifySuccess(seriesBookedMessage(booked.IdsScheduling.length));
      setChecked(null);
      setOn(false);
      return keptRows(rows)[0].date;
    } catch (error) {
      const message = writeFailureMessage(error);
      if (message) notifyError(message);
      const status = failedStatus(error);
      // A date was taken meanwhile: the list shows which, and what is free now.
      if (status === 409) await run();
      else if (status === 422) setServerErrors(repeatErrorsOf(fieldErrorsOf(error), repeat.end));
      return null;
    }
  };

  const clientErrors = plan && 'errors' in plan ? plan.errors : {};
  const errors = tried ? { ...serverErrors.fields, ...clientErrors } : serverErrors.fields;
  const count = rows ? keptRows(rows).length : plan && 'dates' in plan ? plan.dates.length : 0;

  return {
    ...options,
    on,
    setOn,
    repeat,
    changeRepeat,
    errors,
    otherErrors: serverErrors.other,
    rows,
    stale: checked !== null && !current,
    checking: checking.isLoading,
    pendingDate,
    booking: booking.isLoading,
    count,
    blocked,
    verify,
    chooseTime,
    keep,
    book,
  };
}
