import { QUIET, api } from '@/api/api';
import { queryString } from '@/api/queryString';
import type { Schemas } from '@/api/wire';
import type {
  Attendance,
  AvailableTimes,
  BlockedTime,
  AvailableTimesQuery,
  ClientPage,
  ClientQuery,
  ComandaOpened,
  ComandaOpenPayload,
  DayItem,
  DayQuery,
  OriginSwept,
  SchedulingAttendance,
  SchedulingCancelled,
  SchedulingConfirmed,
  SchedulingDetail,
  SchedulingPayload,
  SchedulingWritten,
  SeriesBody,
  SeriesBooked,
  SeriesCancelled,
  SeriesChanged,
  SeriesOccurrence,
  UnitProfessional,
  UnitService,
  WorkingDay,
} from '../model/types';
import { clientOverlapMessage } from '../model/promises';
import { seriesChangeRequest, type SeriesChange } from '../model/series';

/** '[1,2]', the list format of the available-times call. */
export const idList = (ids: number[]) => `[${ids.join(',')}]`;

const LIST = 'LIST';

export const dayUrl = ({ idCompany, date, idProfessional, idUser, status, asOf }: DayQuery) =>
  `scheduling/professional?${queryString({
    idCompany,
    date,
    idProfessional: idProfessional || null,
    idUser: idUser || null,
    status,
    asOf: asOf || null,
  })}`;

/** A day list's tags; a past view has none, since what stood at a past instant never changes. */
const dayTags = (result: DayItem[] | undefined, _error: unknown, query: { asOf?: string | null }) =>
  query.asOf
    ? []
    : [
        { type: 'Scheduling' as const, id: LIST },
        ...(result ?? []).map((item) => ({ type: 'Scheduling' as const, id: item.IdScheduling })),
      ];

export const availableTimesUrl = (query: AvailableTimesQuery) =>
  `no-auth/scheduling/available-times?${queryString({
    idCompany: query.idCompany,
    idServices: idList(query.idServices),
    timesType: query.timesType,
    idProfessionals: query.idProfessionals?.length ? idList(query.idProfessionals) : null,
    idSchedulingEdit: query.idSchedulingEdit ?? null,
  })}`;


/**
 * A unit's blocked times on a day or a week (GET day-off/company/{idCompany}?date&dateEnd), and
 * its working times (GET scheduling/company/{idCompany}/working-times?date&dateEnd).
 */
export interface BlockedQuery {
  idCompany: number;
  date: string;
  dateEnd?: string;
}

/** The seven days of one professional's week, read day by day (the day list's call). */
export interface WeekQuery extends Omit<DayQuery, 'date' | 'idProfessional'> {
  idProfessional: number;
  dates: string[];
}

/** An edit or a move: `PUT scheduling/professional/{id}`. */
const changeQuery = ({ id, payload }: { id: number; payload: SchedulingPayload }) => ({
  url: `scheduling/professional/${id}`,
  method: 'PUT',
  body: payload,
});

/**
 * What an edit or a move changes: the appointment, the day lists and the free times. A
 * refusal for the client's other appointment changed nothing, and the screen is asking whether
 * to book anyway (a moved card stays where it was dropped meanwhile): nothing is read again.
 */
const changedTags = (_result: unknown, error: unknown, { id }: { id: number }) =>
  clientOverlapMessage(error)
    ? []
    : [
        { type: 'Scheduling' as const, id },
        { type: 'Scheduling' as const, id: LIST },
        { type: 'AvailableTime' as const, id: LIST },
      ];

/** What an attendance change touches: the appointment and the day lists (its history too). */
const attendanceTags = (_result: unknown, _error: unknown, id: number) => [
  { type: 'Scheduling' as const, id },
  { type: 'Scheduling' as const, id: LIST },
];

/** An attendance call (issue 41), shown on the cached day lists at once and taken back if refused. */
const attendanceCall = (method: 'POST' | 'DELETE', path: 'arrival' | 'no-show', attendance: Attendance | null) => ({
  query: (id: number) => ({ url: `scheduling/${id}/${path}`, method }),
  onQueryStarted: (
    id: number,
    { dispatch, getState, queryFulfilled }: { dispatch: Dispatch; getState: () => unknown; queryFulfilled: Promise<unknown> },
  ) =>
    changeDayListsUntilRefused(dispatch, getState, id, queryFulfilled, (item) => {
      item.Attendance = attendance;
    }),
  invalidatesTags: attendanceTags,
});

export const agendaApi = api.injectEndpoints({
  endpoints: (build) => ({
    getUnitProfessionals: build.query<UnitProfessional[], number>({
      query: (idCompany) => `professional/company/${idCompany}`,
      providesTags: [{ type: 'Professional', id: LIST }],
    }),
    getUnitServices: build.query<UnitService[], number>({
      query: (idCompany) => `service/company/${idCompany}`,
      providesTags: [{ type: 'Service', id: LIST }],
    }),
    getDay: build.query<DayItem[], DayQuery>({
      query: dayUrl,
      providesTags: dayTags,
    }),
    getWeek: build.query<DayItem[], WeekQuery>({
      // The week view shows seven day lists; one cache entry keeps them consistent.
      async queryFn({ dates, ...day }, _api, _extra, baseQuery) {
        const answers = await Promise.all(dates.map((date) => baseQuery(dayUrl({ ...day, date }))));
        const failed = answers.find((answer) => answer.error);
        if (failed?.error) return { error: failed.error };
        return { data: answers.flatMap((answer) => answer.data as DayItem[]) };
      },
      providesTags: dayTags,
    }),
    getBlocked: build.query<BlockedTime[], BlockedQuery>({
      query: ({ idCompany, date, dateEnd }) => `day-off/company/${idCompany}?${queryString({ date, dateEnd })}`,
      // Days off are what free times leave out: saving one invalidates both.
      providesTags: [{ type: 'AvailableTime', id: 'BLOCKED' }],
    }),
    getWorkingTimes: build.query<WorkingDay[], BlockedQuery>({
      query: ({ idCompany, date, dateEnd }) =>
        `scheduling/company/${idCompany}/working-times?${queryString({ date, dateEnd })}`,
      // What the grid shades (issue 45): read again when a save changes free times (any
      // 'AvailableTime': days off, professionals, the live changes of holidays, units and
      // professionals), a professional's working hours (Professional LIST, or one's own
      // profile), a holiday, or the unit's opening hours.
      providesTags: (_result, _error, { idCompany }) => [
        { type: 'AvailableTime', id: 'WORKING' },
        { type: 'Professional', id: LIST },
        { type: 'Profile', id: 'MINE' },
        { type: 'Holiday', id: LIST },
        { type: 'Company', id: `HOURS-${idCompany}` },
      ],
    }),
    getScheduling: build.query<SchedulingDetail, number>({
      query: (id) => `scheduling/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'Scheduling', id }],
    }),
    getAvailableTimes: build.query<AvailableTimes, AvailableTimesQuery>({
      query: availableTimesUrl,
      providesTags: [{ type: 'AvailableTime', id: LIST }],
      keepUnusedDataFor: 10,
    }),
    searchClients: build.query<ClientPage, ClientQuery>({
      query: ({ page, pageSize, search, status }) =>
        `user/filter?${queryString({ page, pageSize, search, status })}`,
      providesTags: [{ type: 'Client', id: LIST }],
    }),
    bookScheduling: build.mutation<SchedulingWritten, { payload: SchedulingPayload; idempotencyKey: string }>({
      query: ({ payload, idempotencyKey }) => ({
        url: 'scheduling/professional',
        method: 'POST',
        body: payload,
        // One key per modal submission: a double click or a retry books once.
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      // The screens show the failures: a client's other appointment is a question (issue 45).
      extraOptions: QUIET,
      invalidatesTags: (_result, error) =>
        clientOverlapMessage(error)
          ? []
          : [
              { type: 'Scheduling', id: LIST },
              { type: 'AvailableTime', id: LIST },
            ],
    }),
    changeScheduling: build.mutation<SchedulingWritten, { id: number; payload: SchedulingPayload }>({
      query: changeQuery,
      extraOptions: QUIET,
      invalidatesTags: changedTags,
    }),
    /** A drag on the timeline or the week: shown moved at once, put back if refused. */
    moveScheduling: build.mutation<SchedulingWritten, { id: number; payload: SchedulingPayload; to: Partial<DayItem> }>({
      query: changeQuery,
      async onQueryStarted({ id, to }, { dispatch, getState, queryFulfilled }) {
        const patches = patchDayLists(dispatch, getState, id, (item) => {
          Object.assign(item, to);
        });
        try {
          await queryFulfilled;
        } catch {
          patches.forEach((patch) => patch.undo());
        }
      },
      extraOptions: QUIET,
      invalidatesTags: changedTags,
    }),
    confirmScheduling: build.mutation<SchedulingConfirmed, number>({
      query: (id) => ({ url: `scheduling/${id}/confirm`, method: 'PUT' }),
      onQueryStarted: (id, { dispatch, getState, queryFulfilled }) =>
        changeDayListsUntilRefused(dispatch, getState, id, queryFulfilled, (item) => {
          item.Confirmation = true;
        }),
      invalidatesTags: (_result, _error, id) => [
        { type: 'Scheduling', id },
        { type: 'Scheduling', id: LIST },
      ],
    }),
    /** Issue 39: every future online booking sharing the e-mail, mobile or address of one. */
    cancelOnlineOrigin: build.mutation<OriginSwept, { id: number; by: OnlineOrigin }>({
      query: ({ id, by }) => ({ url: `scheduling/${id}/cancel-online-origin`, method: 'POST', body: { by } }),
      invalidatesTags: [
        { type: 'Scheduling', id: LIST },
        { type: 'AvailableTime', id: LIST },
      ],
    }),
    /** 'Cliente chegou'. */
    markArrival: build.mutation<SchedulingAttendance, number>(attendanceCall('POST', 'arrival', 'ARRIVED')),
    /** 'Não compareceu'. */
    markNoShow: build.mutation<SchedulingAttendance, number>(attendanceCall('POST', 'no-show', 'NO_SHOW')),
    /** 'Desfazer não compareceu'. */
    undoNoShow: build.mutation<SchedulingAttendance, number>(attendanceCall('DELETE', 'no-show', null)),
    /**
     * 'Abrir comanda' of an appointment: its services, professional and booked prices come in.
     * The card then shows 'Ver comanda'; the comandas' list has one more.
     */
    openAppointmentComanda: build.mutation<ComandaOpened, { payload: ComandaOpenPayload; idempotencyKey: string }>({
      query: ({ payload, idempotencyKey }) => ({
        url: 'comanda',
        method: 'POST',
        body: payload,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: (_result, _error, { payload }) => [
        ...(payload.idScheduling ? [{ type: 'Scheduling' as const, id: payload.idScheduling }] : []),
        { type: 'Scheduling', id: LIST },
        { type: 'Comanda', id: LIST },
      ],
    }),
    /**
     * 'Verificar datas' of 'Repetir' (issue 45): every date of the series with its time and
     * whether it is free, or why not. Reads nothing into the cache; the wizard shows its 422s.
     */
    checkSeries: build.mutation<SeriesOccurrence[], SeriesBody>({
      query: (body) => ({ url: 'scheduling/series/check', method: 'POST', body }),
      extraOptions: QUIET,
    }),
    /**
     * 'Agendar série': the occurrences chosen, each an ordinary appointment, all or none. A
     * 409 names the date no longer free; the wizard says so and checks again.
     */
    bookSeries: build.mutation<SeriesBooked, { body: SeriesBody; idempotencyKey: string }>({
      query: ({ body, idempotencyKey }) => ({
        url: 'scheduling/series',
        method: 'POST',
        body,
        // One key per submission of the same series: a double click or a retry books once.
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      extraOptions: QUIET,
      invalidatesTags: [
        { type: 'Scheduling', id: LIST },
        { type: 'AvailableTime', id: LIST },
      ],
    }),
    /**
     * 'Este e os seguintes' or 'Todos' of a series' appointment: the ones cancelled show so on
     * the cached day lists as soon as the server names them, then the lists are read again.
     */
    cancelSeries: build.mutation<SeriesCancelled, { id: number; scope: 'following' | 'all' }>({
      query: ({ id, scope }) => ({ url: `scheduling/${id}/series?${queryString({ scope })}`, method: 'DELETE' }),
      async onQueryStarted(_arg, { dispatch, getState, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          for (const id of data.IdsScheduling) {
            patchDayLists(dispatch, getState, id, (item) => {
              item.Status = false;
            });
          }
        } catch {
          // Refused: nothing was shown, the base query told the user.
        }
      },
      invalidatesTags: (result) => [
        ...(result?.IdsScheduling ?? []).map((id) => ({ type: 'Scheduling' as const, id })),
        { type: 'Scheduling', id: LIST },
        { type: 'AvailableTime', id: LIST },
      ],
    }),
    /**
     * 'Este e os seguintes' or 'Todos' of an edit's save or a grid move of a series'
     * appointment: the form's time, professional, services and notes for each, all or none (a
     * 409 names the date that would not be free). Quiet: the screen shows the failures. The
     * appointments changed and the day lists are read again, at the change's position.
     */
    changeSeries: build.mutation<SeriesChanged, SeriesChange>({
      query: seriesChangeRequest,
      extraOptions: QUIET,
      invalidatesTags: (result, _error, { id }) => [
        { type: 'Scheduling' as const, id },
        ...(result?.IdsScheduling ?? []).filter((other) => other !== id).map((other) => ({ type: 'Scheduling' as const, id: other })),
        { type: 'Scheduling', id: LIST },
        { type: 'AvailableTime', id: LIST },
      ],
    }),
    cancelScheduling: build.mutation<SchedulingCancelled, number>({
      query: (id) => ({ url: `scheduling/${id}`, method: 'DELETE' }),
      onQueryStarted: (id, { dispatch, getState, queryFulfilled }) =>
        changeDayListsUntilRefused(dispatch, getState, id, queryFulfilled, (item) => {
          item.Status = false;
        }),
      invalidatesTags: (_result, _error, id) => [
        { type: 'Scheduling', id },
        { type: 'Scheduling', id: LIST },
        { type: 'AvailableTime', id: LIST },
      ],
    }),
  }),
});

type Dispatch = (action: unknown) => unknown;

/**
 * Shows an appointment changed on the cached day lists (a card dropped at its new place) while
 * the screen asks before sending the move, and answers how to put it back. The way back looks
 * the appointment up by id, so it stays right if a list was read again meanwhile.
 */
export const shownChanged =
  (item: DayItem, to: Partial<DayItem>) =>
  (dispatch: Dispatch, getState: () => unknown): (() => void) => {
    const before: Partial<DayItem> = {};
    for (const key of Object.keys(to) as (keyof DayItem)[]) Object.assign(before, { [key]: item[key] });
    patchDayLists(dispatch, getState, item.IdScheduling, (draft) => {
      Object.assign(draft, to);
    });
    return () => {
      patchDayLists(dispatch, getState, item.IdScheduling, (draft) => {
        Object.assign(draft, before);
      });
    };
  };

/**
 * Optimistic update: changes the appointment in every cached day list at once (removing it
 * from lists whose status filter it no longer matches); the tag invalidation then re-reads
 * the lists at the command's position.
 */
/** Shows `change` on the cached day lists at once, and takes it back if the server refuses. */
async function changeDayListsUntilRefused(
  dispatch: Dispatch,
  getState: () => unknown,
  id: number,
  answered: Promise<unknown>,
  change: (item: DayItem) => void,
) {
  const patches = patchDayLists(dispatch, getState, id, change);
  try {
    await answered;
  } catch {
    patches.forEach((patch) => patch.undo());
  }
}

function patchDayLists(dispatch: Dispatch, getState: () => unknown, id: number, change: (item: DayItem) => void) {
  const state = getState() as Parameters<typeof agendaApi.util.selectInvalidatedBy>[0];
  return agendaApi.util
    .selectInvalidatedBy(state, [{ type: 'Scheduling', id }])
    .filter((entry) => entry.endpointName === 'getDay' || entry.endpointName === 'getWeek')
    .map((entry) => {
      const patch = (draft: DayItem[]) => {
        const index = draft.findIndex((item) => item.IdScheduling === id);
        if (index < 0) return;
        change(draft[index]);
        const { status } = entry.originalArgs as DayQuery;
        const item = draft[index];
        if ((status === 1 && !item.Status) || (status === 2 && item.Status)) draft.splice(index, 1);
      };
      return dispatch(
        entry.endpointName === 'getWeek'
          ? agendaApi.util.updateQueryData('getWeek', entry.originalArgs as WeekQuery, patch)
          : agendaApi.util.updateQueryData('getDay', entry.originalArgs as DayQuery, patch),
      ) as { undo: () => void };
    });
}

export const {
  useGetUnitProfessionalsQuery,
  useGetUnitServicesQuery,
  useGetDayQuery,
  useGetWeekQuery,
  useGetBlockedQuery,
  useGetWorkingTimesQuery,
  useGetSchedulingQuery,
  useLazyGetSchedulingQuery,
  useGetAvailableTimesQuery,
  useSearchClientsQuery,
  useBookSchedulingMutation,
  useChangeSchedulingMutation,
  useMoveSchedulingMutation,
  useConfirmSchedulingMutation,
  useCancelSchedulingMutation,
  useCheckSeriesMutation,
  useBookSeriesMutation,
  useCancelSeriesMutation,
  useChangeSeriesMutation,
  useCancelOnlineOriginMutation,
  useMarkArrivalMutation,
  useMarkNoShowMutation,
  useUndoNoShowMutation,
  useOpenAppointmentComandaMutation,
} = agendaApi;

/** What the bookings a sweep cancels share with the one it starts from. */
export type OnlineOrigin = Schemas['Origin'];
