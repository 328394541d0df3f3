import { skipToken } from '@reduxjs/toolkit/query';
import { useState, type ReactNode } from 'react';
import { useAppDispatch } from '@/state/hooks';
import { formatDateBR, hhmm, minutesOf, shortTime } from '@/lib/dates';
import { notifyError, notifySuccess } from '@/lib/notify';
import { DayOffModal } from '@/features/professionals/DayOffTab';
import {
  agendaApi,
  shownChanged,
  useGetBlockedQuery,
  useGetWorkingTimesQuery,
  useMoveSchedulingMutation,
} from '../api/agendaApi';
import { slotChosen } from '../model/agendaSlice';
import type { AgendaScope } from './hooks';
import { useWriteQuestions } from './useWriteQuestions';
import type { GridActions, TimelineColumn } from '../components/Timeline';
import type { DayItem, UnitProfessional } from '../model/types';
import { blockedSpanOn, columnShades, slotRefusal, unitMinutesNow, type ColumnRules } from '../model/workingTimes';

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
 * another appointment then is a question for ADMIN and ATTENDANT ('Agendar mesmo assim'). A
 * series' appointment asks first which ones move ('Alterar série'): 'Este e os seguintes' and
 * 'Todos' send the same body to the series' change, which moves them all or none.
 *
 * The grid shows when people work (issue 45): outside the professional's working periods, the
 * unit's opening hours, its holidays, the days off and the past are shaded (`now` is the page's
 * clock), and a click there says why at once, with the server's message, instead of opening
 * 'Novo agendamento'.
 */
export function useGridActions(
  scope: AgendaScope,
  professionals: UnitProfessional[],
  days: string[] | null,
  now: number,
): { grid: GridActions; dialogs: ReactNode } {
  const dispatch = useAppDispatch();
  const [move] = useMoveSchedulingMutation();
  const questions = useWriteQuestions();
  const [blocking, setBlocking] = useState<{ column: TimelineColumn; date: string } | null>(null);
  const idCompany = scope.company?.IdCompany;
  const shown = idCompany && days?.length ? { idCompany, date: days[0], dateEnd: days.length > 1 ? days[days.length - 1] : undefined } : skipToken;
  const blocked = useGetBlockedQuery(shown);
  const working = useGetWorkingTimesQuery(shown);
  const timeZone = scope.company?.TimeZone;

  /** What decides a column's day at `at` (ms since the epoch). */
  const rulesOf = (column: TimelineColumn, date: string, at: number): ColumnRules => ({
    date,
    today: scope.today,
    nowMinutes: unitMinutesNow(at, timeZone),
    idProfessional: column.idProfessional,
    day: working.currentData?.find((entry) => entry.Date === date),
    blocked: blocked.currentData ?? [],
  });

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
    // Of a series (issue 45): this one, this and the following, or all; then the price.
    const scope = await questions.askSeriesScope(item.Series);
    if (!scope) {
      putBack();
      return;
    }
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
    if (scope !== 'ONE') {
      // The others move by as many days, to the same time; refused, nothing moved.
      const changed = await questions.sendSeries({ id: item.IdScheduling, scope, payload });
      if (!changed) putBack();
      return;
    }
    const moved = await questions.send((extra) => move({ id: item.IdScheduling, payload: { ...payload, ...extra }, to }).unwrap());
    if (moved) notifySuccess(movedMessage(item.IdScheduling, date, start));
    // Refused (the message shown) or not confirmed: the card goes back.
    else putBack();
  };

  const grid: GridActions = {
    onSlot: (column, date, start) => {
      // The clock at the click: the page's moves only once a minute.
      const refusal = slotRefusal(rulesOf(column, date, Date.now()), start);
      if (refusal) notifyError(refusal);
      else dispatch(slotChosen({ idProfessional: column.idProfessional, date, start }));
    },
    onMove: (item, column, date, start) => void onMove(item, column, date, start),
    onBlock: scope.role === 'ADMIN' ? (column, date) => setBlocking({ column, date }) : undefined,
    blockedOf: (column, date) =>
      (blocked.currentData ?? []).filter(
        (block) => block.IdProfessional === column.idProfessional && blockedSpanOn(block, date) !== null,
      ),
    shadesOf: (column, date) => columnShades(rulesOf(column, date, now)),
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
