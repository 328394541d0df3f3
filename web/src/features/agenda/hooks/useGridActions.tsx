import { skipToken } from '@reduxjs/toolkit/query';
import { useState, type ReactNode } from 'react';
import { useAppDispatch } from '@/state/hooks';
import { formatDateBR, hhmm, minutesOf, shortTime } from '@/lib/dates';
import { notifySuccess } from '@/lib/notify';
import { DayOffModal } from '@/features/professionals/DayOffTab';
import { agendaApi, shownChanged, useGetBlockedQuery, useMoveSchedulingMutation } from '../api/agendaApi';
import { slotChosen } from '../model/agendaSlice';
import type { AgendaScope } from './hooks';
import { useWriteQuestions } from './useWriteQuestions';
import type { GridActions, TimelineColumn } from '../components/Timeline';
import type { DayItem, UnitProfessional } from '../model/types';

/** The toast of a move: which appointment, and where it went. */
export const movedMessage = (id: number, date: string, start: string) =>
  `Agendamento N.º ${id} movido para ${formatDateBR(date)} às ${start}.`;

/** The description a blocked time starts with. */
export const BLOCKED_DESCRIPTION = 'Horário bloqueado';

/** Whether a drop changes nothing: same professional, day and start. */
export const movesNothing = (item: DayItem, idProfessional: number, date: string, start: string) =>
  item.IdProfessional === idProfessional && item.Date === date && shortTime(item.StartTime) === start;

/**
 * What the pointer does on the timeline and the week (issue 14): a click on an empty slot
 * opens 'Novo agendamento' there; a drop moves the appointment with the edit's rules (the
 * server's 409 messages, and the card put back when refused); ADMIN blocks a time range,
 * which is a day off with a time window. `days` are the days the grid shows.
 *
 * A move keeps its promises (issue 45): dropped on another professional whose prices give
 * another total, it asks which one to charge (cancel puts the card back); a client who has
 * another appointment then is a question for ADMIN and ATTENDANT ('Agendar mesmo assim').
 */
export function useGridActions(
  scope: AgendaScope,
  professionals: UnitProfessional[],
  days: string[] | null,
): { grid: GridActions; dialogs: ReactNode } {
  const dispatch = useAppDispatch();
  const [move] = useMoveSchedulingMutation();
  const questions = useWriteQuestions();
  const [blocking, setBlocking] = useState<{ column: TimelineColumn; date: string } | null>(null);
  const idCompany = scope.company?.IdCompany;
  const blocked = useGetBlockedQuery(
    idCompany && days?.length ? { idCompany, date: days[0], dateEnd: days.length > 1 ? days[days.length - 1] : undefined } : skipToken,
  );

  const onMove = async (item: DayItem, column: TimelineColumn, date: string, start: string) => {
    if (movesNothing(item, column.idProfessional, date, start)) return;
    const membership = professionals.find((p) => p.IdProfessional === column.idProfessional);
    if (!membership) return;
    const duration = minutesOf(item.EndTime) - minutesOf(item.StartTime);
    const end = hhmm(minutesOf(start) + duration);
    const to: Partial<DayItem> = {
      IdProfessional: membership.IdProfessional,
      IdCompanyProfessional: membership.IdCompanyProfessional,
      ProfessionalName: membership.Name,
      ProfessionalColor: membership.Color,
      Date: date,
      StartTime: `${start}:00`,
      EndTime: `${end}:00`,
    };
    // The card stays where it was dropped while the move is read, asked about and sent.
    const putBack = dispatch(shownChanged(item, to));
    let detail;
    try {
      // The services, prices, notes and rules of the appointment as it is now.
      detail = await dispatch(
        agendaApi.endpoints.getScheduling.initiate(item.IdScheduling, { subscribe: false, forceRefetch: true }),
      ).unwrap();
    } catch {
      // Unread: the base query showed why.
      putBack();
      return;
    }
    const idServices = detail.SchedulingServices.map((service) => service.IdService);
    const priced = await questions.askPrice(detail, membership.IdProfessional, idServices);
    if (!priced) {
      putBack();
      return;
    }
    const payload = {
      idCompanyProfessional: membership.IdCompanyProfessional,
      date,
      startTime: start,
      endTime: end,
      idServices,
      idUser: item.IdUser,
      observation: detail.Observation ?? '',
      timesType: detail.TimesType === 'ALL_TIMES' ? ('ALL_TIMES' as const) : ('ONLY_AVAILABLES' as const),
      ...priced,
    };
    const moved = await questions.send((extra) => move({ id: item.IdScheduling, payload: { ...payload, ...extra }, to }).unwrap());
    if (moved) notifySuccess(movedMessage(item.IdScheduling, date, start));
    // Refused (the message shown) or not confirmed: the card goes back.
    else putBack();
  };

  const grid: GridActions = {
    onSlot: (column, date, start) => dispatch(slotChosen({ idProfessional: column.idProfessional, date, start })),
    onMove: (item, column, date, start) => void onMove(item, column, date, start),
    onBlock: scope.role === 'ADMIN' ? (column, date) => setBlocking({ column, date }) : undefined,
    blockedOf: (column, date) =>
      (blocked.currentData ?? []).filter(
        (block) => block.IdProfessional === column.idProfessional && block.DateStart <= date && date <= block.DateEnd,
      ),
  };
  const dialogs = (
    <>
      {questions.dialogs}
      {blocking && (
        <DayOffModal
          idProfessional={blocking.column.idProfessional}
          title={`Bloquear horário de ${professionals.find((p) => p.IdProfessional === blocking.column.idProfessional)?.Name ?? blocking.column.name}`}
          initial={{ description: BLOCKED_DESCRIPTION, dateStart: blocking.date, dateEnd: blocking.date, allDay: false }}
          onClose={() => setBlocking(null)}
          onCreated={() => undefined}
        />
      )}
    </>
  );
  return { grid, dialogs };
}
