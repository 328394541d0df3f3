import { fetchBaseQuery, type BaseQueryApi, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import { API_BASE_PATH, POSITION_HEADER, QUIET, REQUEST_TIMEOUT_MS, api } from '@/api/api';
import { positionReceived } from '@/api/positionSlice';
import { GENERIC_ERROR_MESSAGE, TIMEOUT_MESSAGE, serverMessage } from '@/api/errors';
import type { AvailableTimes } from '@/features/agenda';
import type {
  BookingRequest,
  CodeAnswer,
  CodeRequest,
  CreatedBooking,
  OnlineBooking,
  OnlineUnit,
  SlotChoice,
  VerifyAnswer,
} from './types';

// Public calls of the online booking page (docs/online-booking.md). Their failures have
// their own messages on the page (QUIET: no toast).

/**
 * The booking call's own fetcher: the shared base query writes the staff session's token
 * into Authorization (and signs the staff user out on a 401); the booking token must go
 * there instead, and an expired one must not touch the staff session.
 */
const bookingFetch = fetchBaseQuery({
  baseUrl: new URL(API_BASE_PATH, window.location.origin).href,
  timeout: REQUEST_TIMEOUT_MS,
});

export interface BookArgs {
  idCompany: number;
  /** The token of POST verify: lives in the page, never in the session state. */
  token: string;
  /** One per booking attempt: a retry of the same attempt books once. */
  idempotencyKey: string;
  booking: BookingRequest;
}

export interface FreeTimesArgs {
  idCompany: number;
  /** Sorted, so one choice is one cache entry. */
  idServices: number[];
  /** null: 'Sem preferência'. */
  idProfessional: number | null;
  /**
   * The manage link's token, when moving a booking: sent as X-Booking-Token, the server then
   * counts the booking's own time as free.
   */
  bookingToken?: string;
}

/** The header that makes the free times count a booking's own time as free (its link's token). */
export const BOOKING_TOKEN_HEADER = 'X-Booking-Token';

const BOOKING = 'OnlineBooking';

/** The address of a booking's manage link calls. */
const manageUrlOf = (token: string) => `no-auth/online-booking/booking/${encodeURIComponent(token)}`;

export const onlineBookingApi = api.enhanceEndpoints({ addTagTypes: [BOOKING] }).injectEndpoints({
  endpoints: (build) => ({
    getOnlineUnit: build.query<OnlineUnit, number>({
      query: (idCompany) => `no-auth/online-booking/${idCompany}`,
      extraOptions: QUIET,
    }),
    /**
     * The existing public free-times call (the staff's read model); 'Sem preferência' leaves
     * out idProfessionals.
     */
    getOnlineFreeTimes: build.query<AvailableTimes, FreeTimesArgs>({
      query: ({ idCompany, idServices, idProfessional, bookingToken }) => {
        const params = new URLSearchParams({ idCompany: String(idCompany), idServices: `[${idServices.join(',')}]` });
        if (idProfessional !== null) params.set('idProfessionals', `[${idProfessional}]`);
        const url = `no-auth/scheduling/available-times?${params.toString()}`;
        // In a header, not the address: the token stays out of the request logs.
        return bookingToken ? { url, headers: { [BOOKING_TOKEN_HEADER]: bookingToken } } : url;
      },
      providesTags: [{ type: 'AvailableTime', id: 'LIST' }],
      keepUnusedDataFor: 10,
      extraOptions: QUIET,
    }),
    requestBookingCode: build.mutation<CodeAnswer, { idCompany: number; body: CodeRequest }>({
      query: ({ idCompany, body }) => ({ url: `no-auth/online-booking/${idCompany}/code`, method: 'POST', body }),
      extraOptions: QUIET,
    }),
    verifyBookingCode: build.mutation<VerifyAnswer, { idCompany: number; requestId: string; code: string }>({
      query: ({ idCompany, requestId, code }) => ({
        url: `no-auth/online-booking/${idCompany}/verify`,
        method: 'POST',
        body: { requestId, code },
      }),
      extraOptions: QUIET,
    }),
    bookOnline: build.mutation<CreatedBooking, BookArgs>({
      async queryFn({ idCompany, token, idempotencyKey, booking }, queryApi, extraOptions) {
        const result = await bookingFetch(
          {
            url: `no-auth/online-booking/${idCompany}/scheduling`,
            method: 'POST',
            body: booking,
            headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': idempotencyKey },
          },
          queryApi,
          extraOptions,
        );
        // Read-your-writes, as the shared base query does: the manage page reads it next.
        const position = result.meta?.response?.headers.get(POSITION_HEADER);
        if (position) queryApi.dispatch(positionReceived(position));
        return result.error ? { error: result.error } : { data: result.data as CreatedBooking };
      },
      invalidatesTags: [{ type: 'AvailableTime', id: 'LIST' }],
    }),
    getOnlineBooking: build.query<OnlineBooking, string>({
      query: manageUrlOf,
      providesTags: (_result, _error, token) => [{ type: BOOKING, id: token }],
      extraOptions: QUIET,
    }),
    cancelOnlineBooking: build.mutation<OnlineBooking, string>({
      // The answer is the booking as it is now: it is in the cache before the mutation
      // resolves. The store tells subscribers once per frame (RTK's auto-batching), so the
      // page's badge follows "Agendamento cancelado." within a frame.
      async queryFn(token, queryApi, _extraOptions, baseQuery) {
        const result = await baseQuery({ url: `${manageUrlOf(token)}/cancel`, method: 'POST' });
        return showAnswer(result, token, queryApi.dispatch);
      },
      invalidatesTags: [{ type: 'AvailableTime', id: 'LIST' }],
      extraOptions: QUIET,
    }),
    rescheduleOnlineBooking: build.mutation<OnlineBooking, { token: string; slot: SlotChoice }>({
      async queryFn({ token, slot }, queryApi, _extraOptions, baseQuery) {
        const result = await baseQuery({
          url: manageUrlOf(token),
          method: 'PUT',
          body: { date: slot.date, startTime: slot.startTime, idProfessional: slot.idProfessional },
        });
        return showAnswer(result, token, queryApi.dispatch);
      },
      invalidatesTags: [{ type: 'AvailableTime', id: 'LIST' }],
      extraOptions: QUIET,
    }),
  }),
});

export const {
  useGetOnlineUnitQuery,
  useGetOnlineFreeTimesQuery,
  useRequestBookingCodeMutation,
  useVerifyBookingCodeMutation,
  useBookOnlineMutation,
  useGetOnlineBookingQuery,
  useCancelOnlineBookingMutation,
  useRescheduleOnlineBookingMutation,
} = onlineBookingApi;

/**
 * A manage call's answer is the booking as it is now: it replaces the one the page shows
 * before the call resolves, so the page's message and the booking never disagree.
 */
async function showAnswer(
  result: { data?: unknown; error?: FetchBaseQueryError },
  token: string,
  dispatch: BaseQueryApi['dispatch'],
): Promise<{ data: OnlineBooking } | { error: FetchBaseQueryError }> {
  if (result.error) return { error: result.error };
  const booking = result.data as OnlineBooking;
  await dispatch(onlineBookingApi.util.upsertQueryData('getOnlineBooking', token, booking));
  return { data: booking };
}

/** The HTTP status of a failed call (a number), or null for a network failure or none. */
export function statusOf(failure: unknown): number | null {
  if (!failure || typeof failure !== 'object' || !('status' in failure)) return null;
  const status = (failure as { status: unknown }).status;
  return typeof status === 'number' ? status : null;
}

/** What the page says about a failed call: the server's message, or `fallback`, or the catalogue's. */
export function problemOf(failure: unknown, fallback: string = GENERIC_ERROR_MESSAGE): string {
  if (!failure || typeof failure !== 'object' || !('status' in failure)) return fallback;
  const error = failure as FetchBaseQueryError;
  if (error.status === 'TIMEOUT_ERROR' || error.status === 'FETCH_ERROR') return TIMEOUT_MESSAGE;
  return serverMessage(error) ?? fallback;
}
