import { fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import { api, API_BASE_PATH, POSITION_HEADER, REQUEST_TIMEOUT_MS } from '@/api/api';
import { positionReceived } from '@/api/positionSlice';
import { signedOut, type SessionState } from '@/state/sessionSlice';
import type {
  CatalogueService,
  CheckoutLinkBody,
  CheckoutToken,
  Page,
  PartnerCompany,
  PlanClient,
  PlanClientFilter,
  PlanDetail,
  PlanFilter,
  PlanListItem,
  PlanService,
  PlanServiceBody,
} from './types';

const LIST = { type: 'SubscriptionDetail', id: 'LIST' } as const;
const planTag = (id: number) => ({ type: 'SubscriptionDetail' as const, id });
const servicesTag = (id: number) => ({ type: 'SubscriptionDetail' as const, id: `SERVICES-${id}` });

/** Query string of a call, leaving out empty parameters. */
export function queryString(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined || value === '') continue;
    search.set(key, String(value));
  }
  return search.toString();
}

export const planFilterUrl = ({ page, pageSize, description, status, paymentMethod }: PlanFilter) =>
  `subscription-details?${queryString({ page, pageSize, description: description.trim(), status, paymentMethod })}`;

/** The send-link search: active clients only (spec 02 §2). */
export const planClientsUrl = ({ page, pageSize, search }: PlanClientFilter) =>
  `user/filter?${queryString({ page, pageSize, search: search.trim(), status: 1 })}`;

const silentFetch = fetchBaseQuery({
  baseUrl: new URL(API_BASE_PATH, window.location.origin).href,
  timeout: REQUEST_TIMEOUT_MS,
  prepareHeaders: (headers, { getState }) => {
    const { token } = (getState() as { session: SessionState }).session;
    headers.set('Authorization', token ? `Bearer ${token}` : '');
    return headers;
  },
});

/**
 * The checkout-link calls go around the shared base query's toast: their failures have
 * their own messages (spec 02 §8 'Ocorreu um erro ao gerar o link do usuario.' ...), and
 * one failure must raise one toast. The screen shows the server's message when there is one,
 * the spec's otherwise (see linkFailureMessage). Position and 401 are handled as usual.
 */
const quietly: BaseQueryFn<FetchArgs, unknown, FetchBaseQueryError> = async (args, queryApi, extraOptions) => {
  const result = await silentFetch(args, queryApi, extraOptions);
  const answered = result.meta?.response?.headers.get(POSITION_HEADER);
  if (answered) queryApi.dispatch(positionReceived(answered));
  if (result.error?.status === 401) queryApi.dispatch(signedOut());
  return { data: result.data, error: result.error } as Awaited<ReturnType<typeof silentFetch>>;
};

export const plansApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPlans: build.query<Page<PlanListItem>, PlanFilter>({
      query: planFilterUrl,
      providesTags: (result) => [LIST, ...(result?.content ?? []).map((plan) => planTag(plan.IdSubscriptionDetail))],
    }),
    getPlan: build.query<PlanDetail, number>({
      query: (id) => `subscription-details/${id}`,
      providesTags: (_result, _error, id) => [planTag(id)],
    }),
    // Multipart: a FormData body, so fetch sets the boundary's Content-Type itself.
    createPlan: build.mutation<{ IdSubscriptionDetail: number }, { body: FormData; idempotencyKey: string }>({
      query: ({ body, idempotencyKey }) => ({
        url: 'subscription-details',
        method: 'POST',
        body,
        // One key per submission: a double click or a retry creates one plan.
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: (_result, error) => (error ? [] : [LIST]),
    }),
    updatePlan: build.mutation<{ IdSubscriptionDetail: number }, { id: number; body: FormData }>({
      query: ({ id, body }) => ({ url: `subscription-details/${id}`, method: 'PUT', body }),
      invalidatesTags: (_result, error, { id }) => (error ? [] : [LIST, planTag(id)]),
    }),
    getPartnerCompanies: build.query<PartnerCompany[], void>({
      query: () => 'partner-company',
    }),
    getPlanServices: build.query<PlanService[], number>({
      query: (id) => `subscription-service/services/${id}`,
      providesTags: (_result, _error, id) => [servicesTag(id)],
    }),
    getPlanCatalogue: build.query<CatalogueService[], void>({
      query: () => 'service/active',
      providesTags: [{ type: 'Service', id: 'ACTIVE' }],
    }),
    addPlanService: build.mutation<{ IdSubscriptionService: number }, PlanServiceBody>({
      query: (body) => ({ url: 'subscription-service/', method: 'POST', body }),
      invalidatesTags: (_result, error, body) => (error ? [] : [servicesTag(body.idSubscriptionDetail)]),
    }),
    updatePlanService: build.mutation<unknown, { id: number; body: PlanServiceBody }>({
      query: ({ id, body }) => ({ url: `subscription-service/${id}`, method: 'PUT', body }),
      invalidatesTags: (_result, error, { body }) => (error ? [] : [servicesTag(body.idSubscriptionDetail)]),
    }),
    deletePlanService: build.mutation<unknown, { id: number; planId: number }>({
      query: ({ id }) => ({ url: `subscription-service/${id}`, method: 'DELETE' }),
      invalidatesTags: (_result, error, { planId }) => (error ? [] : [servicesTag(planId)]),
    }),
    getPlanClients: build.query<Page<PlanClient>, PlanClientFilter>({
      query: planClientsUrl,
      providesTags: [{ type: 'Client', id: 'LIST' }],
    }),
    createCheckoutToken: build.mutation<CheckoutToken, CheckoutLinkBody>({
      queryFn: (body, queryApi, extraOptions) =>
        quietly({ url: 'checkout/create-user-token', method: 'POST', body }, queryApi, extraOptions) as never,
    }),
    sendCheckoutEmail: build.mutation<unknown, CheckoutLinkBody>({
      queryFn: (body, queryApi, extraOptions) =>
        quietly({ url: 'checkout/send-user-token-email', method: 'POST', body }, queryApi, extraOptions) as never,
    }),
  }),
});

export const {
  useGetPlansQuery,
  useGetPlanQuery,
  useCreatePlanMutation,
  useUpdatePlanMutation,
  useGetPartnerCompaniesQuery,
  useGetPlanServicesQuery,
  useGetPlanCatalogueQuery,
  useAddPlanServiceMutation,
  useUpdatePlanServiceMutation,
  useDeletePlanServiceMutation,
  useGetPlanClientsQuery,
  useCreateCheckoutTokenMutation,
  useSendCheckoutEmailMutation,
} = plansApi;
