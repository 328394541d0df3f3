// Wire shapes of the subscribers' calls (answers PascalCase; spec 02 §3, §7; docs/club.md).

import type { Schemas } from '@/api/wire';

/** A row of GET subscription-user. */
export type SubscriberListItem = Schemas['SubscriberItem'];

/** A page of GET subscription-user. */
export type SubscriberPage = Schemas['Page_SubscriberItem'];

export interface SubscriberFilter {
  page: number;
  pageSize: number;
  description: string;
  /** 0 = every plan ('Todos'). */
  idSubscriptionDetail: number;
  /** '' = every status. */
  internalStatus: string;
}

/** An item of GET subscription-details/all (the plan filter). */
export type PlanOption = Schemas['PlanChoice'];

/** A charge of GET subscription-user/{id}. */
export type Transaction = Schemas['TransactionAnswer'];

/** GET subscription-user/{id} (and with ?asOf, plus AsOf). */
export type SubscriptionDetail = Schemas['SubscriptionAnswer'];

/** A field a timeline entry changed. */
export type TimelineChange = Schemas['Change'];

/** A charge's move in a timeline entry; From null = the charge was created. */
export type TimelineCharge = Schemas['ChargeChange'];

/** An entry of GET subscription-user/{id}/timeline. */
export type TimelineEntry = Schemas['TimelineEntry'];

/** The answer of DELETE subscription-user/{id} and POST subscription-user/{id}/reminder. */
export type SubscriberWritten = Schemas['IdSubscriptionUser'];

/** The answer of GET subscription-user/{id}/updateData: whether the provider reported something new. */
export type SubscriberRefreshed = Schemas['Refreshed'];
