// Working hours and services of a professional, shared by the professional detail page and
// 'Meu perfil' (spec 02 §2).
export type { StaffTarget } from './types';
export { WorkingHoursEditor, WEEK_DAYS } from './WorkingHoursEditor';
export { ProfessionalServicesEditor } from './ProfessionalServicesEditor';
export { workingDaySchema, periodSchema, serviceSchema, dayErrors } from './schemas';
