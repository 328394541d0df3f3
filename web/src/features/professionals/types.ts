// Wire shapes of the professional and day-off calls (answers PascalCase, bodies camelCase).

import type { Schemas } from '@/api/wire';

/** Generic status of a professional (spec 02 §4): 0 pending, 1 active, 2 inactive. */
export type ProfessionalStatus = 0 | 1 | 2;

/** A row of GET professional/filter; Status is a ProfessionalStatus. */
export type ProfessionalItem = Schemas['ProfessionalItem'];

/** A page of GET professional/filter. */
export type ProfessionalPage = Schemas['Page_ProfessionalItem'];

export interface ProfessionalQuery {
  page: number;
  pageSize: number;
  search: string;
  /** '' is every status. */
  status: string;
}

/** GET professional/{id}; Status is a ProfessionalStatus. */
export type ProfessionalDetail = Schemas['ProfessionalDetail'];

/** A unit of a professional's `Companies`: the first is the professional's own unit. */
export type ProfessionalUnit = Schemas['ProfessionalUnit'];

/** Body of POST professional and PUT professional/{id}. */
export type ProfessionalPayload = Schemas['ProfessionalForm'];

/** The answer of POST professional and PUT professional/{id}. */
export type ProfessionalWritten = Schemas['IdProfessional'];

/** GET types-profile. */
export type TypeProfile = Schemas['TypeProfile'];

/** A row of GET day-off/{idProfessional}. */
export type DayOffItem = Schemas['DayOffItem'];

/** A page of GET day-off/{idProfessional}. */
export type DayOffPage = Schemas['Page_DayOffItem'];

/** Body of POST day-off and PUT day-off/{id}; the screens always name the professional. */
export type DayOffPayload = Schemas['DayOffForm'] & { idProfessional: number };

/** The answer of POST day-off and PUT day-off/{id}. */
export type DayOffWritten = Schemas['IdDayOff'];

/** GET professional/{id}/commission: the rates in force (percent numbers, fixed amounts in reais). */
export type CommissionAnswer = Schemas['CommissionAnswer'];

/** A service paid at its own rate in a CommissionAnswer: `Percent` or `Fixed`. */
export type ServiceCommission = Schemas['ServiceCommission'];

/** Body of PUT professional/{id}/commission. */
export type CommissionPayload = Schemas['CommissionForm'];

/** A service's own rate in the body: `percent` or `fixed`, never both. */
export type ServiceRatePayload = Schemas['ServiceRateForm'];

/** The answer of PUT professional/{id}/commission. */
export type CommissionWritten = Schemas['IdProfessional'];
