import { api } from '@/api/api';
import type { Schemas } from '@/api/wire';

/** A method the plan accepts and its price. */
export type CheckoutPrice = Schemas['Price'];

/** creditcard, boleto or pix. */
export type PaymentMethod = CheckoutPrice['PaymentMethod'];

/**
 * The plan and client a checkout link is for (`POST checkout/summary`): Prices are the
 * accepted methods, the main one (PaymentMethod, Value) first; no CardTokenizer (the
 * provider's browser tokenizer): card payment cannot be offered now.
 */
export type CheckoutSummary = Schemas['CheckoutSummary'];

/** Body of POST checkout/subscribe: of a card, only the provider's hash (the card never reaches Navalha). */
export type SubscribeRequest = Schemas['SubscribeRequest'];

/** The answer of POST checkout/subscribe: the subscription and its first charge's boleto or Pix. */
export type SubscribeResponse = Schemas['Subscribed'];

// Public calls: the token in the body is the only credential.
export const checkoutApi = api.injectEndpoints({
  endpoints: (build) => ({
    checkoutSummary: build.query<CheckoutSummary, string>({
      query: (token) => ({ url: 'checkout/summary', method: 'POST', body: { token } }),
    }),
    subscribe: build.mutation<SubscribeResponse, SubscribeRequest>({
      query: (body) => ({ url: 'checkout/subscribe', method: 'POST', body }),
    }),
  }),
});

export const { useCheckoutSummaryQuery, useSubscribeMutation } = checkoutApi;
