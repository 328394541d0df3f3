import { SearchableSelect } from '@/components/SearchableSelect';
import { formatDateBR } from '@/lib/dates';
import { DAY_PERIODS, offeredHours } from '../model/wizardSlice';
import type { FreeDay, FreeHour, FreeProfessional } from '../model/types';

export const NO_SERVICE_TIMES_MESSAGE = 'Para exibir os horários disponíveis, selecione ao menos um serviço.';
export const noTimesMessage = (date: string) =>
  `Nenhum horário disponível para a data selecionada (${formatDateBR(date)}). Selecione uma data válida.`;

/** 'Profissional' of the time step (modal and mobile flow): anyone, or one who offers the services. */
export function ProfessionalPicker({
  professionals,
  value,
  onChange,
}: {
  professionals: FreeProfessional[] | undefined;
  value: number | null;
  onChange: (idProfessional: number | null) => void;
}) {
  return (
    <SearchableSelect
      label="Profissional"
      options={[
        { value: 0, label: 'Sem preferência' },
        ...(professionals ?? []).map((p) => ({ value: p.idProfessional, label: p.name })),
      ]}
      value={value ?? 0}
      onChange={(id) => onChange(id || null)}
    />
  );
}

/** The days that have a free hour for the professional (null: anyone). */
export function availableDates(times: FreeDay[] | undefined, idProfessional: number | null): string[] {
  return (times ?? [])
    .filter((day) => day.freeHours.some((hour) => idProfessional === null || hour.idProfessional === idProfessional))
    .map((day) => day.shortDate);
}

/**
 * The day the wizard's last step starts on: the agenda's day, so a booking never lands on
 * another day unnoticed (issue 14), unless that day is past; then the first day with free
 * times, if any.
 */
export function initialDate(agendaDay: string | null, dates: string[], today: string): string | null {
  if (agendaDay && agendaDay >= today) return agendaDay;
  return dates[0] ?? null;
}

interface TimePickerProps {
  hasServices: boolean;
  times: FreeDay[] | undefined;
  date: string | null;
  idProfessional: number | null;
  chosen: FreeHour | null;
  onChoose: (hour: FreeHour) => void;
  loading?: boolean;
  /** Said above the times, e.g. that the chosen time was just taken at another desk (issue 45). */
  notice?: string | null;
}

/** The chosen day's free hours grouped into Manhã, Tarde and Noite, or why there are none. */
export function TimePicker({ notice, ...props }: TimePickerProps) {
  if (!notice) return <FreeHours {...props} />;
  return (
    <div className="time-picker">
      <p className="field-error" role="alert">
        {notice}
      </p>
      <FreeHours {...props} />
    </div>
  );
}

function FreeHours({ hasServices, times, date, idProfessional, chosen, onChoose, loading }: Omit<TimePickerProps, 'notice'>) {
  if (!hasServices) return <p className="empty">{NO_SERVICE_TIMES_MESSAGE}</p>;
  if (loading && !times) return <p className="muted">Carregando...</p>;
  if (!date) return null;
  const day = times?.find((entry) => entry.shortDate === date);
  const groups = offeredHours(day?.freeHours ?? [], idProfessional);
  if (DAY_PERIODS.every((period) => groups[period].length === 0)) {
    return <p className="empty">{noTimesMessage(date)}</p>;
  }
  return (
    <div className="time-groups">
      {DAY_PERIODS.filter((period) => groups[period].length).map((period) => (
        <section key={period} className="time-group" aria-label={period}>
          <h4>{period}</h4>
          <div className="time-buttons">
            {groups[period].map((hour) => {
              const selected = chosen?.start === hour.start && (idProfessional === null || chosen.idProfessional === hour.idProfessional);
              return (
                <button
                  key={`${hour.start}-${hour.idProfessional}`}
                  type="button"
                  className={`time-button${selected ? ' time-button-selected' : ''}`}
                  aria-pressed={selected}
                  onClick={() => onChoose(hour)}
                >
                  {hour.start}
                </button>
              );
            })}
          </div>
        </section>
      ))}
    </div>
  );
}
