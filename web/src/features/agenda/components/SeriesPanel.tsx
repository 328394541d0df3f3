import { skipToken } from '@reduxjs/toolkit/query';
import { useId } from 'react';
import { addDays } from '@/lib/dates';
import { useGetWorkingTimesQuery } from '../api/agendaApi';
import type { SeriesControl } from '../hooks/useSeries';
import {
  CHECKING_LABEL,
  FREE_LABEL,
  FREE_TIMES_DAYS,
  FREQUENCIES,
  MAX_COUNT,
  MIN_COUNT,
  NO_OTHER_TIME_MESSAGE,
  OTHER_TIME_LABEL,
  REPEAT_LABEL,
  SKIPPED_LABEL,
  SKIP_LABEL,
  STALE_MESSAGE,
  VERIFY_LABEL,
  VERIFY_NEEDS_MESSAGE,
  durationOf,
  freeStarts,
  lastAllowed,
  seriesDayLabel,
  untilOf,
  workingStarts,
  type SeriesRow,
} from '../model/series';
import './Series.css';

/**
 * 'Repetir' of a new booking (issue 45): how often and until when, 'Verificar datas', and the
 * dates of the series, each with its time and 'Livre' or why not; a date that clashes takes
 * another time or is skipped, and any date can be left out.
 */
export function SeriesPanel({ control }: { control: SeriesControl }) {
  const name = useId();
  const { on, repeat, errors, form } = control;
  const first = form?.date ?? null;
  return (
    <section className="series" aria-label={REPEAT_LABEL}>
      <label className="checkbox series-toggle">
        <input type="checkbox" checked={on} onChange={(event) => control.setOn(event.target.checked)} />
        {REPEAT_LABEL}
      </label>
      {on && (
        <>
          <div className="series-options">
            <div className="series-field">
              <label htmlFor={`${name}-every`}>Frequência</label>
              <select
                id={`${name}-every`}
                value={repeat.everyWeeks}
                aria-invalid={errors.everyWeeks ? true : undefined}
                onChange={(event) => control.changeRepeat({ everyWeeks: Number(event.target.value) })}
              >
                {FREQUENCIES.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
              {errors.everyWeeks && <FieldError text={errors.everyWeeks} />}
            </div>
            <fieldset className="series-field series-end">
              <legend>Termina</legend>
              <div className="series-end-choice">
                <label>
                  <input
                    type="radio"
                    name={`${name}-end`}
                    checked={repeat.end === 'COUNT'}
                    onChange={() => control.changeRepeat({ end: 'COUNT' })}
                  />
                  Após
                </label>
                <input
                  type="number"
                  className="series-count"
                  inputMode="numeric"
                  min={MIN_COUNT}
                  max={MAX_COUNT}
                  aria-label="Número de vezes"
                  aria-invalid={errors.count ? true : undefined}
                  value={repeat.count}
                  onFocus={() => repeat.end !== 'COUNT' && control.changeRepeat({ end: 'COUNT' })}
                  onChange={(event) => control.changeRepeat({ end: 'COUNT', count: event.target.value })}
                />
                <span>vezes</span>
              </div>
              {errors.count && <FieldError text={errors.count} />}
              <div className="series-end-choice">
                <label>
                  <input
                    type="radio"
                    name={`${name}-end`}
                    checked={repeat.end === 'UNTIL'}
                    onChange={() => control.changeRepeat({ end: 'UNTIL' })}
                  />
                  Em
                </label>
                <input
                  type="date"
                  className="series-until"
                  aria-label="Data final"
                  aria-invalid={errors.until ? true : undefined}
                  min={first ? addDays(first, 7 * repeat.everyWeeks) : undefined}
                  max={first ? lastAllowed(first) : undefined}
                  value={first ? untilOf(repeat, first) : (repeat.until ?? '')}
                  onFocus={() => repeat.end !== 'UNTIL' && control.changeRepeat({ end: 'UNTIL' })}
                  onChange={(event) => control.changeRepeat({ end: 'UNTIL', until: event.target.value })}
                />
              </div>
              {errors.until && <FieldError text={errors.until} />}
            </fieldset>
            <div className="series-verify">
              <button
                type="button"
                className="button button-secondary"
                disabled={!form || control.checking}
                onClick={() => void control.verify()}
              >
                {control.checking && !control.pendingDate ? CHECKING_LABEL : VERIFY_LABEL}
              </button>
              {!form && <p className="muted series-hint">{VERIFY_NEEDS_MESSAGE}</p>}
            </div>
          </div>
          {control.otherErrors.map((text) => (
            <FieldError key={text} text={text} />
          ))}
          {control.stale && !control.rows && <p className="muted series-hint">{STALE_MESSAGE}</p>}
          {control.rows && (
            <ul className="series-rows" aria-label="Datas da série">
              {control.rows.map((row) => (
                <SeriesRowItem key={row.date} row={row} control={control} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

function FieldError({ text }: { text: string }) {
  return (
    <p className="field-error" role="alert">
      {text}
    </p>
  );
}

/** One date of the series: kept or not, its time, 'Livre' or why not, and for a clash another time or 'Pular'. */
function SeriesRowItem({ row, control }: { row: SeriesRow; control: SeriesControl }) {
  const id = useId();
  const label = seriesDayLabel(row.date);
  const pending = control.pendingDate === row.date;
  const formStart = control.form?.startTime ?? '';
  const chosen = row.startTime !== formStart;
  const offersOther = !row.skipped && (!row.free || chosen);
  const busy = control.checking || control.booking;
  const status = pending ? CHECKING_LABEL : row.skipped ? SKIPPED_LABEL : row.free ? FREE_LABEL : (row.reason ?? '');
  const statusClass = pending || row.skipped ? 'muted' : row.free ? 'series-free' : 'series-busy';
  return (
    <li className={`series-row${row.skipped ? ' series-row-skipped' : ''}`} aria-labelledby={`${id}-date`}>
      <input
        type="checkbox"
        className="series-keep"
        checked={!row.skipped}
        disabled={busy}
        aria-label={`Agendar em ${label}`}
        onChange={(event) => control.keep(row.date, event.target.checked)}
      />
      <span id={`${id}-date`} className="series-date">
        {label}
      </span>
      <span className="series-time">
        {row.startTime}
        {row.endTime ? ` - ${row.endTime}` : ''}
      </span>
      <span className={`series-status ${statusClass}`}>{status}</span>
      {offersOther && !pending && (
        <div className="series-actions">
          <OtherTimes row={row} control={control} chosen={chosen} disabled={busy} />
          {!row.free && (
            <button type="button" className="button button-secondary button-small" disabled={busy} onClick={() => control.keep(row.date, false)}>
              {SKIP_LABEL}
            </button>
          )}
        </div>
      )}
    </li>
  );
}

/**
 * 'Outro horário' of a date: the professional's free starts that day where the free times reach
 * (30 days), beyond them the starts that fit the professional's working periods (the check
 * then tells which are free).
 */
function OtherTimes({ row, control, chosen, disabled }: { row: SeriesRow; control: SeriesControl; chosen: boolean; disabled: boolean }) {
  const { answer, idProfessional, idCompany, form, today } = control;
  const covered = row.date < addDays(today, FREE_TIMES_DAYS);
  const working = useGetWorkingTimesQuery(!covered && idCompany ? { idCompany, date: row.date } : skipToken);
  if (idProfessional === null || !form) return null;
  const except = chosen ? '' : row.startTime;
  const starts = covered
    ? freeStarts(answer?.times.find((day) => day.shortDate === row.date), idProfessional, except)
    : workingStarts(working.data?.find((day) => day.Date === row.date), idProfessional, durationOf(form), form.timesType, except);
  if (!covered && working.isFetching && !working.data) return <span className="muted">{CHECKING_LABEL}</span>;
  // A time chosen before stays on the list, though it may no longer be offered.
  const options = chosen && !starts.includes(row.startTime) ? [row.startTime, ...starts].sort() : starts;
  if (!options.length) return <span className="muted">{NO_OTHER_TIME_MESSAGE}</span>;
  return (
    <select
      className="series-other"
      aria-label={OTHER_TIME_LABEL}
      value={chosen ? row.startTime : ''}
      disabled={disabled}
      onChange={(event) => {
        if (event.target.value) void control.chooseTime(row.date, event.target.value);
      }}
    >
      {!chosen && <option value="">{OTHER_TIME_LABEL}</option>}
      {options.map((start) => (
        <option key={start} value={start}>
          {start}
        </option>
      ))}
    </select>
  );
}
