// Wire shapes of the agenda's calls (spec 01 §3, §7). Answers are PascalCase except
// available-times, which is camelCase.

import type { UserRowDto } from '@/api/types';
import type { DayOffItem } from '@/features/professionals/types';

export type TimesType = 'ONLY_AVAILABLES' | 'ALL_TIMES';

/** Booking status filter: 0 all, 1 confirmed (booked), 2 cancelled (spec 01 §4). */
export type StatusFilter = 0 | 1 | 2;

export const STATUS_OPTIONS: { value: StatusFilter; label: string }[] = [
  { value: 0, label: 'Todos' },
  { value: 1, label: 'Confirmado' },
  { value: 2, label: 'Cancelado' },
];

export interface UnitProfessional {
  IdProfessional: number;
  Name: string;
  Status: number;
  BirthDate: string | null;
  Phone: string;
  IdCompanyProfessional: number;
  Color: string;
}

export interface UnitService {
  IdService: number;
  Description: string;
  /** Minutes. */
  MaxTime: number;
  /** Reais. */
  MaxValue: number;
}

export interface SubscriptionRef {
  IdSubscriptionUser: number;
}

/** An appointment of the day list. */
export interface DayItem {
  IdScheduling: number;
  IdProfessional: number;
  IdCompanyProfessional: number;
  IdUser: number;
  UserName: string;
  UserPhone: string;
  UserWhatsApp: boolean;
  Date: string;
  /** 'HH:MM:SS'. */
  StartTime: string;
  EndTime: string;
  Services: string[];
  Observation: string;
  /** true booked, false cancelled. */
  Status: boolean;
  /** The client confirmed it ('Confirmar'). */
  Confirmation: boolean;
  TimesType: TimesType | string;
  ProfessionalColor: string;
  ProfessionalName: string;
  SubscriptionUser: SubscriptionRef[];
  /** Booked by the client on the public page (issue 18). */
  Online?: boolean;
}

/** A day off that covers a day shown: the timeline greys it out (issue 14). */
export type BlockedTime = DayOffItem & { IdProfessional: number };

export interface DayQuery {
  idCompany: number;
  date: string;
  idProfessional?: number | null;
  idUser?: number | null;
  status: StatusFilter;
  /** ADMIN's past view: the day as it stood at this instant, 'YYYY-MM-DDTHH:MM:SS' on the unit's clock. */
  asOf?: string | null;
}

/** An appointment as the edit form reads it. */
export interface SchedulingDetail {
  IdScheduling: number;
  IdCompanyProfessional: number;
  CompanyProfessional: {
    IdCompanyProfessional: number;
    Professional: { IdProfessional: number; Name: string; Color: string };
    Company: { IdCompany: number };
  };
  Date: string;
  StartTime: string;
  EndTime: string;
  SchedulingServices: { IdService: number; Description: string; Time: number; Value: number }[];
  IdUser: number;
  UserName: string;
  UserPhone: string;
  UserWhatsApp: boolean;
  Observation: string;
  Status: boolean;
  Confirmation: boolean;
  TimesType: TimesType | string;
}

export interface FreeProfessional {
  idProfessional: number;
  idCompanyProfessional: number;
  name: string;
  color: string;
}

export interface FreeHour {
  /** 'HH:MM'. */
  start: string;
  end: string;
  idProfessional: number;
}

export interface FreeDay {
  shortDate: string;
  freeHours: FreeHour[];
}

export interface AvailableTimes {
  professionals: FreeProfessional[];
  times: FreeDay[];
}

export interface AvailableTimesQuery {
  idCompany: number;
  idServices: number[];
  /** Omitted by the mobile flow. */
  timesType?: TimesType;
  idProfessionals?: number[];
  idSchedulingEdit?: number | null;
}

export interface ClientItem extends UserRowDto {
  Status?: boolean;
  SubscriptionUser?: SubscriptionRef[];
}

export interface ClientQuery {
  page: number;
  pageSize: number;
  search: string;
  status: number;
}

/** The appointment write payload (spec 01 §3). */
export interface SchedulingPayload {
  idCompanyProfessional: number;
  date: string;
  startTime: string;
  endTime: string;
  idServices: number[];
  idUser: number;
  observation: string;
  /** The mobile flow omits it. */
  timesType?: TimesType;
}
