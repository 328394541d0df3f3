import { api } from '@/api/api';
import type {
  CatalogueService,
  OfferedService,
  OfferedServiceBody,
  ServiceSaved,
  StaffTarget,
  WorkingDay,
  WorkingDayBody,
  WorkingDaySaved,
} from './types';

/** The cache tag of one target's data: 'Profile' for my profile, 'Professional' by id. */
const tagOf = (target: StaffTarget) =>
  target.kind === 'myProfile'
    ? ({ type: 'Profile', id: 'MINE' } as const)
    : ({ type: 'Professional', id: target.idProfessional } as const);

const hoursUrl = (target: StaffTarget) =>
  target.kind === 'myProfile'
    ? 'professional-working-hours/my-profile'
    : `professional-working-hours/professional/${target.idProfessional}`;

const servicesUrl = (target: StaffTarget) =>
  target.kind === 'myProfile' ? 'professional-service/my-profile' : `professional-service/professional/${target.idProfessional}`;

const serviceUrl = (target: StaffTarget, id: number) =>
  target.kind === 'myProfile'
    ? `professional-service/${id}/my-profile`
    : `professional-service/${id}/professional/${target.idProfessional}`;

// Services change the agenda's pickers too (LIST tags of 'Service'/'Professional').
const AGENDA_LISTS = [
  { type: 'Service', id: 'LIST' },
  { type: 'Professional', id: 'LIST' },
] as const;

export const staffApi = api.injectEndpoints({
  endpoints: (build) => ({
    getWorkingHours: build.query<WorkingDay[], StaffTarget>({
      query: hoursUrl,
      providesTags: (_r, _e, target) => [tagOf(target)],
    }),
    saveWorkingDay: build.mutation<WorkingDaySaved, { target: StaffTarget; body: WorkingDayBody }>({
      query: ({ target, body }) => ({ url: `${hoursUrl(target)}/day`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { target }) => [tagOf(target), ...AGENDA_LISTS],
    }),
    getActiveServices: build.query<CatalogueService[], void>({
      query: () => 'service/active',
      providesTags: [{ type: 'Service', id: 'ACTIVE' }],
    }),
    getOfferedServices: build.query<OfferedService[], StaffTarget>({
      query: servicesUrl,
      providesTags: (_r, _e, target) => [tagOf(target), { type: 'Service', id: 'OFFERED' }],
    }),
    createOfferedService: build.mutation<ServiceSaved, { target: StaffTarget; body: OfferedServiceBody; idempotencyKey: string }>({
      query: ({ target, body, idempotencyKey }) => ({
        url: servicesUrl(target),
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: (_r, _e, { target }) => [tagOf(target), ...AGENDA_LISTS],
    }),
    updateOfferedService: build.mutation<ServiceSaved, { target: StaffTarget; id: number; body: OfferedServiceBody }>({
      query: ({ target, id, body }) => ({ url: serviceUrl(target, id), method: 'PUT', body }),
      invalidatesTags: (_r, _e, { target }) => [tagOf(target), ...AGENDA_LISTS],
    }),
  }),
});

export const {
  useGetWorkingHoursQuery,
  useSaveWorkingDayMutation,
  useGetActiveServicesQuery,
  useGetOfferedServicesQuery,
  useCreateOfferedServiceMutation,
  useUpdateOfferedServiceMutation,
} = staffApi;
