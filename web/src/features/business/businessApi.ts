import { api, QUIET } from '@/api/api';
import type { Schemas } from '@/api/wire';

/**
 * The signed-in user's business and its standing with Navalha (GET /api/business):
 * BillingStatus is ACTIVE, or PENDING_PAYMENT for the 'Pagamento pendente !' notice.
 */
export type BusinessInfo = Schemas['BusinessStanding'];

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
