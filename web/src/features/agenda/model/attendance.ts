// The appointment's attendance on the agenda (issue 41 §1): its state as a badge, and what the
// front desk may do with it. The server holds the same rules (422 otherwise); the card only
// offers what it would accept.

import type { Attendance, DayItem } from './types';

export const ATTENDANCE_LABELS: Record<Attendance, string> = {
  ARRIVED: 'Cliente chegou',
  ATTENDED: 'Atendido',
  NO_SHOW: 'Não compareceu',
};

/** The badge class of each state (the agenda's badges). */
export const ATTENDANCE_BADGES: Record<Attendance, string> = {
  ARRIVED: 'badge-warning',
  ATTENDED: 'badge-success',
  NO_SHOW: 'badge-danger',
};

/** The appointment's state, or null (nothing recorded, or a value this screen does not know). */
export const attendanceOf = (item: Pick<DayItem, 'Attendance'>): Attendance | null =>
  item.Attendance && item.Attendance in ATTENDANCE_LABELS ? (item.Attendance as Attendance) : null;

/** What the card's options menu may offer about attendance and the comanda. */
export type AttendanceAction = 'arrival' | 'noShow' | 'undoNoShow' | 'openComanda' | 'viewComanda';

export const ATTENDANCE_ACTION_LABELS: Record<AttendanceAction, string> = {
  arrival: 'Cliente chegou',
  noShow: 'Não compareceu',
  undoNoShow: 'Desfazer não compareceu',
  openComanda: 'Abrir comanda',
  viewComanda: 'Ver comanda',
};

/** The front desk marks attendance and opens comandas (the server answers 403 to the barbers). */
export const mayMarkAttendance = (role: string | null) => role === 'ADMIN' || role === 'ATTENDANT';

/**
 * The actions an appointment allows, in the menu's order. `past`: it has started (the agenda's
 * clock); `today`: the unit's day ('YYYY-MM-DD'). A cancelled appointment allows none.
 * - 'Cliente chegou' on its day, while nothing is recorded yet and it has no comanda;
 * - 'Não compareceu' from its start on (any day after too), on the same terms;
 * - 'Desfazer não compareceu' on its day;
 * - 'Abrir comanda' unless it has one or the client did not come; 'Ver comanda' when it has one.
 */
export function attendanceActions(
  item: Pick<DayItem, 'Status' | 'Date' | 'Attendance' | 'IdComanda'>,
  past: boolean,
  today: string,
): AttendanceAction[] {
  if (!item.Status) return [];
  const attendance = attendanceOf(item);
  const hasComanda = item.IdComanda !== null && item.IdComanda !== undefined;
  const sameDay = item.Date.slice(0, 10) === today;
  const actions: AttendanceAction[] = [];
  if (sameDay && attendance === null && !hasComanda) actions.push('arrival');
  if (past && attendance === null && !hasComanda) actions.push('noShow');
  if (sameDay && attendance === 'NO_SHOW') actions.push('undoNoShow');
  if (!hasComanda && attendance !== 'NO_SHOW' && attendance !== 'ATTENDED') actions.push('openComanda');
  if (hasComanda) actions.push('viewComanda');
  return actions;
}

/** The comanda screen (the comandas' own route). */
export const comandaPath = (idComanda: number) => `/dashboard/comanda/${idComanda}`;
