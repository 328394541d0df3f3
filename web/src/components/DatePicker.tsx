import { useEffect, useMemo, useState } from 'react';
import { MONTH_NAMES, WEEKDAY_NAMES, WEEKDAY_SHORT, longDateBR, monthWeeks, parseIso, todayIso } from '@/lib/dates';
import { Icon } from './Icon';

interface DatePickerProps {
  value: string | null;
  onChange: (iso: string) => void;
  /** With it, every day not in the list is disabled ('only available dates'). */
  availableDates?: string[] | null;
  label?: string;
}

/** Gregorian month calendar in Portuguese, weeks from Sunday (Dom..Sab). */
export function DatePicker({ value, onChange, availableDates, label = 'Calendário' }: DatePickerProps) {
  const start = value ?? availableDates?.[0] ?? todayIso();
  const [[year, month], setMonth] = useState<[number, number]>(() => parseIso(start).slice(0, 2) as [number, number]);
  const allowed = useMemo(() => (availableDates ? new Set(availableDates) : null), [availableDates]);
  const today = todayIso();

  // Follow a value (or first available day) chosen from outside.
  useEffect(() => {
    const [y, m] = parseIso(start);
    setMonth([y, m]);
  }, [start]);

  const step = (delta: number) => {
    const index = year * 12 + (month - 1) + delta;
    setMonth([Math.floor(index / 12), (index % 12) + 1]);
  };

  return (
    <div className="datepicker" role="group" aria-label={label}>
      <div className="datepicker-header">
        <button type="button" className="icon-button" aria-label="Mês anterior" onClick={() => step(-1)}>
          <Icon name="chevronLeft" />
        </button>
        <span className="datepicker-month" aria-live="polite">
          {MONTH_NAMES[month - 1]} {year}
        </span>
        <button type="button" className="icon-button" aria-label="Próximo mês" onClick={() => step(1)}>
          <Icon name="chevronRight" />
        </button>
      </div>
      <table className="datepicker-grid" role="grid">
        <thead>
          <tr>
            {WEEKDAY_SHORT.map((day, index) => (
              <th key={day} scope="col" abbr={WEEKDAY_NAMES[index]}>
                {day}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthWeeks(year, month).map((week, row) => (
            <tr key={row}>
              {week.map((iso, column) =>
                iso ? (
                  <td key={iso}>
                    <button
                      type="button"
                      className={`datepicker-day${iso === value ? ' datepicker-day-selected' : ''}${iso === today ? ' datepicker-day-today' : ''}`}
                      aria-label={longDateBR(iso)}
                      aria-pressed={iso === value}
                      aria-current={iso === today ? 'date' : undefined}
                      disabled={allowed ? !allowed.has(iso) : false}
                      onClick={() => onChange(iso)}
                    >
                      {Number(iso.slice(8, 10))}
                    </button>
                  </td>
                ) : (
                  <td key={`empty-${column}`} />
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
