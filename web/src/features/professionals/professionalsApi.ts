import { api, API_BASE_PATH } from '@/api/api';
import { queryString } from '@/api/queryString';
import type { SessionState } from '@/state/sessionSlice';
import type {
  CommissionAnswer,
  CommissionPayload,
  CommissionWritten,
  DayOffPage,
  DayOffPayload,
  DayOffWritten,
  ProfessionalDetail,
  ProfessionalPage,
  ProfessionalPayload,
  ProfessionalQuery,
  ProfessionalWritten,
  TypeProfile,
} from './types';

export const professionalFilterUrl = ({ page, pageSize, search, status }: ProfessionalQuery) =>
  `professional/filter?${queryString({ page, pageSize, search: search.trim(), status })}`;

export const commissionUrl = (idProfessional: number) => `professional/${idProfessional}/commission`;

export const dayOffListUrl = (idProfessional: number, page: number, pageSize: number) =>
  `day-off/${idProfessional}?${queryString({ page, pageSize })}`;

const LIST = 'LIST';
/** Days off have no tag type of their own; they hang off their professional. */
const dayOffTag = (idProfessional: number) => ({ type: 'Professional' as const, id: `DAY_OFF-${idProfessional}` });
/** Nor do commission rates (issue 42). */
const commissionTag = (idProfessional: number) => ({ type: 'Professional' as const, id: `COMMISSION-${idProfessional}` });

/**
 * GET types-profile, outside the base query: spec 02 §8 says loading the profile types
 * fails silently, and the base query toasts every failure. A failure is an empty list.
 */
async function loadTypesProfile(token: string | null): Promise<TypeProfile[]> {
  try {
    const response = await fetch(new URL(`${API_BASE_PATH}types-profile`, window.location.origin), {
      headers: { Authorization: token ? `Bearer ${token}` : '' },
      signal: AbortSignal.timeout(60_000),
    });
    if (!response.ok) return [];
    const body: unknown = await response.json();
    return Array.isArray(body) ? (body as TypeProfile[]) : [];
  } catch {
    return [];
  }
}

export const professionalsApi = api.injectEndpoints({
  endpoints: (build) => ({
    filterProfessionals: build.query<ProfessionalPage, ProfessionalQuery>({
      query: professionalFilterUrl,
      providesTags: (result) => [
        { type: 'Professional', id: LIST },
        ...(result?.content ?? []).map((item) => ({ type: 'Professional' as const, id: item.IdProfessional })),
      ],
    }),
    getProfessional: build.query<ProfessionalDetail, number>({
      query: (id) => `professional/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'Professional', id }],
    }),
    getTypesProfile: build.query<TypeProfile[], void>({
      queryFn: async (_arg, { getState }) => ({ data: await loadTypesProfile((getState() as { session: SessionState }).session.token) }),
    }),
    createProfessional: build.mutation<ProfessionalWritten, { body: ProfessionalPayload; idempotencyKey: string }>({
      query: ({ body, idempotencyKey }) => ({
        url: 'professional',
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      // The agenda's bookable professionals are tagged Professional LIST too.
      invalidatesTags: [{ type: 'Professional', id: LIST }, 'AvailableTime'],
    }),
    updateProfessional: build.mutation<ProfessionalWritten, { id: number; body: ProfessionalPayload }>({
      query: ({ id, body }) => ({ url: `professional/${id}`, method: 'PUT', body }),
      invalidatesTags: (_result, _error, { id }) => [{ type: 'Professional', id: LIST }, { type: 'Professional', id }, 'AvailableTime'],
    }),
    getDaysOff: build.query<DayOffPage, { idProfessional: number; page: number; pageSize: number }>({
      query: ({ idProfessional, page, pageSize }) => dayOffListUrl(idProfessional, page, pageSize),
      providesTags: (_result, _error, { idProfessional }) => [dayOffTag(idProfessional)],
    }),
    createDayOff: build.mutation<DayOffWritten, { body: DayOffPayload; idempotencyKey: string }>({
      query: ({ body, idempotencyKey }) => ({
        url: 'day-off',
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      // A day off changes the agenda's free times.
      invalidatesTags: (_result, _error, { body }) => [dayOffTag(body.idProfessional), 'AvailableTime'],
    }),
    updateDayOff: build.mutation<DayOffWritten, { id: number; body: DayOffPayload }>({
      query: ({ id, body }) => ({ url: `day-off/${id}`, method: 'PUT', body }),
      invalidatesTags: (_result, _error, { body }) => [dayOffTag(body.idProfessional), 'AvailableTime'],
    }),
    deleteDayOff: build.mutation<void, { id: number; idProfessional: number }>({
      query: ({ id }) => ({ url: `day-off/${id}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, { idProfessional }) => [dayOffTag(idProfessional), 'AvailableTime'],
    }),
    getCommission: build.query<CommissionAnswer, number>({
      query: commissionUrl,
      providesTags: (_result, _error, id) => [commissionTag(id)],
    }),
    // Rates apply from now on: nothing else on screen changes (a closed comanda keeps what it
    // earned; the history tab reads again each time it opens).
    setCommission: build.mutation<CommissionWritten, { id: number; body: CommissionPayload }>({
      query: ({ id, body }) => ({ url: commissionUrl(id), method: 'PUT', body }),
      invalidatesTags: (_result, _error, { id }) => [commissionTag(id)],
    }),
  }),
});

export const {
  useFilterProfessionalsQuery,
  useGetProfessionalQuery,
  useGetTypesProfileQuery,
  useCreateProfessionalMutation,
  useUpdateProfessionalMutation,
  useGetDaysOffQuery,
  useCreateDayOffMutation,
  useUpdateDayOffMutation,
  useDeleteDayOffMutation,
  useGetCommissionQuery,
  useSetCommissionMutation,
} = professionalsApi;
