// Wire shapes of the subscribers' calls (answers PascalCase; spec 02 §3, §7; docs/club.md).

import type { PersonDto, UserRowDto } from '@/api/types';

/** A row of GET subscription-user. */
export interface SubscriberListItem {
  IdSubscriptionUser: number;
  IdSubscriptionDetail: number;
  PlanName: string;
  PlanValue: number;
  InternalStatus: string;
  Status: string | null;
  CreatedAt: string;
  User: Pick<UserRowDto, 'IdUser' | 'Name' | 'Phone'>;
}

export interface SubscriberFilter {
  page: number;
  pageSize: number;
  description: string;
  /** 0 = every plan ('Todos'). */
  idSubscriptionDetail: number;
  /** '' = every status. */
  internalStatus: string;
}

/** An item of GET subscription-details/all (only what the plan filter needs). */
export interface PlanOption {
  IdSubscriptionDetail: number;
  PlanName: string;
}

export interface Transaction {
  IdSubscriptionUserTransaction: number;
  Installment: number;
  GalaxPayId: number | null;
  Value: number;
  Payday: string | null;
  PaydayDate: string | null;
  Status: string;
  StatusDescription: string | null;
  CardNumber: string | null;
  CardBrand: string | null;
  CardExpiresAt: string | null;
  BoletoPdf: string | null;
  PixLink: string | null;
  CreatedAt: string | null;
  UpdatedAt: string | null;
}

/** GET subscription-user/{id} (and with ?asOf, plus AsOf). */
export interface SubscriptionDetail {
  IdSubscriptionUser: number;
  GalaxPayId: number | null;
  IdSubscriptionDetail: number;
  PlanName: string;
  PlanValue: number;
  ValidityStart: string | null;
  ValidityEnd: string | null;
  InternalStatus: string;
  Status: string | null;
  StatusDescription: string | null;
  MyId: string;
  FirstPayDayDate: string | null;
  CreatedAt: string | null;
  Quantity: number | null;
  Periodicity: string | null;
  MainPaymentMethodId: string | null;
  CancellationRequested: boolean;
  AmountReceived: number;
  AmountToReceive: number;
  User: UserRowDto & Pick<PersonDto, 'BirthDate'>;
  Transactions: Transaction[];
  /** Only in a past view: the instant the answer was replayed to. */
  AsOf?: string;
}

export interface TimelineChange {
  Field: string;
  From: unknown;
  To: unknown;
}

/** A charge's move in a timeline entry; From null = the charge was created. */
export interface TimelineCharge {
  GalaxPayId: number | null;
  Installment: number | null;
  Value?: number | null;
  From: string | null;
  To: string | null;
}

/** An entry of GET subscription-user/{id}/timeline. */
export interface TimelineEntry {
  Sequence: number;
  At: string;
  /** SubscriptionCreated, ProviderReported, CancellationRequested, ReminderSent, ... */
  Event: string;
  /** webhook, reconciliation, checkout, cancellation, staff. */
  Reason: string;
  Source: Record<string, unknown> | null;
  UserName: string | null;
  Changes: TimelineChange[];
  /** Structured charge moves; older servers only put them in Changes. */
  Charges?: TimelineCharge[] | null;
  InternalStatus: string;
  Status: string | null;
  AmountReceived: number;
  AmountToReceive: number;
}
