import type { Schemas } from '@/api/wire';

/** Whose hours and services an editor shows: the signed-in professional, or one by id. */
export type StaffTarget = { kind: 'myProfile' } | { kind: 'professional'; idProfessional: number };

/** One weekday as GET professional-working-hours/... answers it; empty periods have no times. */
export type WorkingDay = Schemas['WorkingDay'];

/** PUT .../day body. */
export type WorkingDayBody = Schemas['WorkingDayForm'];

/** The answer of PUT professional-working-hours/.../day. */
export type WorkingDaySaved = Schemas['WorkingDaySaved'];

/** A catalogue service (GET service/active). */
export type CatalogueService = Schemas['CatalogueItem'];

/** A service as the professional performs it (GET professional-service/...). */
export type OfferedService = Schemas['OfferedItem'];

/** POST/PUT professional-service body; combo is left out (the server takes false). */
export type OfferedServiceBody = Omit<Schemas['ServiceForm'], 'combo' | 'intervalAfter'> & {
  /** 'Intervalo após', minutes; absent is 0 (issue 45). */
  intervalAfter?: number;
};

/** The answer of POST and PUT professional-service/... (my profile or a professional). */
export type ServiceSaved = Schemas['ServiceSaved'];
