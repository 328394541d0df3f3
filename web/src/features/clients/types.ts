// Wire shapes of the clients' calls (answers PascalCase, bodies camelCase; spec 02 §3, §7).

import type { Schemas } from '@/api/wire';

export type ClientSubscription = Schemas['SubscriptionSummary'];

/** A row of GET user/filter. */
export type ClientListItem = Schemas['ClientItem'];

/** A page of GET user/filter. */
export type ClientPage = Schemas['Page_ClientItem'];

/** GET user/{id}. */
export type ClientDetail = Schemas['ClientDetail'];

export interface ClientFilter {
  page: number;
  pageSize: number;
  search: string;
  /** '' all, '1' active, '2' inactive, '0' pending. */
  status: string;
}

/** Body of POST user/professional and PUT user/{id} (when editing, cpf null unless the record has none yet). */
export type ClientPayload = Schemas['ClientForm'];

/** Body of POST user/quick: the desk's new client, completed later in the client form (issue 45). */
export type QuickClientPayload = Schemas['QuickClientForm'];

/** The answer of POST user/professional, POST user/quick and PUT user/{id}. */
export type ClientWritten = Schemas['IdUser'];

/** The login type of a client who signs in with e-mail and password only. */
export const LOGIN_PASSWORD = 'PASSWORD';

/** One of the client's appointments on the client form (GET user/{id}/visits, issue 17). */
export type ClientVisit = Schemas['Visit'];

/** GET user/{id}/visits: the client's visits, spending and subscriptions. */
export type ClientVisits = Schemas['Visits'];

/** The answer of PUT user/{id}/confirm. */
export type ClientConfirmed = Schemas['ClientConfirmed'];

/** The answer of PUT user/remove-all-login-social. */
export type SocialLoginsRemoved = Schemas['SocialLoginsRemoved'];
