import { fetchBaseQuery, type BaseQueryApi, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import { api, API_BASE_PATH, POSITION_HEADER, REQUEST_TIMEOUT_MS } from '@/api/api';
import { positionReceived } from '@/api/positionSlice';
import { signedOut, type SessionState } from '@/state/sessionSlice';
import type {
  Page,
  PlanOption,
  SubscriberFilter,
  SubscriberListItem,
  SubscriptionDetail,
  TimelineEntry,
} from './types';

const LIST = 'LIST';

/** Query string of a call, leaving out empty parameters. */
function queryString(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined || value === '') continue;
    search.set(key, String(value));
  }
  return search.toString();
}

export const subscriberFilterUrl = ({ page, pageSize, description, idSubscriptionDetail, internalStatus }: SubscriberFilter) =>
  `subscription-user?${queryString({
    page,
    pageSize,
    internalStatus,
    idSubscriptionDetail,
    description: description.trim(),
  })}`;

export const subscriberAsOfUrl = (id: number, asOf: string) => `subscription-user/${id}?${queryString({ asOf })}`;

const rawQuietQuery = fetchBaseQuery({
  baseUrl: new URL(API_BASE_PATH, window.location.origin).href,
  timeout: REQUEST_TIMEOUT_MS,
  prepareHeaders: (headers, { getState }) => {
    const { token } = (getState() as { session: SessionState }).session;
    headers.set('Authorization', token ? `Bearer ${token}` : '');
    return headers;
  },
});

/**
 * The app's base query toasts every failure. Two calls here handle their own failures:
 * the charge reminder is best effort (fire and forget) and a past view answers 404 for an
 * instant before the subscription existed, which the screen explains in place. This one
 * keeps the position bookkeeping and the silent sign-out on 401, and toasts nothing.
 */
async function quietQuery(args: string | FetchArgs, queryApi: BaseQueryApi) {
  const result = await rawQuietQuery(args, queryApi, {});
  const answered = result.meta?.response?.headers.get(POSITION_HEADER);
  if (answered) queryApi.dispatch(positionReceived(answered));
  if (result.error?.status === 401) queryApi.dispatch(signedOut());
  return result;
}

export const subscribersApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSubscribers: build.query<Page<SubscriberListItem>, SubscriberFilter>({
      query: subscriberFilterUrl,
      providesTags: (result) => [
        { type: 'SubscriptionUser', id: LIST },
        ...(result?.content ?? []).map((row) => ({ type: 'SubscriptionUser' as const, id: row.IdSubscriptionUser })),
      ],
    }),
    /** Every plan, for the plan filter ('Todos' plus these). */
    getSubscriberPlanOptions: build.query<PlanOption[], void>({
      query: () => 'subscription-details/all',
      providesTags: [{ type: 'SubscriptionDetail', id: LIST }],
    }),
    getSubscriber: build.query<SubscriptionDetail, number>({
      query: (id) => `subscription-user/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'SubscriptionUser', id }],
    }),
    /** The subscription as it stood at an instant: the past does not change, so no tags. */
    getSubscriberAsOf: build.query<SubscriptionDetail, { id: number; asOf: string }>({
      queryFn: async ({ id, asOf }, queryApi) => {
        const result = await quietQuery(subscriberAsOfUrl(id, asOf), queryApi);
        return result.error
          ? { error: result.error as FetchBaseQueryError }
          : { data: result.data as SubscriptionDetail };
      },
    }),
    getSubscriberTimeline: build.query<TimelineEntry[], number>({
      query: (id) => `subscription-user/${id}/timeline`,
      providesTags: (_result, _error, id) => [{ type: 'SubscriptionUser', id }],
    }),
    cancelSubscriber: build.mutation<unknown, number>({
      query: (id) => ({ url: `subscription-user/${id}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, id) => [
        { type: 'SubscriptionUser', id },
        { type: 'SubscriptionUser', id: LIST },
      ],
    }),
    /** A GET that writes (ADR 0008): reads the provider now and records what is new. */
    updateSubscriberData: build.mutation<{ IdSubscriptionUser: number; Changed: boolean }, number>({
      query: (id) => ({ url: `subscription-user/${id}/updateData`, method: 'GET' }),
      invalidatesTags: (_result, _error, id) => [
        { type: 'SubscriptionUser', id },
        { type: 'SubscriptionUser', id: LIST },
      ],
    }),
    /** Records a WhatsApp charge reminder in the history; never fails in the user's face. */
    sendSubscriberReminder: build.mutation<{ recorded: boolean }, number>({
      queryFn: async (id, queryApi) => {
        const result = await quietQuery({ url: `subscription-user/${id}/reminder`, method: 'POST' }, queryApi);
        return { data: { recorded: !result.error } };
      },
      invalidatesTags: (result, _error, id) => (result?.recorded ? [{ type: 'SubscriptionUser', id }] : []),
    }),
  }),
});

export const {
  useGetSubscribersQuery,
  useGetSubscriberPlanOptionsQuery,
  useGetSubscriberQuery,
  useGetSubscriberAsOfQuery,
  useGetSubscriberTimelineQuery,
  useCancelSubscriberMutation,
  useUpdateSubscriberDataMutation,
  useSendSubscriberReminderMutation,
} = subscribersApi;
