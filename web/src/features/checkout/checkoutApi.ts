import { api } from '@/api/api';
import type { CardTokenizerConfig } from './cardTokenizer';

export type PaymentMethod = 'creditcard' | 'boleto';

/** A method the plan accepts and its price. */
export interface CheckoutPrice {
  PaymentMethod: PaymentMethod;
  Value: number;
}

/** The plan and client a checkout link is for (`POST checkout/summary`). */
export interface CheckoutSummary {
  IdSubscriptionDetail: number;
  PlanName: string;
  Description: string;
  Value: number;
  Periodicity: string;
  Quantity: number;
  PaymentMethod: PaymentMethod;
  ItemsDetail: string;
  UrlImage: string | null;
  User: { IdUser: number; Name: string | null; Email: string | null };
  /** The accepted methods, the main one (PaymentMethod, Value) first. */
  Prices: CheckoutPrice[];
  /** The provider's browser tokenizer; null: card payment cannot be offered now. */
  CardTokenizer: CardTokenizerConfig | null;
}

export interface SubscribeRequest {
  token: string;
  paymentMethod: PaymentMethod;
  /** Only the provider's hash of the card: the card itself never reaches Navalha. */
  card?: { hash: string };
}

export interface SubscribeResponse {
  IdSubscriptionUser: number;
  GalaxPayId: number;
  Status: string | null;
  BoletoPdf: string | null;
  PixLink: string | null;
}

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
