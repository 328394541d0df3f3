// Wire shapes of the holidays' calls (spec 02 §3, §7; allCompanies per docs/back-office.md).

export interface HolidayCompany {
  IdCompany: number;
  Name: string;
}

/** GET holiday/filter rows and GET holiday/{id}. */
export interface Holiday {
  IdHoliday: number;
  Description: string;
  /** 'YYYY-MM-DD'. */
  StartDate: string;
  EndDate: string;
  /** 'HH:MM', null when all-day. */
  StartTime: string | null;
  EndTime: string | null;
  AllDay: boolean;
  AllCompanies?: boolean;
  Companies: HolidayCompany[];
}

export interface HolidayFilter {
  page: number;
  pageSize: number;
  search: string;
}

/** Body of POST holiday and PUT holiday/{id}. */
export interface HolidayPayload {
  description: string;
  startDate: string;
  endDate: string;
  allDay: boolean;
  startTime: string | null;
  endTime: string | null;
  allCompanies: boolean;
  idsCompanies: number[];
}
