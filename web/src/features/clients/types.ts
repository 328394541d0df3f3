// Wire shapes of the clients' calls (answers PascalCase, bodies camelCase; spec 02 §3, §7).

import type { PersonBody, PersonDto, UserRowDto } from '@/api/types';

export interface ClientSubscription {
  IdSubscriptionUser: number;
  IdSubscriptionDetail?: number;
  PlanName?: string;
  InternalStatus?: string;
}

/** A row of GET user/filter. */
export interface ClientListItem extends UserRowDto {
  Status: boolean;
  /** Issue 39: made by the client on a unit's public page, not confirmed by staff yet. */
  Unconfirmed?: boolean;
  SubscriptionUser?: ClientSubscription[] | null;
}

/** GET user/{id}. */
export interface ClientDetail extends ClientListItem, Pick<PersonDto, 'WhatsApp' | 'BirthDate'> {
  LastAccess: string | null;
  LoginType: string | null;
  RecoveryCode: string | null;
}

export interface ClientFilter {
  page: number;
  pageSize: number;
  search: string;
  /** '' all, '1' active, '2' inactive, '0' pending. */
  status: string;
}

/** Body of POST user/professional and PUT user/{id} (cpf null when editing). */
export interface ClientPayload extends Omit<PersonBody, 'cpf'> {
  cpf: string | null;
  status: boolean;
}

/** The login type of a client who signs in with e-mail and password only. */
export const LOGIN_PASSWORD = 'PASSWORD';

/** One of the client's appointments on the client form (GET user/{id}/visits, issue 17). */
export interface ClientVisit {
  IdScheduling: number;
  Date: string;
  StartTime: string;
  EndTime: string;
  Services: string[];
  ProfessionalName: string;
  CompanyName: string;
  /** The services' prices as booked. */
  Value: number;
  /** true booked, false cancelled. */
  Status: boolean;
  Confirmation: boolean;
  /** Already started. */
  Past: boolean;
}

export interface ClientVisits {
  Visits: ClientVisit[];
  VisitsMade: number;
  TotalSpent: number;
  LastVisit: string | null;
  NextVisit: string | null;
  Cancellations: number;
  SubscriptionUser: ClientSubscription[];
}
