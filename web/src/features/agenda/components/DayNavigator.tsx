import { useState } from 'react';
import { DatePicker } from '@/components/DatePicker';
import { Icon } from '@/components/Icon';
import { Modal } from '@/components/Modal';
import { addDays, clockText, formatDateBR, weekdayDateBR } from '@/lib/dates';
import { useAppSelector } from '@/state/hooks';
import { selectUnitTimeZone } from '@/state/sessionSlice';
import { useNow } from '../hooks/hooks';

/** The live clock: the unit's time, every second. */
export function Clock() {
  const now = useNow(1000);
  const timeZone = useAppSelector(selectUnitTimeZone);
  return (
    <time className="clock" aria-label="Hora atual" aria-live="off">
      {clockText(now, timeZone)}
    </time>
  );
}

interface DayNavigatorProps {
  date: string;
  today: string;
  onChange: (iso: string) => void;
  /** Mobile: the calendar opens inline instead of in a dialog, and today's date is left out. */
  compact?: boolean;
}

/** Previous and next day, the day (opens the date picker), the clock and today's date. */
export function DayNavigator({ date, today, onChange, compact = false }: DayNavigatorProps) {
  const [picking, setPicking] = useState(false);
  const choose = (iso: string) => {
    onChange(iso);
    setPicking(false);
  };
  const picker = <DatePicker value={date} onChange={choose} label="Escolher data" />;

  return (
    <div className={`day-navigator${compact ? ' day-navigator-compact' : ''}`}>
      <div className="day-navigator-row">
        <button type="button" className="icon-button" aria-label="Dia anterior" onClick={() => onChange(addDays(date, -1))}>
          <Icon name="chevronLeft" />
        </button>
        <button
          type="button"
          className="day-navigator-date"
          aria-label={`Dia exibido: ${weekdayDateBR(date)}. Abrir calendário`}
          aria-expanded={picking}
          onClick={() => setPicking((open) => !open)}
        >
          <Icon name="event" size={18} />
          <span>{compact ? formatDateBR(date) : weekdayDateBR(date)}</span>
        </button>
        <button type="button" className="icon-button" aria-label="Próximo dia" onClick={() => onChange(addDays(date, 1))}>
          <Icon name="chevronRight" />
        </button>
        {date !== today && (
          <button type="button" className="button button-secondary button-small" onClick={() => onChange(today)}>
            Hoje
          </button>
        )}
      </div>
      <div className="day-navigator-now">
        <Clock />
        {!compact && <span className="today">Hoje: {formatDateBR(today)}</span>}
      </div>
      {compact ? (
        picking && <div className="inline-calendar">{picker}</div>
      ) : (
        <Modal open={picking} title="Selecione uma data" size="small" onClose={() => setPicking(false)}>
          {picker}
        </Modal>
      )}
    </div>
  );
}
