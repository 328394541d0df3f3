// Wire shapes of the unit screens (answers PascalCase, bodies camelCase; query-api/src/companies.rs).

import type { Schemas } from '@/api/wire';

/** A row of GET company/filter. */
export type CompanyListItem = Schemas['CompanyItem'];

/** A page of GET company/filter. */
export type CompanyPage = Schemas['Page_CompanyItem'];

export interface CompanyFilter {
  page: number;
  pageSize: number;
  search: string;
  /** '' all, '1' active, '2' inactive, '0' pending. */
  status: string;
}

/**
 * GET company/{id} (issue 43: AllowNegativeStock, whether the unit sells more than it holds;
 * issue 44: RemindersBefore24h and RemindersBefore2h, its WhatsApp reminders, and
 * OnlineNoShowLimit, after how many 'Não compareceu' in 90 days a client may not book online).
 */
export type CompanyDetail = Schemas['CompanyDetail'];

/** Body of POST company and PUT company/{id}. */
export type CompanyBody = Schemas['CompanyForm'];

/** The answer of POST company and PUT company/{id}. */
export type CompanyWritten = Schemas['IdCompany'];

/** One weekday of GET company-working-hours/{id}; a closed day has no times. */
export type CompanyDay = Schemas['CompanyDay'];

/** Body of PUT company-working-hours/{id}/day; empty start and end close the day. */
export type CompanyDayBody = Schemas['CompanyDayForm'];

/** The answer of PUT company-working-hours/{id}/day. */
export type CompanyDaySaved = Schemas['CompanyDaySaved'];

/** An image of GET gallery-company/{idCompany}. */
export type GalleryImageDto = Schemas['GalleryItem'];

/** The answer of PUT gallery-company/{id}: how many images the unit now has. */
export type GallerySaved = Schemas['GallerySaved'];
