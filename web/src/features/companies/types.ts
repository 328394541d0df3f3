// Wire shapes of the unit screens (answers PascalCase, bodies camelCase; query-api/src/companies.rs).

/** A row of GET company/filter. */
export interface CompanyListItem {
  IdCompany: number;
  Name: string;
  Phone: string;
  Cnpj: string;
  Status: boolean;
}

export interface CompanyFilter {
  page: number;
  pageSize: number;
  search: string;
  /** '' all, '1' active, '2' inactive, '0' pending. */
  status: string;
}

/** GET company/{id}. */
export interface CompanyDetail {
  IdCompany: number;
  Name: string;
  Cnpj: string;
  Email: string;
  Phone: string;
  WhatsApp: boolean;
  Status: boolean;
  Facebook: string;
  Instagram: string;
  Observation: string | null;
  ZipCode: string;
  Street: string;
  Number: string;
  District: string;
  City: string;
  State: string;
  Complement: string | null;
  /** Online booking: until how many hours before the start a client may cancel or move. */
  OnlineCancelCutoffHours: number;
  /** Online booking: how many future bookings one client may hold in the unit. */
  OnlineMaxFutureBookings: number;
  /** Issue 39: the share of a day's working minutes newcomers' online bookings may hold. */
  OnlineNewcomerSharePercent?: number;
  /** The unit's IANA zone, and whether it is the one its state and city give (issue 39). */
  TimeZone?: string;
  TimeZoneFromAddress?: boolean;
}

/** Body of POST company and PUT company/{id}. */
export interface CompanyBody {
  name: string;
  cnpj: string;
  email: string;
  phone: string;
  zipCode: string;
  whatsApp: boolean;
  district: string;
  state: string;
  status: boolean;
  facebook: string;
  instagram: string;
  observation: string;
  street: string;
  number: string;
  city: string;
  complement: string;
  /** 0 to 72; left out keeps the unit's value (2 on create). */
  onlineCancelCutoffHours?: number;
  /** 1 to 10; left out keeps the unit's value (2 on create). */
  onlineMaxFutureBookings?: number;
  onlineNewcomerSharePercent?: number;
  /** '' or absent: the zone of the state and city. */
  timeZone?: string;
}

/** One weekday of GET company-working-hours/{id}; a closed day has null times. */
export interface CompanyDay {
  WeekDay: number;
  Start: string | null;
  End: string | null;
}

/** Body of PUT company-working-hours/{id}/day; empty start and end close the day. */
export interface CompanyDayBody {
  weekDay: number;
  start: string | null;
  end: string | null;
}

/** An image of GET gallery-company/{idCompany}. */
export interface GalleryImageDto {
  IdGalleryCompany: number;
  Sequence: number;
  Url: string;
}
