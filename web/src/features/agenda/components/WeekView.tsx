import { skipToken } from '@reduxjs/toolkit/query';
import { WEEKDAY_SHORT, formatDateBR, weekdayOf } from '@/lib/dates';
import type { CardActions } from './AppointmentCard';
import { useGetWeekQuery } from '../api/agendaApi';
import type { AgendaScope } from '../hooks/hooks';
import { Timeline, type GridActions, type TimelineColumn } from './Timeline';
import type { DayItem, StatusFilter, UnitProfessional } from '../model/types';

/** What the week view says when no professional is chosen: a week is one professional's. */
export const CHOOSE_PROFESSIONAL_FOR_WEEK = 'Escolha um profissional no filtro para ver a semana.';

/** The week's seven columns, Monday to Sunday, headed 'Seg 23/11', in the professional's colour. */
export function weekColumns(professional: Pick<UnitProfessional, 'IdProfessional' | 'Color'>, days: string[]): TimelineColumn[] {
  return days.map((date) => ({
    idProfessional: professional.IdProfessional,
    name: `${WEEKDAY_SHORT[weekdayOf(date)]} ${formatDateBR(date).slice(0, 5)}`,
    color: professional.Color,
    date,
  }));
}

interface WeekViewProps extends Omit<CardActions, 'onNotWhatsApp'> {
  scope: AgendaScope;
  professional: UnitProfessional;
  days: string[];
  status: StatusFilter;
  idUser: number;
  now: number;
  isPast: (item: DayItem) => boolean;
  grid: GridActions;
  /** The past view's instant: the week as it stood then, read-only. */
  asOf?: string | null;
}

/** One professional's week on the timeline's grid: seven columns, the same colours. */
export function WeekView({ scope, professional, days, status, idUser, now, isPast, grid, asOf = null, ...actions }: WeekViewProps) {
  const week = useGetWeekQuery(
    scope.company
      ? { idCompany: scope.company.IdCompany, idProfessional: professional.IdProfessional, dates: days, idUser: idUser || null, status, asOf }
      : skipToken,
  );
  return (
    <Timeline
      items={week.currentData ?? []}
      columns={weekColumns(professional, days)}
      date={scope.date}
      today={scope.today}
      now={now}
      isPast={isPast}
      label={`Semana de ${professional.Name}`}
      readOnly={Boolean(asOf)}
      {...actions}
      {...(asOf ? {} : grid)}
    />
  );
}
