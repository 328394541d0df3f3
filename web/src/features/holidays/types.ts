// Wire shapes of the holidays' calls (spec 02 §3, §7; allCompanies per docs/back-office.md).

import type { Schemas } from '@/api/wire';

/** A unit of a holiday's `Companies`. */
export type HolidayCompany = Schemas['HolidayCompany'];

/** GET holiday/{id}, and a row of GET holiday/filter. */
export type Holiday = Schemas['HolidayItem'];

/** A page of GET holiday/filter. */
export type HolidayPage = Schemas['Page_HolidayItem'];

export interface HolidayFilter {
  page: number;
  pageSize: number;
  search: string;
}

/** Body of POST holiday and PUT holiday/{id}. */
export type HolidayPayload = Schemas['HolidayForm'];

/** The answer of POST holiday and PUT holiday/{id}. */
export type HolidayWritten = Schemas['IdHoliday'];
