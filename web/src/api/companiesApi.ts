import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useMemo } from 'react';
import { companiesLoaded } from '@/state/sessionSlice';
import { api } from './api';
import type { CompanyDto } from './wire';

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

/**
 * The units the user belongs to: the only ones a form may assign a professional, holiday or
 * plan to (the server refuses the others as unknown).
 */
export function useMemberCompanies(): CompanyDto[] | undefined {
  const { data } = useGetCompaniesQuery();
  return useMemo(() => data?.filter((company) => company.Member !== false), [data]);
}

/**
 * Reads the session's company list again (after a unit is created or changed). Forced and
 * unsubscribed: the screens that save a unit do not show the list, and a tag invalidation
 * alone only refetches lists someone is subscribed to.
 */
export function refreshSessionCompanies(dispatch: ThunkDispatch<unknown, unknown, UnknownAction>) {
  return dispatch(companiesApi.endpoints.getCompanies.initiate(undefined, { subscribe: false, forceRefetch: true }));
}
