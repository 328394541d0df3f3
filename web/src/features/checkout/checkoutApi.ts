import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { api, QUIET } from '@/api/api';
import { GENERIC_ERROR_MESSAGE, serverMessage, TIMEOUT_MESSAGE } from '@/api/errors';
import type { Schemas } from '@/api/wire';

/** A method the plan accepts and its price. */
export type CheckoutPrice = Schemas['Price'];

/** creditcard, boleto or pix. */
export type PaymentMethod = CheckoutPrice['PaymentMethod'];

/**
 * The plan and client a checkout link is for (`POST checkout/summary`): Prices are the
 * accepted methods, the main one (PaymentMethod, Value) first; no CardTokenizer (the
 * provider's browser tokenizer): card payment cannot be offered now. BusinessName is the
 * shop selling the plan, Services what it includes, FirstDueDays when the first boleto is due.
 */
export type CheckoutSummary = Schemas['CheckoutSummary'];

/** A service the plan includes: its catalogue price, the discount (%) and the subscriber's price. */
export type CheckoutService = Schemas['CheckoutService'];

/** Body of POST checkout/subscribe: of a card, only the provider's hash (the card never reaches Navalha). */
export type SubscribeRequest = Schemas['SubscribeRequest'];

/**
 * The answer of POST checkout/subscribe: the subscription and its first charge (Value,
 * DueDate, and for a boleto its PDF and linha digitável).
 */
export type SubscribeResponse = Schemas['Subscribed'];

// Public calls: the token in the body is the only credential. Their failures are told on the
// page itself (QUIET: no toast), so a refused card is said once, by the card fields.
export const checkoutApi = api.injectEndpoints({
  endpoints: (build) => ({
    checkoutSummary: build.query<CheckoutSummary, string>({
      query: (token) => ({ url: 'checkout/summary', method: 'POST', body: { token } }),
      extraOptions: QUIET,
    }),
    subscribe: build.mutation<SubscribeResponse, SubscribeRequest>({
      query: (body) => ({ url: 'checkout/subscribe', method: 'POST', body }),
      extraOptions: QUIET,
    }),
  }),
});

export const { useCheckoutSummaryQuery, useSubscribeMutation } = checkoutApi;

const httpStatusOf = (failure: unknown): number | null => {
  if (!failure || typeof failure !== 'object' || !('status' in failure)) return null;
  const status = (failure as { status: unknown }).status;
  return typeof status === 'number' ? status : null;
};

/** The server refused the link itself (unknown, expired, used): asking again will not help. */
export function linkRefused(failure: unknown): boolean {
  const status = httpStatusOf(failure);
  return status !== null && status >= 400 && status < 500;
}

/** What the page says about a failed call: the server's message, or the error catalogue's. */
export function failureMessage(failure: unknown): string {
  if (!failure || typeof failure !== 'object' || !('status' in failure)) return GENERIC_ERROR_MESSAGE;
  const error = failure as FetchBaseQueryError;
  if (error.status === 'TIMEOUT_ERROR' || error.status === 'FETCH_ERROR') return TIMEOUT_MESSAGE;
  return serverMessage(error) ?? GENERIC_ERROR_MESSAGE;
}
