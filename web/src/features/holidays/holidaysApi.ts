import { api } from '@/api/api';
import type { Holiday, HolidayFilter, HolidayPage, HolidayPayload, HolidayWritten } from './types';

const LIST = 'LIST';

export const holidayFilterUrl = ({ page, pageSize, search }: HolidayFilter) => {
  const params = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (search.trim()) params.set('search', search.trim());
  return `holiday/filter?${params.toString()}`;
};

export const holidaysApi = api.injectEndpoints({
  endpoints: (build) => ({
    getHolidays: build.query<HolidayPage, HolidayFilter>({
      query: holidayFilterUrl,
      providesTags: (result) => [
        { type: 'Holiday', id: LIST },
        ...(result?.content ?? []).map((holiday) => ({ type: 'Holiday' as const, id: holiday.IdHoliday })),
      ],
    }),
    getHoliday: build.query<Holiday, number>({
      query: (id) => `holiday/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'Holiday', id }],
    }),
    createHoliday: build.mutation<HolidayWritten, HolidayPayload>({
      query: (body) => ({ url: 'holiday', method: 'POST', body }),
      invalidatesTags: [{ type: 'Holiday', id: LIST }],
    }),
    updateHoliday: build.mutation<HolidayWritten, { id: number; payload: HolidayPayload }>({
      query: ({ id, payload }) => ({ url: `holiday/${id}`, method: 'PUT', body: payload }),
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'Holiday', id },
        { type: 'Holiday', id: LIST },
      ],
    }),
    deleteHoliday: build.mutation<unknown, number>({
      query: (id) => ({ url: `holiday/${id}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'Holiday', id: LIST }],
    }),
  }),
});

export const {
  useGetHolidaysQuery,
  useGetHolidayQuery,
  useCreateHolidayMutation,
  useUpdateHolidayMutation,
  useDeleteHolidayMutation,
} = holidaysApi;
