import { skipToken } from '@reduxjs/toolkit/query';
import { useGetDayQuery } from '../api/agendaApi';
import type { AgendaScope } from '../hooks/hooks';
import type { TimelineColumn } from '../components/Timeline';
import type { DayItem, StatusFilter, UnitProfessional } from './types';
import { useLoadingOverlay } from '../hooks/useLoadingOverlay';

export const EMPTY_AGENDA = 'Nenhum agendamento encontrado...';

/** One timeline column per professional shown, plus anyone who has appointments. */
export function timelineColumns(
  professionals: UnitProfessional[],
  items: DayItem[],
  onlyProfessional: number | null,
): TimelineColumn[] {
  const columns: TimelineColumn[] = professionals
    .filter((p) => onlyProfessional === null || p.IdProfessional === onlyProfessional)
    .map((p) => ({ idProfessional: p.IdProfessional, name: p.Name, color: p.Color }));
  for (const item of items) {
    if (!columns.some((column) => column.idProfessional === item.IdProfessional)) {
      columns.push({ idProfessional: item.IdProfessional, name: item.ProfessionalName, color: item.ProfessionalColor });
    }
  }
  return columns;
}

/** The day's appointments of the unit, as the filters ask; with `asOf`, as they stood then. */
export function useDay(scope: AgendaScope, status: StatusFilter, idUser: number, asOf: string | null = null) {
  const day = useGetDayQuery(
    scope.company
      ? {
          idCompany: scope.company.IdCompany,
          date: scope.date,
          idProfessional: scope.professional,
          idUser: idUser || null,
          status,
          asOf,
        }
      : skipToken,
  );
  // The overlay shows while a day is read for the first time, not on the re-reads that
  // follow the user's own changes.
  useLoadingOverlay(day.isFetching && day.currentData === undefined);
  return { items: day.currentData ?? [], loaded: day.currentData !== undefined };
}

