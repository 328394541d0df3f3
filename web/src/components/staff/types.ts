/** Whose hours and services an editor shows: the signed-in professional, or one by id. */
export type StaffTarget = { kind: 'myProfile' } | { kind: 'professional'; idProfessional: number };

/** One weekday as GET professional-working-hours/... answers it; empty periods are null. */
export interface WorkingDay {
  WeekDay: number;
  FirstStart: string | null;
  FirstEnd: string | null;
  SecondStart: string | null;
  SecondEnd: string | null;
  ThirdStart: string | null;
  ThirdEnd: string | null;
}

/** PUT .../day body. */
export interface WorkingDayBody {
  weekDay: number;
  firstStart: string | null;
  firstEnd: string | null;
  secondStart: string | null;
  secondEnd: string | null;
  thirdStart: string | null;
  thirdEnd: string | null;
}

/** A catalogue service (GET service/active). */
export interface CatalogueService {
  IdService: number;
  Description: string;
  ValueDefault: number;
  TimeDefault: number;
}

/** A service as the professional performs it (GET professional-service/...). */
export interface OfferedService {
  IdCompanyProfessionalService: number;
  IdService: number;
  Description: string;
  Time: number;
  Value: number;
  Combo: boolean;
  Status: boolean;
}

/** POST/PUT professional-service body. */
export interface OfferedServiceBody {
  idService: number;
  value: number;
  time: number;
  status: boolean;
}
