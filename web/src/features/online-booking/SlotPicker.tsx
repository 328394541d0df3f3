import { useId } from 'react';
import { weekdayDateBR } from '@/lib/dates';
import { NO_FREE_DAYS_MESSAGE, dayButtonParts, dayPeriods } from './booking';
import type { OnlineProfessional } from './types';
import { Alert } from './UnitHeader';
import type { Slots } from './useSlots';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('');

/** 'Sem preferência' and the professionals who do the chosen services, as radio cards. */
export function ProfessionalCards({
  professionals,
  value,
  onChange,
  disabled,
}: {
  professionals: OnlineProfessional[];
  value: number | null;
  onChange: (idProfessional: number | null) => void;
  disabled?: boolean;
}) {
  const name = useId();
  const options: { id: number | null; label: string; photo: string | null }[] = [
    { id: null, label: 'Sem preferência', photo: null },
    ...professionals.map((p) => ({ id: p.IdProfessional, label: p.Name, photo: p.Photo ?? null })),
  ];
  return (
    <div className="ob-cards" role="radiogroup" aria-label="Profissional">
      {options.map((option) => (
        <label key={option.id ?? 'any'} className="ob-card">
          <input
            type="radio"
            name={name}
            checked={value === option.id}
            disabled={disabled}
            onChange={() => onChange(option.id)}
          />
          {option.photo ? (
            <img className="ob-avatar" src={option.photo} alt="" width={48} height={48} loading="lazy" />
          ) : (
            <span className="ob-avatar" aria-hidden="true">
              {option.id === null ? '★' : initials(option.label)}
            </span>
          )}
          <span className="ob-card-name">{option.label}</span>
        </label>
      ))}
    </div>
  );
}

/** What marks the time a booking being moved holds now. */
export const CURRENT_TIME_LABEL = 'Horário atual';

/** Where a booking is now: its day, its start ('HH:MM') and its professional. */
export interface CurrentSlot {
  date: string;
  start: string;
  idProfessional: number;
}

/** Whether a time offered is the booking's own (for its professional, or for anyone). */
export const isCurrentSlot = (current: CurrentSlot | undefined, date: string, start: string, idProfessional: number | null) =>
  !!current &&
  current.date === date &&
  current.start === start &&
  (idProfessional === null || idProfessional === current.idProfessional);

/**
 * The days with free times, then the chosen day's times (Manhã, Tarde, Noite); when moving a
 * booking, `current` marks its own time 'Horário atual'.
 */
export function DayTimePicker({
  slots,
  notice,
  current,
  timeZone,
}: {
  slots: Slots;
  notice?: string | null;
  current?: CurrentSlot;
  /** The unit's: 'Hoje' and 'Amanhã' are on its clock. */
  timeZone?: string;
}) {
  const { days, date, times, hour, idProfessional, hasServices, loading, refreshing, failed } = slots;
  const periods = date ? dayPeriods(times, date, idProfessional) : [];
  return (
    <div className="ob-slots">
      <Alert message={notice} />
      {!hasServices && <p className="muted">Escolha ao menos um serviço para ver os horários livres.</p>}
      {loading && (
        <p className="muted" role="status">
          Carregando horários…
        </p>
      )}
      {failed && !loading && (
        <p className="ob-alert" role="alert">
          Não foi possível carregar os horários.{' '}
          <button type="button" className="button-link ob-inline" onClick={() => void slots.refetch()}>
            Tentar de novo
          </button>
        </p>
      )}
      {hasServices && !loading && !failed && days.length === 0 && <p className="empty">{NO_FREE_DAYS_MESSAGE}</p>}
      {days.length > 0 && (
        <div className="ob-days" role="group" aria-label="Dia">
          {days.map((day) => {
            const { top, bottom } = dayButtonParts(day, Date.now(), timeZone);
            return (
              <button
                key={day}
                type="button"
                className={`ob-day${day === date ? ' ob-day-selected' : ''}`}
                aria-pressed={day === date}
                aria-label={weekdayDateBR(day)}
                onClick={() => slots.chooseDate(day)}
              >
                <span>{top}</span>
                <strong>{bottom}</strong>
              </button>
            );
          })}
        </div>
      )}
      {refreshing && (
        <p className="muted ob-small" role="status">
          Atualizando horários…
        </p>
      )}
      {periods.map(({ period, hours }) => (
        <div key={period} className="ob-period" role="group" aria-label={period}>
          <h3 className="ob-period-title">{period}</h3>
          <div className="ob-times">
            {hours.map((free) => {
              const selected = hour?.start === free.start;
              const own = isCurrentSlot(current, date ?? '', free.start, idProfessional);
              return (
                <button
                  key={free.start}
                  type="button"
                  className={`ob-time${selected ? ' ob-time-selected' : ''}${own ? ' ob-time-current' : ''}`}
                  aria-pressed={selected}
                  onClick={() => slots.chooseHour(free)}
                >
                  {free.start}
                  {own && <span className="ob-time-current-label">{CURRENT_TIME_LABEL}</span>}
                </button>
              );
            })}
          </div>
        </div>
      ))}
    </div>
  );
}
