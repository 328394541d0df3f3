import { api, QUIET } from '@/api/api';

/** The signed-in user's business and its standing with Navalha (GET /api/business). */
export interface BusinessInfo {
  IdBusiness: number;
  Name: string;
  BillingStatus: 'ACTIVE' | 'PENDING_PAYMENT';
}

export const businessApi = api.injectEndpoints({
  endpoints: (build) => ({
    getBusiness: build.query<BusinessInfo, void>({
      query: () => 'business',
      // Not being able to read the standing is no news for the user: no toast.
      extraOptions: QUIET,
      providesTags: [{ type: 'Company', id: 'BUSINESS' }],
    }),
  }),
});

export const { useGetBusinessQuery } = businessApi;
