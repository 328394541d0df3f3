// Wire shapes of the plans' calls (answers PascalCase, bodies camelCase; spec 02 §3, §7,
// docs/club.md).

import type { Schemas } from '@/api/wire';

/** One accepted payment method and its price: the plan's main method first. */
export type PlanPrice = Schemas['Price'];

/** A row of GET subscription-details. */
export type PlanListItem = Schemas['PlanItem'];

/** A page of GET subscription-details. */
export type PlanPage = Schemas['Page_PlanItem'];

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
export type PlanDetail = Schemas['PlanAnswer'];

/** The answer of POST subscription-details and PUT subscription-details/{id}. */
export type PlanWritten = Schemas['IdSubscriptionDetail'];

/** GET partner-company. */
export type PartnerCompany = Schemas['PartnerCompany'];

/** GET subscription-service/services/{planId}. */
export type PlanService = Schemas['PlanService'];

/** GET service/active. */
export type CatalogueService = Schemas['CatalogueItem'];

/**
 * Body of POST subscription-service/ and PUT subscription-service/{id}; the screens always
 * name the plan (its services' cache entry is the plan's).
 */
export type PlanServiceBody = Schemas['PlanServiceForm'] & { idSubscriptionDetail: number };

/** The answer of POST subscription-service/ and PUT subscription-service/{id}. */
export type PlanServiceWritten = Schemas['IdSubscriptionService'];

/** A row of GET user/filter (the send-link search). */
export type PlanClient = Schemas['ClientItem'];

/** A page of GET user/filter (the send-link search). */
export type PlanClientPage = Schemas['Page_ClientItem'];

export interface PlanClientFilter {
  page: number;
  pageSize: number;
  search: string;
}

/** Body of POST checkout/create-user-token and checkout/send-user-token-email. */
export type CheckoutLinkBody = Schemas['LinkRequest'];

/** POST checkout/create-user-token: the token and <public url>/checkout?token=<token>. */
export type CheckoutToken = Schemas['CheckoutLink'];
