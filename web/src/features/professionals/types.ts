// Wire shapes of the professional and day-off calls (answers PascalCase, bodies camelCase).

import type { AddressBody, AddressDto, PersonBody, PersonDto } from '@/api/types';

/** Generic status of a professional (spec 02 §4): 0 pending, 1 active, 2 inactive. */
export type ProfessionalStatus = 0 | 1 | 2;

export interface ProfessionalItem extends Pick<PersonDto, 'Name' | 'Phone' | 'Email'> {
  IdProfessional: number;
  Status: ProfessionalStatus;
}

export interface ProfessionalQuery {
  page: number;
  pageSize: number;
  search: string;
  /** '' is every status. */
  status: string;
}

export interface ProfessionalDetail extends PersonDto, AddressDto {
  IdProfessional: number;
  Status: ProfessionalStatus;
  Color: string;
  IdTypeProfile: number;
  IdCompany: number | null;
  /** The first is the professional's own unit. */
  Companies: { IdCompany: number; IdCompanyProfessional: number; Name: string }[];
}

export interface ProfessionalPayload extends Omit<PersonBody, 'birthDate'>, AddressBody {
  birthDate: string;
  status: number;
  idCompany: number;
  /** The professional's other units, kept as they are (the form edits the own unit only). */
  idsCompanies: number[];
  color: string;
  idTypeProfile: number;
}

export interface TypeProfile {
  IdTypeProfile: number;
  Type: string;
  Description: string;
}

export interface DayOffItem {
  IdDayOff: number;
  Description: string;
  DateStart: string;
  DateEnd: string;
  AllDay: boolean;
  StartTime: string | null;
  EndTime: string | null;
}

export interface DayOffPayload {
  description: string;
  dateStart: string;
  dateEnd: string;
  allDay: boolean;
  startTime: string | null;
  endTime: string | null;
  idProfessional: number;
}
