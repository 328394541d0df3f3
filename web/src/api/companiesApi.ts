import { companiesLoaded } from '@/state/sessionSlice';
import { api } from './api';
import type { CompanyDto } from './types';

// Shared by the shell, the agenda and the company screens.
export const companiesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCompanies: build.query<CompanyDto[], void>({
      query: () => 'company',
      providesTags: (result) => [
        { type: 'Company', id: 'LIST' },
        ...(result ?? []).map((c) => ({ type: 'Company' as const, id: c.IdCompany })),
      ],
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(companiesLoaded(data));
        } catch {
          // Reported by the base query.
        }
      },
    }),
  }),
});

export const { useGetCompaniesQuery } = companiesApi;
