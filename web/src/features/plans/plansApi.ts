import { api, QUIET } from '@/api/api';
import { queryString } from '@/api/queryString';
import type {
  CatalogueService,
  CheckoutLinkBody,
  CheckoutToken,
  PartnerCompany,
  PlanClientPage,
  PlanClientFilter,
  PlanDetail,
  PlanFilter,
  PlanPage,
  PlanService,
  PlanServiceBody,
  PlanServiceWritten,
  PlanWritten,
} from './types';

const LIST = { type: 'SubscriptionDetail', id: 'LIST' } as const;
const planTag = (id: number) => ({ type: 'SubscriptionDetail' as const, id });
const servicesTag = (id: number) => ({ type: 'SubscriptionDetail' as const, id: `SERVICES-${id}` });

export const planFilterUrl = ({ page, pageSize, description, status, paymentMethod }: PlanFilter) =>
  `subscription-details?${queryString({ page, pageSize, description: description.trim(), status, paymentMethod })}`;

/** The send-link search: active clients only (spec 02 §2). */
export const planClientsUrl = ({ page, pageSize, search }: PlanClientFilter) =>
  `user/filter?${queryString({ page, pageSize, search: search.trim(), status: 1 })}`;

export const plansApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPlans: build.query<PlanPage, PlanFilter>({
      query: planFilterUrl,
      providesTags: (result) => [LIST, ...(result?.content ?? []).map((plan) => planTag(plan.IdSubscriptionDetail))],
    }),
    getPlan: build.query<PlanDetail, number>({
      query: (id) => `subscription-details/${id}`,
      providesTags: (_result, _error, id) => [planTag(id)],
    }),
    // Multipart: a FormData body, so fetch sets the boundary's Content-Type itself.
    createPlan: build.mutation<PlanWritten, { body: FormData; idempotencyKey: string }>({
      query: ({ body, idempotencyKey }) => ({
        url: 'subscription-details',
        method: 'POST',
        body,
        // One key per submission: a double click or a retry creates one plan.
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: (_result, error) => (error ? [] : [LIST]),
    }),
    updatePlan: build.mutation<PlanWritten, { id: number; body: FormData }>({
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
    addPlanService: build.mutation<PlanServiceWritten, PlanServiceBody>({
      query: (body) => ({ url: 'subscription-service/', method: 'POST', body }),
      invalidatesTags: (_result, error, body) => (error ? [] : [servicesTag(body.idSubscriptionDetail)]),
    }),
    updatePlanService: build.mutation<PlanServiceWritten, { id: number; body: PlanServiceBody }>({
      query: ({ id, body }) => ({ url: `subscription-service/${id}`, method: 'PUT', body }),
      invalidatesTags: (_result, error, { body }) => (error ? [] : [servicesTag(body.idSubscriptionDetail)]),
    }),
    deletePlanService: build.mutation<unknown, { id: number; planId: number }>({
      query: ({ id }) => ({ url: `subscription-service/${id}`, method: 'DELETE' }),
      invalidatesTags: (_result, error, { planId }) => (error ? [] : [servicesTag(planId)]),
    }),
    getPlanClients: build.query<PlanClientPage, PlanClientFilter>({
      query: planClientsUrl,
      providesTags: [{ type: 'Client', id: 'LIST' }],
    }),
    // Their failures have their own messages (spec 02 §8), shown by the screen: one toast
    // per failure, the server's message when it gives one (see linkFailureMessage).
    createCheckoutToken: build.mutation<CheckoutToken, CheckoutLinkBody>({
      query: (body) => ({ url: 'checkout/create-user-token', method: 'POST', body }),
      extraOptions: QUIET,
    }),
    sendCheckoutEmail: build.mutation<unknown, CheckoutLinkBody>({
      query: (body) => ({ url: 'checkout/send-user-token-email', method: 'POST', body }),
      extraOptions: QUIET,
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
