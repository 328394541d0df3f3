import { api } from '@/api/api';

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
}

export type PaymentMethod = 'creditcard' | 'boleto';

export interface CardInput {
  number: string;
  holder: string;
  expiresAt: string;
  cvv: string;
}

export interface SubscribeRequest {
  token: string;
  paymentMethod: PaymentMethod;
  card?: CardInput;
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
