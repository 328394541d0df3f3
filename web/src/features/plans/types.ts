// Wire shapes of the plans' calls (answers PascalCase, bodies camelCase; spec 02 §3, §7,
// docs/club.md).

import type { UserRowDto } from '@/api/types';

/** One accepted payment method and its price: the plan's main method first. */
export interface PlanPrice {
  PaymentMethod: string;
  Value: number;
}

/** A row of GET subscription-details. */
export interface PlanListItem {
  IdSubscriptionDetail: number;
  PlanName: string;
  Description: string;
  Value: number;
  /** 1 active, 0 inactive. */
  Status: number;
  PaymentMethod: string;
  /** Every accepted method with its price, the main one (PaymentMethod, Value) first. */
  Prices: PlanPrice[];
  /** How many subscriptions the plan has. */
  Subscribers: number;
}

export interface PlanFilter {
  page: number;
  pageSize: number;
  description: string;
  /** '' all, '1' active, '0' inactive. */
  status: string;
  /** '' all, 'creditcard', 'boleto'. */
  paymentMethod: string;
}

/** GET subscription-details/{id}. */
export interface PlanDetail {
  IdSubscriptionDetail: number;
  PlanName: string;
  Description: string;
  Value: number;
  Status: number;
  Discount: number;
  UrlImage: string | null;
  AdvertisingStart: string | null;
  AdvertisingEnd: string | null;
  ValidityStart: string;
  ValidityEnd: string;
  AllCompanies: boolean;
  Periodicity: string;
  Quantity: number;
  InfiniteCharge?: boolean;
  /** Present once the payment provider knows the plan. */
  GalaxPayId: number | null;
  PaymentMethod: string;
  /** Every accepted method with its price, the main one (PaymentMethod, Value) first. */
  Prices: PlanPrice[];
  ItemsDetail: string | null;
  companiesList: { Company: { IdCompany: number; Name: string } }[];
  partnerCompanyList: { PartnerCompany: { IdPartnerCompany: number; Name: string } }[];
}

/** GET partner-company. */
export interface PartnerCompany {
  IdPartnerCompany: number;
  Name: string;
}

/** GET subscription-service/services/{planId}. */
export interface PlanService {
  IdSubscriptionService: number;
  IdService: number;
  Description: string;
  /** The catalogue's price when the service was added. */
  OriginalValue: number;
  /** Percent. */
  Discount: number;
  /** OriginalValue less the discount. */
  Value: number;
}

/** GET service/active. */
export interface CatalogueService {
  IdService: number;
  Description: string;
  ValueDefault: number;
  TimeDefault: number;
}

/** Body of POST subscription-service/ and PUT subscription-service/{id}. */
export interface PlanServiceBody {
  idService: number;
  idSubscriptionDetail: number;
  discount: number;
}

/** A row of GET user/filter (the send-link search). */
export interface PlanClient extends UserRowDto {
  Status: boolean;
}

export interface PlanClientFilter {
  page: number;
  pageSize: number;
  search: string;
}

/** Body of POST checkout/create-user-token and checkout/send-user-token-email. */
export interface CheckoutLinkBody {
  userId: number;
  planId: number;
}

/** POST checkout/create-user-token. */
export interface CheckoutToken {
  Token: string;
  /** <public url>/checkout?token=<token> */
  Link: string;
}
