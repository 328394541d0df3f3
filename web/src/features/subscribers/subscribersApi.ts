import { api, QUIET } from '@/api/api';
import { queryString } from '@/api/queryString';
import type {
  PlanOption,
  SubscriberFilter,
  SubscriberPage,
  SubscriberRefreshed,
  SubscriberWritten,
  SubscriptionDetail,
  TimelineEntry,
} from './types';

const LIST = 'LIST';

export const subscriberFilterUrl = ({ page, pageSize, description, idSubscriptionDetail, internalStatus }: SubscriberFilter) =>
  `subscription-user?${queryString({
    page,
    pageSize,
    internalStatus,
    idSubscriptionDetail,
    description: description.trim(),
  })}`;

export const subscriberAsOfUrl = (id: number, asOf: string) => `subscription-user/${id}?${queryString({ asOf })}`;

export const subscribersApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSubscribers: build.query<SubscriberPage, SubscriberFilter>({
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
    // A 404 means the subscription did not exist yet; the screen says so in place.
    getSubscriberAsOf: build.query<SubscriptionDetail, { id: number; asOf: string }>({
      query: ({ id, asOf }) => subscriberAsOfUrl(id, asOf),
      extraOptions: QUIET,
    }),
    getSubscriberTimeline: build.query<TimelineEntry[], number>({
      query: (id) => `subscription-user/${id}/timeline`,
      providesTags: (_result, _error, id) => [{ type: 'SubscriptionUser', id }],
    }),
    cancelSubscriber: build.mutation<SubscriberWritten, number>({
      query: (id) => ({ url: `subscription-user/${id}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, id) => [
        { type: 'SubscriptionUser', id },
        { type: 'SubscriptionUser', id: LIST },
      ],
    }),
    /** A GET that writes (ADR 0008): reads the provider now and records what is new. */
    updateSubscriberData: build.mutation<SubscriberRefreshed, number>({
      query: (id) => ({ url: `subscription-user/${id}/updateData`, method: 'GET' }),
      invalidatesTags: (_result, _error, id) => [
        { type: 'SubscriptionUser', id },
        { type: 'SubscriptionUser', id: LIST },
      ],
    }),
    /** Records a WhatsApp charge reminder in the history; never fails in the user's face. */
    sendSubscriberReminder: build.mutation<SubscriberWritten, number>({
      query: (id) => ({ url: `subscription-user/${id}/reminder`, method: 'POST' }),
      extraOptions: QUIET,
      invalidatesTags: (_result, error, id) => (error ? [] : [{ type: 'SubscriptionUser', id }]),
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
